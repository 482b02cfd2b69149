import Glibc
import MPRIS
import MediaCore
import Playback
import Viewer

/// The program's side of MPRIS: which session bus to use, and what to say without one.
///
/// The library takes a bus address and reads no environment; the program finds the address
/// as libdbus's own clients do. A desktop without a session bus (a bare X server, ssh) is
/// ordinary, so it is only mentioned under `--verbose`; a bus that is named but does not
/// answer is a fault and always gets one line, while everything else works.
@MainActor
enum DesktopBus {
    /// Publishes `queue` as an MPRIS player, or warns once (without a bus, only when
    /// `verbose`) and returns nil.
    static func start(on queue: MediaQueue, environment: [String: String], verbose: Bool) -> MPRISPlayer? {
        guard let address = address(environment) else {
            if verbose { warn("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)") }
            return nil
        }
        do {
            return try MPRISPlayer(queue: queue, busAddress: address)
        } catch {
            warn("session bus: \(error.description)")
            return nil
        }
    }

    /// `DBUS_SESSION_BUS_ADDRESS`, else the per-user bus socket systemd and dbus-broker make
    /// in `$XDG_RUNTIME_DIR/bus`.
    static func address(_ environment: [String: String]) -> String? {
        if let a = environment["DBUS_SESSION_BUS_ADDRESS"], !a.isEmpty { return a }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        var st = stat()
        guard stat(runtime + "/bus", &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    private static func warn(_ reason: String) {
        StandardError.write("mediaview: \(reason); media keys and desktop media widgets will not see this player")
    }
}
