import CDBus

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
