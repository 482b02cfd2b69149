import Foundation

/// An X server or a sound server of a test's own, for cases that kill it mid-play without
/// disturbing the shared ones of the test environment.
public enum PrivateServers {
    /// Starts `Xvfb` on a free display; returns it and the display name.
    public static func xvfb() throws -> (Process, String) {
        for n in 150..<200 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)")
            && !FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") {
            let p = try Run.start("Xvfb", [":\(n)", "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"])
            let end = Date().addingTimeInterval(10)
            while Date() < end && p.isRunning {
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(n)") {
                    usleep(200_000)
                    return (p, ":\(n)")
                }
                usleep(50_000)
            }
            stop(p)
        }
        throw FixtureError("could not start a private Xvfb")
    }

    /// Starts a PulseAudio daemon with a null sink on a private socket; returns it and the
    /// value for PULSE_SERVER.
    public static func pulse() throws -> (Process, String) {
        let dir = Fixtures.directory + "/pulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let config = """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(dir)/native
        load-module module-null-sink sink_name=private rate=48000 channels=2
        set-default-sink private

        """
        try config.write(toFile: dir + "/default.pa", atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in ["HOME": dir, "XDG_RUNTIME_DIR": dir, "PULSE_RUNTIME_PATH": dir, "PULSE_STATE_PATH": dir,
                       "DBUS_SESSION_BUS_ADDRESS": "disabled:"] { env[k] = v }
        env["DISPLAY"] = nil
        let p = try Run.start("pulseaudio", ["-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                                             "--realtime=no", "-F", dir + "/default.pa"], environment: env)
        let end = Date().addingTimeInterval(10)
        while Date() < end && p.isRunning {
            if FileManager.default.fileExists(atPath: dir + "/native") {
                usleep(200_000)
                return (p, "unix:\(dir)/native")
            }
            usleep(50_000)
        }
        stop(p)
        throw FixtureError("could not start a private PulseAudio")
    }

    /// Kills a server and reaps it, so no zombie is left (PID 1 here does not reap).
    public static func stop(_ p: Process, signal: Int32 = SIGKILL) {
        kill(p.processIdentifier, signal)
        Run.wait(p, timeout: 5)
    }
}
