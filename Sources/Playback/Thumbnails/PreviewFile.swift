import CFFmpeg
import FoundationEssentials
import Glibc

/// The bytes of one stored preview: a header saying what it is, then its YUV 4:2:0 planes.
/// Decoding checks every number before memory is allocated, so a damaged file is refused,
/// not trusted.
public enum PreviewFile {
    static let magic: [UInt8] = Array("mvprev01".utf8)
    static let indexMagic: [UInt8] = Array("mvkeys01".utf8)
    static let header = 8 + 5 * 4 + 8
    static let largest = header + 640 * 1280 * 3 / 2

    /// A stored preview back as a frame; nil unless the bytes are exactly one.
    public static func decode(_ bytes: [UInt8]) -> VideoFrame? {
        guard bytes.count >= header, Array(bytes[0..<8]) == magic else { return nil }
        func int(_ at: Int) -> Int {
            Int(Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24))
        }
        let w = int(8), h = int(12), sarNum = int(16), sarDen = int(20), rotation = int(24)
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[28 + i]) << (8 * UInt64(i)) }
        let pts = Double(bitPattern: bits)
        guard w >= 2, h >= 2, w <= 640, h <= 1280, w % 2 == 0, h % 2 == 0, [0, 90, 180, 270].contains(rotation),
              pts.isFinite, sarNum >= 0, sarDen >= 0,
              bytes.count == header + w * h * 3 / 2, let out = av_frame_alloc() else { return nil }
        let owned = Frame(adopting: out)
        out.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        out.pointee.width = Int32(w)
        out.pointee.height = Int32(h)
        out.pointee.sample_aspect_ratio = AVRational(num: Int32(sarNum), den: Int32(sarDen))
        guard av_frame_get_buffer(out, 0) >= 0 else { return nil }
        var offset = header
        for (plane, pw, ph) in [(0, w, h), (1, w / 2, h / 2), (2, w / 2, h / 2)] {
            guard case let (data?, stride) = PreviewFile.plane(plane, of: out) else { return nil }
            for row in 0..<ph {
                bytes.withUnsafeBufferPointer { src in
                    (data + row * stride).update(from: src.baseAddress! + offset, count: pw)
                }
                offset += pw
            }
        }
        return VideoFrame(frame: owned, pts: pts, duration: 0, serial: 0, rotation: rotation)
    }

    /// A small YUV 4:2:0 frame as the bytes `decode` reads; nil for any other frame.
    public static func encode(_ frame: VideoFrame) -> [UInt8]? {
        let f = frame.frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        guard f.pointee.format == AV_PIX_FMT_YUV420P.rawValue, w % 2 == 0, h % 2 == 0, w <= 640, h <= 1280 else { return nil }
        var out = magic
        out.reserveCapacity(header + w * h * 3 / 2)
        for v in [w, h, Int(f.pointee.sample_aspect_ratio.num), Int(f.pointee.sample_aspect_ratio.den), frame.rotation] {
            let u = UInt32(bitPattern: Int32(truncatingIfNeeded: v))
            out += [UInt8(u & 0xFF), UInt8((u >> 8) & 0xFF), UInt8((u >> 16) & 0xFF), UInt8(u >> 24)]
        }
        let bits = frame.pts.bitPattern
        for i in 0..<8 { out.append(UInt8((bits >> (8 * UInt64(i))) & 0xFF)) }
        for (plane, pw, ph) in [(0, w, h), (1, w / 2, h / 2), (2, w / 2, h / 2)] {
            guard case let (data?, stride) = PreviewFile.plane(plane, of: f) else { return nil }
            for row in 0..<ph { out += UnsafeBufferPointer(start: data + row * stride, count: pw) }
        }
        return out
    }

    /// Plane `i` (0...2) of a frame and its line size: the C arrays are tuples in Swift.
    private static func plane(_ i: Int, of f: UnsafeMutablePointer<AVFrame>) -> (UnsafeMutablePointer<UInt8>?, Int) {
        switch i {
        case 0: return (f.pointee.data.0, Int(f.pointee.linesize.0))
        case 1: return (f.pointee.data.1, Int(f.pointee.linesize.1))
        default: return (f.pointee.data.2, Int(f.pointee.linesize.2))
        }
    }

    /// Keyframe times as stored: the magic, then each time as a little-endian double.
    public static func encodeIndex(_ times: [Double]) -> [UInt8] {
        var out = indexMagic
        out.reserveCapacity(8 + times.count * 8)
        for t in times.prefix(100_000) {
            let bits = t.bitPattern
            for i in 0..<8 { out.append(UInt8((bits >> (8 * UInt64(i))) & 0xFF)) }
        }
        return out
    }

    /// Stored keyframe times back, in order; nil unless the bytes are a whole index of finite,
    /// ascending times.
    public static func decodeIndex(_ bytes: [UInt8]) -> [Double]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == indexMagic, (bytes.count - 8) % 8 == 0,
              bytes.count <= 8 + 100_000 * 8 else { return nil }
        var times: [Double] = []
        times.reserveCapacity((bytes.count - 8) / 8)
        var at = 8
        while at < bytes.count {
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            let t = Double(bitPattern: bits)
            guard t.isFinite, times.last.map({ $0 <= t }) ?? true else { return nil }
            times.append(t)
            at += 8
        }
        return times
    }
}
