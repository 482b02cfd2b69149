import FoundationEssentials
import Glibc
import Playback
import Viewer

/// The program among other programs and other launches of itself: the IPC socket and
/// the hand-over of `--enqueue`.
///
/// One instance is a choice the user makes with `--enqueue` (the desktop file passes it):
/// a plain command line stays a player of its own, as scripts and mpv users expect, and
/// serves the default socket only when no other instance does.
extension ViewerApp {
    /// An exit status that ends the launch early: a step of `main` that cannot go on, or `startIPC`.
    struct ExitStatus: Error { let code: Int32 }

    /// `$XDG_RUNTIME_DIR/mediaview.socket`: private to the user and gone at logout. Without
    /// that directory there is no default, since /tmp is shared with everyone.
    nonisolated static func defaultIPCPath(_ environment: [String: String]) -> String? {
        guard let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") else { return nil }
        return (dir.hasSuffix("/") ? String(dir.dropLast()) : dir) + "/mediaview.socket"
    }

    /// Hands `inputs` to a running instance; the exit status when that ends this launch,
    /// nil when this launch goes on as the instance.
    static func enqueue(_ inputs: [String], at path: String?) -> Int32? {
        guard let path else {
            say("mediaview: --enqueue needs --input-ipc-server PATH or $XDG_RUNTIME_DIR to find the running mediaview; starting a new one")
            return nil
        }
        if inputs.isEmpty {
            // Launched from a menu with no file: nothing to hand over if one already runs.
            guard (try? UnixSocket.connect(to: path)).map({ close($0) }) != nil else { return nil }
            say("mediaview: already running (\(path)); no files to add")
            return 0
        }
        switch IPCEnqueue.send(inputs, to: path) {
        case .handed(let n):
            say("mediaview: added \(n) item\(n == 1 ? "" : "s") to the mediaview running at \(path)")
            return 0
        case .noInstance:
            return nil
        case .failed(let reason):
            say("mediaview: --enqueue: \(reason)")
            return 2
        }
    }

    /// Listens on the IPC socket. A path the user named must work (exit 2 if not); the
    /// default one is quietly left to the instance that already serves it.
    static func startIPC(at path: String?, explicit: Bool, idle: ProgramOptions.Idle,
                         makeView: @escaping (String) -> MediaView) -> Result<IPCController?, ExitStatus> {
        // Idle without a socket still keeps the window, as mpv's --idle does.
        MediaQueue.shared.presentation.idles = idle != .no
        guard let path else { return .success(nil) }
        let queue = MediaQueue.shared
        do throws(UnixSocket.Failure) {
            let server = try IPCServer(path: path, queue: queue)
            return .success(IPCController(server: server, queue: queue, idleMode: idle, makeView: makeView))
        } catch {
            switch error {
            case .inUse:
                guard explicit else { return .success(nil) }
                say("mediaview: --input-ipc-server \(path): another mediaview is listening there (--enqueue adds files to it)")
            case .failed(let reason):
                guard explicit else {
                    say("mediaview: no control socket: \(reason)")
                    return .success(nil)
                }
                say("mediaview: --input-ipc-server: \(reason)")
            case .nobodyListening:
                return .success(nil)
            }
        }
        return .failure(ExitStatus(code: 2))
    }

    /// `input` as another process (the running instance) or a later run (resume) must see
    /// it: URLs and absolute paths as they are, relative paths joined to the working directory.
    nonisolated static func absoluteInput(_ input: String) -> String {
        if input.hasPrefix("/") || input.contains("://") { return input }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return input }
        let dir = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (dir.hasSuffix("/") ? dir : dir + "/") + input
    }

    /// Where screenshots go: `$XDG_PICTURES_DIR`, else the Pictures folder named in
    /// `user-dirs.dirs` (what desktops set up) when it exists, else `$HOME`.
    static func picturesDirectory(_ environment: [String: String]) -> String? {
        if let p = environment["XDG_PICTURES_DIR"], p.hasPrefix("/") { return p }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.config" }
        if let config, let data = FileManager.default.contents(atPath: config + "/user-dirs.dirs") {
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("XDG_PICTURES_DIR=") {
                var value = String(line.dropFirst("XDG_PICTURES_DIR=".count).filter { $0 != "\"" })
                if let home, value.hasPrefix("$HOME") { value = home + value.dropFirst(5) }
                var st = stat()
                if value.hasPrefix("/"), stat(value, &st) == 0, st.st_mode & S_IFMT == S_IFDIR { return value }
            }
        }
        return home
    }
}
