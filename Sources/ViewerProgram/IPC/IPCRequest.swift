/// One line a client sent on the IPC socket, understood, and the replies and events sent
/// back: mpv's JSON lines.
///
/// A line starting with `{` is a JSON request, `{"command": [...], "request_id": N}`,
/// answered with `{"data": ..., "error": "success", "request_id": N}`. Any other line is
/// an input.conf command (`cycle pause`), which gets no reply, as in mpv.
public struct IPCRequest: Equatable, Sendable {
    /// What to do.
    public var command: IPCCommand
    /// Echoed in the reply; 0 when the client gave none.
    public var requestID: Int
    /// False for text commands, which mpv does not answer.
    public var wantsReply: Bool

    /// The longest line read; a longer one is answered with an error and dropped, so a
    /// client cannot make the player hold unbounded memory.
    public static let maxLineBytes = 1 << 20

    /// Why a line was refused, with the request id to answer under.
    public struct Failure: Error, Equatable, Sendable {
        /// mpv's error string.
        public var error: IPCError
        /// The request's id when it could be read, else 0.
        public var requestID: Int
        /// False when the refused line was a text command.
        public var wantsReply = true
    }

    /// The request on `line` (without its newline); nil for a blank line.
    public static func parse(_ line: String) throws(Failure) -> IPCRequest? {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
        if trimmed.isEmpty || trimmed.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return nil }
        guard trimmed.first == "{" else {
            let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map { JSONValue.string(String($0)) }
            do { return IPCRequest(command: try IPCCommand.parse(words), requestID: 0, wantsReply: false) }
            catch { throw Failure(error: error, requestID: 0, wantsReply: false) }
        }
        guard case .object(let fields)? = JSONValue.parse(String(trimmed)) else {
            throw Failure(error: .invalidParameter, requestID: 0)
        }
        var id = 0
        if let given = fields["request_id"] {
            guard case .int(let n) = given else { throw Failure(error: .invalidParameter, requestID: 0) }
            id = n
        }
        guard case .array(let words)? = fields["command"] else { throw Failure(error: .invalidParameter, requestID: id) }
        do { return IPCRequest(command: try IPCCommand.parse(words), requestID: id, wantsReply: true) }
        catch { throw Failure(error: error, requestID: id) }
    }

    /// A reply line (with its newline): success with `data`, or an error.
    public static func reply(requestID: Int, data: JSONValue? = nil, error: IPCError? = nil) -> String {
        var fields: [String: JSONValue] = ["request_id": .int(requestID), "error": .string(error?.rawValue ?? "success")]
        if error == nil { fields["data"] = data ?? .null }
        return JSONValue.object(fields).json + "\n"
    }

    /// An event line (with its newline): `{"event": name, ...fields}`.
    public static func event(_ name: String, _ fields: [String: JSONValue] = [:]) -> String {
        var all = fields
        all["event"] = .string(name)
        return JSONValue.object(all).json + "\n"
    }
}
