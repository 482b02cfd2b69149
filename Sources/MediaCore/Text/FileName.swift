import Glibc

/// File names are bytes, not text: Linux lets a name hold any byte but `/` and NUL, and an
/// old Latin-1 `café.png` is `caf\xE9.png`, which is not UTF-8. The viewer carries paths as
/// `String`s, so the bytes that are not UTF-8 travel inside them as private-use characters
/// (one for each such byte) and are turned back into the very bytes when the file is
/// opened, and into U+FFFD when the name is shown. Any file the system can name can then
/// be opened, from the command line or inside a folder.
public enum FileName {
    /// The first of the 128 private-use characters that stand for the bytes 0x80...0xFF.
    static let escapeBase: UInt32 = 0x10FF80

    /// A name's bytes as a string: UTF-8 as it is, every other byte as its stand-in. A name
    /// that is all valid UTF-8 (nearly every one) is the string it spells.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let array = Array(bytes)
        // Plain ASCII, as most names are, has no stand-ins: a folder of a million lists fast.
        if array.allSatisfy({ $0 < 0x80 }) { return String(decoding: array, as: UTF8.self) }
        if let plain = String(validating: array, as: UTF8.self), !plain.unicodeScalars.contains(where: isEscape) {
            return plain
        }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            if let (scalar, length) = scalarAt(array, i), !isEscape(scalar) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(array[i] & 0x7F))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// A raw C string (argv, a directory entry) as a name.
    public static func decode(cString: UnsafePointer<CChar>) -> String {
        var n = 0
        while cString[n] != 0 { n += 1 }
        return cString.withMemoryRebound(to: UInt8.self, capacity: n) { decode(UnsafeBufferPointer(start: $0, count: n)) }
    }

    /// The name of a folder entry `readdir` gave. Read through a pointer to the entry, never
    /// by copying `d_name`: the kernel packs entries by their names' lengths, so the last one
    /// in the buffer is shorter than a whole `dirent`, and a copy of its 256-byte name field
    /// read past the end of the buffer.
    public static func decode(entry: UnsafeMutablePointer<dirent>) -> String {
        let name = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return decode(cString: name.assumingMemoryBound(to: CChar.self))
    }

    /// The bytes a name stands for: its stand-ins back to the bytes they came from.
    public static func bytes(_ name: String) -> [UInt8] {
        guard name.unicodeScalars.contains(where: isEscape) else { return Array(name.utf8) }
        var out: [UInt8] = []
        for s in name.unicodeScalars {
            if isEscape(s) { out.append(UInt8(0x80 | (s.value - escapeBase))) } else { out += Array(String(s).utf8) }
        }
        return out
    }

    /// Calls `body` with the name as the C string the system takes (NUL-terminated bytes).
    public static func withCString<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var b = bytes(name)
        b.append(0)
        return try b.withUnsafeBufferPointer { try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) } }
    }

    /// The name as a person reads it: each byte that is not UTF-8 as U+FFFD.
    public static func display(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: isEscape) else { return name }
        return String(String.UnicodeScalarView(name.unicodeScalars.map { isEscape($0) ? "\u{FFFD}" : $0 }))
    }

    static func isEscape(_ s: Unicode.Scalar) -> Bool { s.value >= escapeBase && s.value < escapeBase + 128 }

    /// The scalar a well-formed UTF-8 sequence at `i` spells, and its length; nil when the
    /// bytes there are not one (stray continuation, overlong form, surrogate, cut off).
    private static func scalarAt(_ b: [UInt8], _ i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let (length, initial, least): (Int, UInt32, UInt32) =
            lead & 0xE0 == 0xC0 ? (2, UInt32(lead & 0x1F), 0x80) :
            lead & 0xF0 == 0xE0 ? (3, UInt32(lead & 0x0F), 0x800) :
            lead & 0xF8 == 0xF0 ? (4, UInt32(lead & 0x07), 0x10000) : (0, 0, 0)
        guard length > 0, i + length <= b.count else { return nil }
        var value = initial
        for k in 1..<length {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b[i + k] & 0x3F)
        }
        guard value >= least, let s = Unicode.Scalar(value) else { return nil }
        return (s, length)
    }
}

/// `file://` URLs as file managers, browsers and media-key widgets write them: the path's
/// bytes %-escaped, so `caf%E9.png` names the Latin-1 file `caf\xE9.png` and must open it,
/// as mpv does, rather than turn into a `caf\u{FFFD}.png` that does not exist.
extension FileName {
    /// The path a `file://` URL names (`file:///p` or `file://localhost/p`), every escape
    /// back to its byte; nil for another host, a relative path or an escaped NUL, which no
    /// path on this machine has.
    public static func path(fromFileURL url: String) -> String? {
        guard url.prefix(7).lowercased() == "file://" else { return nil }
        var rest = Substring(url).dropFirst(7)
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst(9) }
        guard rest.hasPrefix("/") else { return nil }
        let raw = percentDecodedBytes(bytes(String(rest)))
        guard !raw.contains(0) else { return nil }
        return decode(raw)
    }

    /// `file://` and the absolute path's bytes, each one that is not plain ASCII or would
    /// mean something in a URI written as %XX (RFC 8089 and 3986): what a file manager
    /// pastes or reads back as that very file, whatever bytes its name holds.
    public static func fileURL(absolutePath path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        for b in bytes(path) {
            let plain = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "/-._~".utf8.contains(b)
            if plain { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `%XX` escapes back to their bytes; a `%` without two hex digits after it stays.
    public static func percentDecodedBytes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hexValue(bytes[i + 1]),
               let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
