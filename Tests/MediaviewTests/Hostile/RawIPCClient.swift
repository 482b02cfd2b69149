import Foundation
import Testing
import TestSupport

/// A client of the IPC socket that sends and reads raw bytes, as a script in a Latin-1
/// locale does: names that are not UTF-8 travel inside the JSON as their own bytes.
final class RawIPCClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = try #require(HostilePeer.connect(path), "cannot connect to \(path)")
    }

    deinit { close(fd) }

    /// Sends `line` and a newline; returns the reply line carrying `"request_id":id`.
    func request(_ line: [UInt8], id: Int, timeout: Double = 5) throws -> [UInt8] {
        let bytes = line + [UInt8(ascii: "\n")]
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else if errno == EAGAIN || errno == EINTR { usleep(1000) } else { break }
        }
        let tags = [",", "}"].map { Array(#""request_id":\#(id)"#.utf8) + Array($0.utf8) }
        let end = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < end {
            while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let reply = Array(pending[..<nl])
                pending.removeFirst(nl + 1)
                if tags.contains(where: { reply.firstRange(of: $0) != nil }) { return reply }
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { pending += buffer[0..<n] } else { usleep(10_000) }
        }
        throw FixtureError("no reply to request \(id)")
    }
}
