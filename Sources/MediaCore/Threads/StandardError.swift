import Glibc

/// One-line messages for the user on standard error.
///
/// Each line goes out in one `write(2)`, so lines from different threads never
/// interleave mid-line (stdio's stderr is unbuffered and would split a long one).
public enum StandardError {
    /// Writes `line` and a newline.
    public static func write(_ line: String) {
        // A file name's bytes that are not UTF-8 show as U+FFFD.
        var bytes = Array(FileName.display(line).utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
