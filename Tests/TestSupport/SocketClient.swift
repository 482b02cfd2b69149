import Foundation

/// A client of a Unix stream socket that speaks JSON lines, as a script talks to mpv's
/// (and mediaview's) IPC socket: send a line, wait for the reply or event wanted.
public final class SocketClient {
    private let fd: Int32
    private var pending = Data()
    /// Every JSON object received so far, in order.
    public private(set) var received: [[String: Any]] = []

    /// Connects to `path`, retrying until `timeout` while the socket is not there yet.
    public init(path: String, timeout: Double = 10) throws {
        let start = Date()
        while true {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in
                let bytes = Array(path.utf8)
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let ok = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if ok == 0 {
                fd = s
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                return
            }
            close(s)
            guard Date().timeIntervalSince(start) < timeout else { throw FixtureError("cannot connect to \(path)") }
            usleep(50_000)
        }
    }

    deinit { close(fd) }

    /// Sends raw text (a newline is added).
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if errno == EAGAIN || errno == EINTR { usleep(1000) } else { return }
        }
    }

    /// Sends `{"command": words, "request_id": id}` and waits for the reply to it.
    public func request(_ words: [Any], id: Int, timeout: Double = 5) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: ["command": words, "request_id": id])
        send(String(decoding: data, as: UTF8.self))
        return try requireReply(wait(timeout: timeout) { $0["request_id"] as? Int == id && $0["event"] == nil }, id)
    }

    /// Waits for a received object that satisfies `match` (looking at those already received
    /// first); nil after `timeout`.
    public func wait(timeout: Double = 5, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
        let start = Date()
        var seen = 0
        repeat {
            while seen < received.count {
                if match(received[seen]) { return received[seen] }
                seen += 1
            }
            readAvailable()
            if seen == received.count { usleep(10_000) }
        } while Date().timeIntervalSince(start) < timeout
        return nil
    }

    /// Whether the server closed the connection.
    public var isClosed: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK))
        return n == 0
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            pending.append(contentsOf: buffer[0..<n])
        }
        while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[pending.startIndex..<nl]
            pending = Data(pending[(nl + 1)...])
            if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { received.append(object) }
        }
    }
}

private func requireReply(_ reply: [String: Any]?, _ id: Int) throws -> [String: Any] {
    guard let reply else { throw FixtureError("no reply to request \(id)") }
    return reply
}
