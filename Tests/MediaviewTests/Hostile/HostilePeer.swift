import Foundation
import TestSupport

/// What the hostile tests need to play the other side of a socket and to watch the
/// program's use of the machine: raw non-blocking clients, a fake running instance for
/// `--enqueue`, and the CPU and memory figures of `/proc`.
enum HostilePeer {
    /// A non-blocking connection to `path`; nil when the server's backlog is full.
    static func connect(_ path: String) -> Int32? {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return nil }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if ok == 0 { return s }
        close(s)
        return nil
    }

    /// Sends all of `text` on a non-blocking socket, waiting up to `timeout` seconds for
    /// room; the bytes sent.
    @discardableResult
    static func send(_ fd: Int32, _ text: String, timeout: Double = 10) -> Int {
        let bytes = Array(text.utf8)
        var sent = 0
        let end = Date().addingTimeInterval(timeout)
        while sent < bytes.count && Date() < end {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if errno == EAGAIN || errno == EINTR { usleep(1000) } else { break }
        }
        return sent
    }

    /// A listening socket at `path`, as a program pretending to be mediaview holds it.
    static func listen(_ path: String) throws -> Int32 {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard ok == 0, Foundation.listen(s, 4) == 0 else { throw FixtureError("cannot listen on \(path)") }
        return s
    }

    /// CPU seconds (user and system) `pid` has used so far.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name; utime and stime are the 14th and 15th of the line.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `/proc/PID/status` figure in MiB (`VmRSS`, `VmHWM`).
    static func memoryMiB(_ pid: Int32, _ field: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kb = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
            return kb.map { $0 / 1024 }
        }
        return nil
    }

    /// Starts `pid`'s peak (`VmHWM`) over from its resident memory now, and returns that in MiB.
    /// A growth is measured from here: the program lets go of its start's pages once the first
    /// picture shows, so the peak it reached while starting says nothing of what came after.
    static func restartPeakMiB(_ pid: Int32) -> Double? {
        guard let file = fopen("/proc/\(pid)/clear_refs", "w") else { return nil }
        let written = fputs("5", file) >= 0
        guard fclose(file) == 0, written else { return nil }
        return memoryMiB(pid, "VmRSS")
    }

    /// The descriptors `pid` has open.
    static func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }
}
