import CDBus

/// One D-Bus value, for the few types a media player's bus interface needs: what goes into
/// replies and signals, and what comes out of the callers' arguments.
public indirect enum BusValue: Equatable, Sendable {
    /// `s`
    case string(String)
    /// `o`: an object path (a track id in MPRIS).
    case objectPath(String)
    /// `b`
    case bool(Bool)
    /// `x`: MPRIS times are microseconds in one.
    case int64(Int64)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `d`
    case double(Double)
    /// `v`: a value that carries its own type.
    case variant(BusValue)
    /// `a<element>`: `element` is the signature of every item, so an empty array has a type.
    case array(element: String, [BusValue])
    /// `a{sv}`: the properties dictionary of `org.freedesktop.DBus.Properties`.
    case dictionary([(String, BusValue)])

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int64: "x"
        case .int32: "i"
        case .uint32: "u"
        case .double: "d"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictionary: "a{sv}"
        }
    }

    /// The text of a string or object path.
    public var text: String? {
        switch self {
        case .string(let s), .objectPath(let s): s
        default: nil
        }
    }

    /// The number in an `x`.
    public var int64: Int64? { if case .int64(let x) = self { x } else { nil } }

    /// The value inside a variant.
    public var unwrapped: BusValue? { if case .variant(let v) = self { v } else { nil } }

    /// `as`, the type of a list of names.
    public static func strings(_ list: [String]) -> BusValue { .array(element: "s", list.map { .string($0) }) }

    public static func == (a: BusValue, b: BusValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)), (.objectPath(let x), .objectPath(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.int64(let x), .int64(let y)): x == y
        case (.int32(let x), .int32(let y)): x == y
        case (.uint32(let x), .uint32(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.variant(let x), .variant(let y)): x == y
        case (.array(let e, let x), .array(let f, let y)): e == f && x == y
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The type code libdbus uses for a signature's first character.
    static func code(_ c: Character) -> Int32 { Int32(c.asciiValue ?? 0) }

    /// Writes the value at the iterator's place.
    func append(to it: inout DBusMessageIter) {
        switch self {
        case .string(let s), .objectPath(let s):
            s.withCString { p in
                var ptr: UnsafePointer<CChar>? = p
                _ = dbus_message_iter_append_basic(&it, Self.code(signature.first!), &ptr)
            }
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            _ = dbus_message_iter_append_basic(&it, Self.code("b"), &v)
        case .int64(let x):
            var v = x
            _ = dbus_message_iter_append_basic(&it, Self.code("x"), &v)
        case .int32(let x):
            var v = x
            _ = dbus_message_iter_append_basic(&it, Self.code("i"), &v)
        case .uint32(let x):
            var v = x
            _ = dbus_message_iter_append_basic(&it, Self.code("u"), &v)
        case .double(let x):
            var v = x
            _ = dbus_message_iter_append_basic(&it, Self.code("d"), &v)
        case .variant(let inner):
            container(&it, "v", inner.signature) { sub in inner.append(to: &sub) }
        case .array(let element, let items):
            container(&it, "a", element) { sub in for i in items { i.append(to: &sub) } }
        case .dictionary(let entries):
            container(&it, "a", "{sv}") { sub in
                for (key, value) in entries {
                    container(&sub, "e", nil) { entry in
                        BusValue.string(key).append(to: &entry)
                        BusValue.variant(value).append(to: &entry)
                    }
                }
            }
        }
    }

    private func container(_ it: inout DBusMessageIter, _ type: Character, _ contained: String?,
                           _ body: (inout DBusMessageIter) -> Void) {
        var sub = DBusMessageIter()
        if let contained {
            _ = contained.withCString { dbus_message_iter_open_container(&it, Self.code(type), $0, &sub) }
        } else {
            _ = dbus_message_iter_open_container(&it, Self.code(type), nil, &sub)
        }
        body(&sub)
        _ = dbus_message_iter_close_container(&it, &sub)
    }

    /// Reads the value at the iterator's place; nil for a type this player never takes
    /// (file descriptors, structs), which the caller answers as invalid arguments.
    static func read(_ it: inout DBusMessageIter) -> BusValue? {
        let type = dbus_message_iter_get_arg_type(&it)
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&it, &p)
            let s = p.map { String(cString: $0) } ?? ""
            return type == code("s") ? .string(s) : .objectPath(s)
        case UInt8(ascii: "b"):
            var v: dbus_bool_t = 0
            dbus_message_iter_get_basic(&it, &v)
            return .bool(v != 0)
        case UInt8(ascii: "x"):
            var v: Int64 = 0
            dbus_message_iter_get_basic(&it, &v)
            return .int64(v)
        case UInt8(ascii: "i"):
            var v: Int32 = 0
            dbus_message_iter_get_basic(&it, &v)
            return .int32(v)
        case UInt8(ascii: "u"):
            var v: UInt32 = 0
            dbus_message_iter_get_basic(&it, &v)
            return .uint32(v)
        case UInt8(ascii: "d"):
            var v: Double = 0
            dbus_message_iter_get_basic(&it, &v)
            return .double(v)
        case UInt8(ascii: "v"):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&it, &sub)
            return read(&sub).map { .variant($0) }
        default:
            return nil
        }
    }
}
