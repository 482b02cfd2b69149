/// One line a client sent on the IPC socket, understood, and the replies and events sent
/// back: mpv's JSON lines.
///
/// A line starting with `{` is a JSON request, `{"command": [...], "request_id": N}`,
/// answered with `{"data": ..., "error": "success", "request_id": N}`. Any other line is
/// an input.conf command (`cycle pause`), which gets no reply, as in mpv.
public struct IPCRequest: Equatable, Sendable {
    /// What to do: one command, or for a text line every command it holds (`a; b`).
    public var commands: [IPCCommand]
    /// Echoed in the reply; 0 when the client gave none.
    public var requestID: Int
    /// False for text commands, which mpv does not answer.
    public var wantsReply: Bool
    /// Prefixes of a text command (`expand-properties`, `raw`, ...), per command.
    public var prefixes: [[String]] = []

    /// The first (for a JSON request, the only) command.
    public var command: IPCCommand { commands[0] }

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

    /// The request on `line` (without its newline); nil for a blank line or a comment.
    public static func parse(_ line: String) throws(Failure) -> IPCRequest? {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard trimmed.first == "{" else { return try parseText(String(trimmed)) }
        guard case .object(let fields)? = JSONValue.parse(String(trimmed)) else {
            throw Failure(error: .invalidParameter, requestID: 0)
        }
        var id = 0
        if let given = fields["request_id"] {
            // mpv takes any integer; a number with a fraction or text is refused.
            guard case .int(let n) = given else { throw Failure(error: .invalidParameter, requestID: 0) }
            id = n
        }
        do throws(IPCError) {
            switch fields["command"] {
            case .array(let words)?:
                return IPCRequest(commands: [try IPCCommand.parse(words)], requestID: id, wantsReply: true)
            case .object(let named)?:
                return IPCRequest(commands: [try IPCCommand.parse(named: named)], requestID: id, wantsReply: true)
            default:
                throw .invalidParameter
            }
        } catch {
            throw Failure(error: error, requestID: id)
        }
    }

    /// A line of input.conf commands, which mpv runs without a reply.
    private static func parseText(_ line: String) throws(Failure) -> IPCRequest? {
        do throws(IPCError) {
            let parsed = try IPCTextCommand.parse(line)
            guard !parsed.isEmpty else { return nil }
            let commands = try parsed.map { (p) throws(IPCError) in try IPCCommand.parse(p.words.map { .string($0) }) }
            return IPCRequest(commands: commands, requestID: 0, wantsReply: false, prefixes: parsed.map(\.prefixes))
        } catch {
            throw Failure(error: error, requestID: 0, wantsReply: false)
        }
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
