import Glibc
import MediaCore
import Playback

/// Writes what happened as JSON lines: `{"t":12.345678,"event":"presented","index":0,...}`.
///
/// `t` is seconds since the log was opened on the monotonic clock, so it never jumps
/// when the wall clock is set. Each line goes out in one write(2) as soon as it is
/// logged, so a test or script reading the file sees whole lines live, and lines from
/// several threads never interleave. The project's one lock type orders the timestamp and the write
/// together, so `t` never decreases down the file.
public final class EventLog: Sendable {
    /// Why the log could not be opened, in one line.
    public struct OpenError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    private struct State {
        var descriptor: Int32
        /// Set after a failed write (disk full, reader gone): logging stops rather than
        /// failing on every event, and playback goes on.
        var broken = false
    }

    private let state: Locked<State>
    private let ownsDescriptor: Bool
    private let start: timespec

    /// Opens `path` for writing (truncating it), or standard output for `-`.
    public init(path: String) throws(OpenError) {
        if path == "-" {
            state = Locked(State(descriptor: STDOUT_FILENO))
            ownsDescriptor = false
        } else {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw OpenError(description: "cannot open event log '\(path)': \(String(cString: strerror(errno)))")
            }
            state = Locked(State(descriptor: descriptor))
            ownsDescriptor = true
        }
        start = Self.now()
    }

    deinit {
        if ownsDescriptor { state.withLock { _ = close($0.descriptor) } }
    }

    /// Logs one event with its fields, in the order given after `t` and `event`.
    public func log(_ event: String, _ fields: [(String, JSONValue)] = []) {
        state.withLock { state in
            guard !state.broken else { return }
            var line = "{\"t\":" + Self.seconds(since: start) + ",\"event\":"
            Self.appendQuoted(event, to: &line)
            for (name, value) in fields {
                line += ","
                Self.appendQuoted(name, to: &line)
                line += ":"
                value.write(to: &line)
            }
            line += "}\n"
            if !Self.writeAll(line, to: state.descriptor) { state.broken = true }
        }
    }

    /// Appends `text` as a JSON string: quotes, backslash and control characters escaped,
    /// everything else (all of Unicode) passed through as UTF-8.
    ///
    /// Not `JSONEncoder`: it passes U+FEFF and U+2028/2029 through raw, and `make fuzz`
    /// found readers that then lose or split a line (Foundation's reader drops a leading
    /// U+FEFF; JavaScript ends a line at U+2028). Scripts read this log.
    static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Also escaped: U+FEFF, which some readers (Foundation's JSONSerialization) drop
            // at the start of a string as if it were a byte order mark, and U+2028/2029,
            // which end a line in JavaScript.
            case _ where scalar.value < 0x20 || scalar.value == 0xFEFF || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    private static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time
    }

    /// Seconds since `start` with six decimals, formatted from integers so no locale or
    /// floating-point rounding can produce `1e-06` or a comma.
    private static func seconds(since start: timespec) -> String {
        let time = now()
        let nanoseconds = (Int64(time.tv_sec) - Int64(start.tv_sec)) * 1_000_000_000
            + (Int64(time.tv_nsec) - Int64(start.tv_nsec))
        let micro = max(nanoseconds, 0) / 1000
        let fraction = String(micro % 1_000_000)
        return String(micro / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    private static func writeAll(_ line: String, to descriptor: Int32) -> Bool {
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
