import Foundation

/// Real window managers on the test display, for the tests where what a window manager does
/// is the point: started for one test and stopped by it.
public enum WindowManagers {
    /// Starts openbox (with `configFile` as its rc.xml when given) and waits until it
    /// manages the screen (it announces itself on the root window then).
    public static func openbox(configFile: String? = nil) throws -> Process {
        let p = try Run.start("openbox", ["--sm-disable"] + (configFile.map { ["--config-file", $0] } ?? []),
                              environment: Run.environment())
        try waitUntil(p, "openbox") { managerAnnounced() }
        return p
    }

    /// Whether a running window manager has announced itself: the root names a check window
    /// that names itself back. The root's property alone is not enough: openbox leaves it
    /// behind when it quits, pointing at a window that no longer exists.
    static func managerAnnounced() -> Bool {
        func check(_ args: [String]) -> String? {
            guard let out = try? Run.process("xprop", args + ["_NET_SUPPORTING_WM_CHECK"], timeout: 5).stdout,
                  let range = out.range(of: "window id # ") else { return nil }
            return String(out[range.upperBound...].prefix { !$0.isWhitespace })
        }
        guard let window = check(["-root"]) else { return false }
        return check(["-id", window]) == window
    }

    /// Starts i3 with `config` as its configuration (a bare one by default) and waits until
    /// it answers on its IPC socket.
    public static func i3(config: String = "font pango:DejaVu Sans 8\n") throws -> Process {
        let dir = Fixtures.directory + "/i3-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try config.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
        let p = try Run.start("i3", ["-c", dir + "/config"], environment: Run.environment())
        try waitUntil(p, "i3") { (try? Run.process("i3-msg", ["-t", "get_version"], timeout: 5))?.status == 0 }
        return p
    }

    /// Stops a window manager started here.
    public static func stop(_ p: Process) {
        kill(p.processIdentifier, SIGTERM)
        Run.wait(p, timeout: 5)
    }

    private static func waitUntil(_ p: Process, _ name: String, _ ready: () -> Bool) throws {
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if ready() { return }
            usleep(100_000)
        }
        stop(p)
        throw FixtureError("\(name) did not start")
    }
}
