import CDBus

/// One D-Bus message: a call that came in, or a reply or signal going out. It owns its
/// reference to libdbus's message and lets go of it in deinit.
public final class BusMessage {
    let raw: OpaquePointer

    /// Takes over one reference the caller holds.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference of our own (a message libdbus lends to a handler).
    init(retaining raw: OpaquePointer) {
        self.raw = raw
        dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A signal from `path` on `interface`, with `arguments`.
    public static func signal(path: String, interface: String, name: String, _ arguments: [BusValue]) -> BusMessage? {
        guard let m = dbus_message_new_signal(path, interface, name) else { return nil }
        let message = BusMessage(owning: m)
        message.append(arguments)
        return message
    }

    /// The interface the call names (callers may leave it out).
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    /// The method or signal name.
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// The object the call is for.
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    /// The arguments' type signature, as the caller sent it.
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    /// Whether the caller waits for a reply.
    public var wantsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// The arguments, or nil when one has a type no handler here takes.
    public var arguments: [BusValue]? {
        var it = DBusMessageIter()
        guard dbus_message_iter_init(raw, &it) != 0 else { return [] }
        var out: [BusValue] = []
        repeat {
            guard let v = BusValue.read(&it) else { return nil }
            out.append(v)
        } while dbus_message_iter_next(&it) != 0
        return out
    }

    /// A successful reply to this call, carrying `values`.
    public func reply(_ values: [BusValue] = []) -> BusMessage? {
        guard let m = dbus_message_new_method_return(raw) else { return nil }
        let message = BusMessage(owning: m)
        message.append(values)
        return message
    }

    /// An error reply to this call: `name` is the D-Bus error name, `text` what a person
    /// reads (`dbus-send` and `busctl` print it).
    public func error(_ name: String, _ text: String) -> BusMessage? {
        dbus_message_new_error(raw, name, text).map { BusMessage(owning: $0) }
    }

    private func append(_ values: [BusValue]) {
        var it = DBusMessageIter()
        dbus_message_iter_init_append(raw, &it)
        for v in values { v.append(to: &it) }
    }
}

/// The standard D-Bus error names a service answers bad calls with.
public enum BusErrorName {
    /// Arguments of the wrong number or types.
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// No such method on the interface.
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// No such interface on the object.
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    /// No such property on the interface.
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    /// The property cannot be set.
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
}

/// A message from the bytes a caller put on the socket, read as libdbus reads every
/// incoming call; the fuzzers feed callers' bytes through here to the same argument
/// reading the player's handlers use.
extension BusMessage {
    /// The message `bytes` spell in the D-Bus wire format, or nil when libdbus finds them
    /// malformed (as the bus daemon would, before any call reaches the player).
    public static func demarshal(_ bytes: [UInt8]) -> BusMessage? {
        // The fixed header alone is 16 bytes; libdbus's own bound is far below Int32.max.
        guard bytes.count >= 16, bytes.count <= 1 << 27 else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        return raw.map { BusMessage(owning: $0) }
    }
}
