import Glibc

/// The second launch of `mediaview --enqueue FILE...`: hands the files to the instance
/// already listening on the IPC socket, as mpv `loadfile ... append-play` commands, and
/// waits for its answers.
///
/// The instance gets one allowance of time for the whole hand-over, sending and answering
/// together: a peer that trickles a byte now and then, or never reads, cannot keep the
/// launch waiting past it.
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

    /// How long the running instance gets for a handful of files.
    static let answerTimeout = 5.0
    /// And for each file more, so a folder's worth of files is not cut short.
    static let timePerItem = 0.001

    /// Sends `inputs` to the instance at `path`. Relative paths are made absolute first,
    /// since the running instance has its own working directory.
    static func send(_ inputs: [String], to path: String) -> Outcome {
        let deadline = Deadline(seconds: answerTimeout + timePerItem * Double(inputs.count))
        let fd: Int32
        do { fd = try UnixSocket.connect(to: path, timeout: deadline.remaining) } catch {
            switch error {
            case .nobodyListening: return .noInstance
            case .failed(let text): return .failed(text)
            case .inUse: return .failed(path)
            }
        }
        defer { close(fd) }
        var out = ""
        for (i, input) in inputs.enumerated() {
            let command = JSONValue.array(["loadfile", .string(ViewerApp.absoluteInput(input)), "append-play"])
            out += JSONValue.object(["command": command, "request_id": .int(i + 1)]).json + "\n"
        }
        var exchange = Exchange(request: Array(out.utf8), inputs: inputs)
        while exchange.answered.count < inputs.count {
            var p = pollfd(fd: fd, events: Int16(POLLIN) | (exchange.sendingDone ? 0 : Int16(POLLOUT)), revents: 0)
            let ready = poll(&p, 1, deadline.pollMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                let seconds = Int((answerTimeout + timePerItem * Double(inputs.count)).rounded())
                return .failed("the running mediaview at \(path) did not take the files within \(seconds) s")
            }
            if let failure = exchange.step(fd, p.revents) {
                return .failed(failure.isEmpty ? "the running mediaview at \(path) stopped answering" : failure)
            }
        }
        return .handed(inputs.count)
    }

    /// Both directions of the hand-over: the request bytes still to send, and the replies
    /// read so far, each request counted once however often it is answered.
    private struct Exchange {
        let request: [UInt8]
        let inputs: [String]
        var sent = 0
        var framing = IPCConnection()
        var answered: Set<Int> = []

        var sendingDone: Bool { sent == request.count }

        /// Sends and reads what the socket allows now; a failure line when it is over
        /// (empty: the peer went away).
        mutating func step(_ fd: Int32, _ events: Int16) -> String? {
            if events & Int16(POLLOUT) != 0 && !sendingDone {
                let n = request[sent...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n > 0 { sent += n } else if n < 0 && errno != EAGAIN && errno != EINTR { return "" }
            }
            guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return nil }
            guard n > 0 else { return "" }
            return take(buffer[0..<n])
        }

        /// Counts the replies in `bytes`; events in between are skipped.
        private mutating func take(_ bytes: ArraySlice<UInt8>) -> String? {
            for case .text(let line) in framing.take(bytes) {
                guard case .object(let reply)? = JSONValue.parse(line), case .int(let id)? = reply["request_id"],
                      reply["event"] == nil, (1...inputs.count).contains(id) else { continue }
                answered.insert(id)
                if case .string(let e)? = reply["error"], e != "success" {
                    // The peer's words, kept to one short line.
                    let said = String(String.UnicodeScalarView(e.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(80)))
                    return "the running mediaview refused \(inputs[id - 1]): \(said)"
                }
            }
            return nil
        }
    }
}
