import Playback
import MediaCore

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
    /// Replies and events not yet written, from `outputStart` on: bytes a slow socket took
    /// are skipped rather than shifted out, so a large backlog drains in linear time.
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Its socket is not read while its replies wait: a client that does not read gets no
    /// more of its requests carried out.
    var readPaused = false

    /// A connection that has sent nothing yet.
    public init() {}

    /// Output held for a client that does not read; past it the client is dropped rather
    /// than the player growing without bound. Twenty thousand replies fit.
    public static let maxOutputBytes = 4 << 20

    /// Bytes queued and not yet written.
    var pendingBytes: Int { output.count - outputStart }

    /// Queues `text` for the client. A file name that is not UTF-8 goes out as its own
    /// bytes, as mpv sends it, so that a client can hand it back to `loadfile`.
    mutating func queue(_ text: String) {
        output.append(contentsOf: FileName.bytes(text))
    }

    /// Hands the unwritten bytes to `write`, which returns how many it wrote (or fewer
    /// than one when the socket took none); those are then forgotten.
    mutating func drain(_ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        let n = output[outputStart...].withUnsafeBytes { write($0) }
        guard n > 0 else { return n }
        outputStart += n
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.count <= 65536)
            outputStart = 0
        } else if outputStart > 65536 && outputStart * 2 > output.count {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return n
    }

    /// Takes bytes read from the socket; returns the lines they completed. Bytes that are
    /// not UTF-8 (a Latin-1 file name for `loadfile`) are kept, as mpv keeps them.
    public mutating func take(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding { discarding = false } else { lines.append(.text(FileName.decode(pending))) }
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
