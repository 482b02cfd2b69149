import Glibc

/// Forbidden things a test asks a confined worker to try (honoured only when the worker was
/// started with MEDIAVIEW_WORKER_TEST=1): each answers how it was refused, or the sandbox
/// kills the worker (SIGSYS) first.
enum Probe {
    /// `open:PATH` (to read), `create:PATH` (to write), `tcp:PORT`, `unix:PATH`, `exec:PATH`, `fork`, `hang`, `abort`.
    static func run(_ what: String) -> String {
        let parts = what.split(separator: ":", maxSplits: 1).map(String.init)
        let arg = parts.count > 1 ? parts[1] : ""
        switch parts.first ?? "" {
        case "open":
            let fd = open(arg, O_RDONLY)
            return fd >= 0 ? "allowed" : refused()
        case "create":
            let fd = open(arg, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            return fd >= 0 ? "allowed" : refused()
        case "tcp":
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard s >= 0 else { return refused() }
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = in_port_t(UInt16(arg) ?? 0).bigEndian
            a.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let rc = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return rc == 0 ? "allowed" : refused()
        case "unix":
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard s >= 0 else { return refused() }
            var a = sockaddr_un()
            a.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &a.sun_path) { dst in
                for (i, b) in arg.utf8.prefix(dst.count - 1).enumerated() { dst[i] = b }
            }
            let rc = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            return rc == 0 ? "allowed" : refused()
        case "exec":
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(arg), nil]
            execv(arg, argv)
            return refused()
        case "fork":
            // Threads may be started (libheif's decoder needs one); a process may not.
            let pid = fork()
            if pid == 0 { _exit(0) }
            return pid > 0 ? "allowed" : refused()
        case "hang":
            while true { sleep(1) }
        case "abort":
            abort()
        default:
            return "unknown probe"
        }
    }

    private static func refused() -> String {
        let e = errno
        return "refused: " + (e == EACCES ? "EACCES" : e == EPERM ? "EPERM" : "errno \(e)")
    }
}
