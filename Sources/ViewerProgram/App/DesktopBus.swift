import Glibc
import Playback
import MPRIS
import Viewer

/// The program's side of MPRIS: which session bus to use, and what to say without one.
///
/// The library takes a bus address and reads no environment; the program finds the address
/// as libdbus's own clients do, and a desktop without a session bus (a bare X server, ssh)
/// gets one line of warning while everything else works.
@MainActor
enum DesktopBus {
    /// Publishes `queue` as an MPRIS player, or warns once and returns nil.
    static func start(on queue: MediaQueue, environment: [String: String]) -> MPRISPlayer? {
        guard let address = address(environment) else {
            warn("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
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
