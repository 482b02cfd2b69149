import Glibc

/// The second launch of `mediaview --enqueue FILE...`: hands the files to the instance
/// already listening on the IPC socket, as mpv `loadfile ... append-play` commands, and
/// waits for its answers.
enum IPCEnqueue {
    /// How the hand-over went.
    enum Outcome: Equatable {
        /// The running instance took this many items.
        case handed(Int)
        /// Nobody listens there: this launch becomes the instance.
        case noInstance
        /// Something else went wrong, in one line.
        case failed(String)
    }

    /// How long the running instance gets to answer before the launch gives up on it.
    static let answerTimeout = 5

    /// Sends `inputs` to the instance at `path`. Relative paths are made absolute first,
    /// since the running instance has its own working directory.
    static func send(_ inputs: [String], to path: String) -> Outcome {
        let fd: Int32
        do { fd = try UnixSocket.connect(to: path) } catch {
            switch error {
            case .nobodyListening: return .noInstance
            case .failed(let text): return .failed(text)
            case .inUse: return .failed(path)
            }
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: answerTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out = ""
        for (i, input) in inputs.enumerated() {
            let command = JSONValue.array(["loadfile", .string(ViewerApp.absoluteInput(input)), "append-play"])
            out += JSONValue.object(["command": command, "request_id": .int(i + 1)]).json + "\n"
        }
        let bytes = Array(out.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .failed("the running mediaview at \(path) stopped listening") }
            sent += n
        }
        return awaitReplies(fd, count: inputs.count, inputs: inputs, path: path)
    }

    /// Reads lines until every request has its reply; events in between are skipped.
    private static func awaitReplies(_ fd: Int32, count: Int, inputs: [String], path: String) -> Outcome {
        var framing = IPCConnection()
        var answered = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while answered < count {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .failed("the running mediaview at \(path) did not answer") }
            for case .text(let line) in framing.take(buffer[0..<n]) {
                guard case .object(let reply)? = JSONValue.parse(line), case .int(let id)? = reply["request_id"],
                      reply["event"] == nil, (1...count).contains(id) else { continue }
                answered += 1
                if case .string(let e)? = reply["error"], e != "success" {
                    return .failed("the running mediaview refused \(inputs[id - 1]): \(e)")
                }
            }
        }
        return .handed(count)
    }
}
