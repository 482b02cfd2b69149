/// What one IPC client has sent and is yet to receive: bytes cut into lines, and output
/// that the socket could not take yet.
///
/// Kept apart from the socket calls so that the line framing can be fuzzed: any bytes in,
/// whole lines out, and never more than `IPCRequest.maxLineBytes` held for one line.
public struct IPCConnection {
    /// A complete line, or the news that one was too long and was dropped.
    public enum Line: Equatable, Sendable {
        /// A line, without its newline.
        case text(String)
        /// A line longer than `IPCRequest.maxLineBytes`, dropped.
        case tooLong
    }

    private var pending: [UInt8] = []
    /// Inside a line that was already too long: bytes are dropped up to its newline.
    private var discarding = false
    /// Replies and events not yet written.
    var output: [UInt8] = []

    /// A connection that has sent nothing yet.
    public init() {}

    /// Output held for a client that does not read; past it the client is dropped rather
    /// than the player growing without bound.
    public static let maxOutputBytes = 8 << 20

    /// Takes bytes read from the socket; returns the lines they completed.
    public mutating func take(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding { discarding = false } else { lines.append(.text(String(decoding: pending, as: UTF8.self))) }
                pending.removeAll(keepingCapacity: true)
            } else if !discarding {
                pending.append(byte)
                if pending.count > IPCRequest.maxLineBytes {
                    pending.removeAll()
                    discarding = true
                    lines.append(.tooLong)
                }
            }
        }
        return lines
    }
}
