import CFFmpeg
import Glibc
import Web

/// A segment of an encrypted HLS stream (AES-128 in CBC with PKCS#7 padding, the method HLS
/// has for whole segments), read through the channel and decrypted in the worker.
///
/// FFmpeg decrypts such a segment with its `crypto` protocol, which opens the segment's
/// address itself: in a worker that has no socket, the playlist demuxer asks for
/// `crypto+https://...` and is given this instead, over the part the viewer fetched. Reads
/// go forward from the start, as the demuxer reads a segment; one that goes back starts
/// the segment again.
final class SegmentDecryption {
    private let part: ChannelIO
    private let aes: OpaquePointer
    private let key: [UInt8]
    private let firstIV: [UInt8]
    private var iv: [UInt8]
    /// Plain bytes handed out so far.
    private var position: Int64 = 0
    /// Decrypted bytes not yet handed out, and cipher bytes not yet decrypted.
    private var plain: [UInt8] = []
    private var cipher: [UInt8] = []
    private var partEnded = false
    /// The padding has come off the last block.
    private var unpadded = false
    /// What FFmpeg reads through.
    private(set) var io: ReaderIO?

    /// Decrypts `part` with the 16-byte `key` and `iv`; nil when either is not 16 bytes or
    /// out of memory.
    init?(part: ChannelIO, key: [UInt8], iv: [UInt8]) {
        guard key.count == 16, iv.count == 16, let aes = av_aes_alloc() else { return nil }
        self.part = part
        self.aes = aes
        self.key = key
        firstIV = iv
        self.iv = iv
        io = nil
        guard restart() else { return nil }
        io = ReaderIO(size: -1) { [unowned self] offset, buffer, want in read(at: offset, into: buffer, want: want) }
        if io == nil { return nil }
    }

    deinit { av_free(UnsafeMutableRawPointer(aes)) }

    /// The part's reader, for the viewer's number of it.
    var source: Int64 { part.source }

    /// The key or IV an HLS demuxer passes in its options (32 hex digits), as bytes.
    static func bytes(hex: String) -> [UInt8]? {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let digits = Array(hex.utf8)
        guard digits.count == 32 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: 32, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// Back to the segment's first byte.
    private func restart() -> Bool {
        guard key.withUnsafeBufferPointer({ av_aes_init(aes, $0.baseAddress, 128, 1) }) == 0,
              part.io?.seek(to: 0, whence: SEEK_SET) == 0 else { return false }
        iv = firstIV
        position = 0
        plain = []
        cipher = []
        partEnded = false
        unpadded = false
        return true
    }

    private func read(at offset: Int64, into buffer: UnsafeMutablePointer<UInt8>, want: Int) -> Int32 {
        if offset < position && !restart() { return cff_averror(EIO) }
        while position < offset {
            // Skipped forward: decrypt and drop what lies between.
            guard fill(Int(min(offset - position, 1 << 20))) else { return cff_averror(EIO) }
            let drop = min(plain.count, Int(offset - position))
            if drop == 0 { return cff_averror_eof }
            plain.removeFirst(drop)
            position += Int64(drop)
        }
        guard fill(want) else { return cff_averror(EIO) }
        let n = min(want, plain.count)
        if n == 0 { return cff_averror_eof }
        plain.withUnsafeBufferPointer { _ = memcpy(buffer, $0.baseAddress!, n) }
        plain.removeFirst(n)
        position += Int64(n)
        return Int32(n)
    }

    /// Decrypts until `want` plain bytes wait or the part has ended; false on a read error
    /// or a segment whose padding is not PKCS#7's.
    private func fill(_ want: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while plain.count < want && !partEnded {
            let n = chunk.withUnsafeMutableBufferPointer { part.io?.read(into: $0.baseAddress!, size: $0.count) ?? cff_averror(EIO) }
            if n == cff_averror_eof || n == 0 { partEnded = true } else if n < 0 { return false } else { cipher += chunk[..<Int(n)] }
            // The last block is kept until the part ends: it holds the padding.
            var blocks = cipher.count / 16
            if !partEnded && cipher.count % 16 == 0 { blocks -= 1 }
            guard blocks > 0 else { continue }
            var out = [UInt8](repeating: 0, count: blocks * 16)
            out.withUnsafeMutableBufferPointer { o in
                cipher.withUnsafeBufferPointer { c in
                    iv.withUnsafeMutableBufferPointer { v in
                        av_aes_crypt(aes, o.baseAddress, c.baseAddress, Int32(blocks), v.baseAddress, 1)
                    }
                }
            }
            cipher.removeFirst(blocks * 16)
            plain += out
        }
        guard partEnded, !unpadded else { return true }
        // A segment is whole blocks, the last ending in 1 to 16 bytes of its padding's length.
        guard cipher.isEmpty, let pad = plain.last, (1...16).contains(pad), plain.count >= Int(pad) else { return false }
        plain.removeLast(Int(pad))
        unpadded = true
        return true
    }
}
