import FoundationEssentials

/// Reading JSON text into a `JSONValue`, for what clients send on the IPC socket.
///
/// FoundationEssentials' decoder does the parsing (it bounds nesting depth and rejects
/// what is not JSON); this only maps its values onto the cases. Integers stay integers,
/// so a `request_id` of 7 is echoed as 7, not 7.0.
extension JSONValue: Decodable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let flag = try? c.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? c.decode(Int.self) {
            self = .int(number)
        } else if let number = try? c.decode(Double.self) {
            self = .double(number)
        } else if let text = try? c.decode(String.self) {
            self = .string(text)
        } else if let items = try? c.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// The value `text` holds, or nil when it is not JSON.
    public static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// A number, from a JSON number or from text holding one (mpv takes both for arguments).
    var number: Double? {
        switch self {
        case .int(let n): return Double(n)
        case .double(let n): return n.isFinite ? n : nil
        case .string(let s): return Double(s).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// A flag, from JSON true/false or mpv's `yes`/`no` text.
    var flag: Bool? {
        switch self {
        case .bool(let b): return b
        case .string("yes"): return true
        case .string("no"): return false
        default: return nil
        }
    }

    /// Text, from a JSON string or the text of a number (mpv's commands take both).
    var text: String? {
        switch self {
        case .string(let s): return s
        case .int(let n): return String(n)
        case .double(let n): return String(n)
        default: return nil
        }
    }
}
