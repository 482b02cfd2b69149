/// What one command takes, as mpv's manual lists it: named parameters in order, each with
/// a type, the trailing ones optional; some commands take any number of strings after.
///
/// The same rows answer `command-list`, so a client that builds its methods from that list
/// (python-mpv-jsonipc does) sees exactly what `parse` accepts.
public struct IPCSignature: Equatable, Sendable {
    /// One parameter.
    public struct Parameter: Equatable, Sendable {
        /// mpv's name for it, as the named form and `command-list` use.
        public var name: String
        /// The value it takes.
        public var kind: Kind
        /// Whether it may be left out.
        public var optional: Bool
    }

    /// The types of parameters, and what each accepts.
    public enum Kind: String, Equatable, Sendable {
        /// Text; a number is taken as its text, as mpv does for string arguments.
        case string = "String"
        /// A number, or text holding one.
        case number = "Double"
        /// A whole number, or text holding one.
        case integer = "Integer"
        /// Any JSON value (a property's new value).
        case any = "Node"
    }

    /// The parameters in order.
    public var parameters: [Parameter]
    /// Any number of further string arguments after them (`script-message`).
    public var variadic = false

    /// The arguments as the parameters want them; mpv's error when they do not fit.
    func check(_ given: [JSONValue]) throws(IPCError) -> [JSONValue] {
        let required = parameters.filter { !$0.optional }.count
        guard given.count >= required, variadic || given.count <= parameters.count else { throw .invalidParameter }
        var out: [JSONValue] = []
        for (i, value) in given.enumerated() {
            let kind = i < parameters.count ? parameters[i].kind : .string
            out.append(try Self.convert(value, to: kind))
        }
        return out
    }

    /// The arguments of the named form, in parameter order; optional ones left out become
    /// null so that later ones keep their places. Unknown names are refused, as in mpv.
    func check(named fields: [String: JSONValue]) throws(IPCError) -> [JSONValue] {
        let known = Set(parameters.map(\.name) + ["name", "_flags"] + (variadic ? ["args"] : []))
        guard fields.keys.allSatisfy(known.contains) else { throw .invalidParameter }
        var out: [JSONValue] = []
        for p in parameters {
            if let v = fields[p.name] { out.append(try Self.convert(v, to: p.kind)) }
            else if p.optional { out.append(.null) }
            else { throw .invalidParameter }
        }
        while out.last == .null { out.removeLast() }
        if variadic, case .array(let rest)? = fields["args"] {
            guard out.count == parameters.count else { throw .invalidParameter }
            for v in rest { out.append(try Self.convert(v, to: .string)) }
        }
        return out
    }

    static func convert(_ value: JSONValue, to kind: Kind) throws(IPCError) -> JSONValue {
        switch kind {
        case .any: return value
        case .string:
            if case .bool(let b) = value { return .string(b ? "yes" : "no") }
            guard let t = value.text else { throw .invalidParameter }
            return .string(t)
        case .number:
            guard let n = value.number else { throw .invalidParameter }
            return .double(n)
        case .integer:
            if case .int = value { return value }
            guard let n = value.number, n == n.rounded(), abs(n) < 1e15 else { throw .invalidParameter }
            return .int(Int(n))
        }
    }

    /// The entry of `command-list` for a command: mpv's shape.
    func listing(_ name: String) -> JSONValue {
        .object(["name": .string(name), "vararg": .bool(variadic),
                 "args": .array(parameters.map {
                     .object(["name": .string($0.name), "type": .string($0.kind.rawValue), "optional": .bool($0.optional)])
                 })])
    }
}
