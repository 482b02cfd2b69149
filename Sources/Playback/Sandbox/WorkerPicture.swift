import CFFmpeg
import Glibc
import MediaCore

/// A still decoded by a worker, played as any other `PictureSource`: one frame over the
/// worker's sealed pixels, mapped (privately: nothing written here reaches the memfd).
final class WorkerPicture: PictureSource {
    let info: MediaInfo
    /// How many rows from the top are the picture's own (all but for a file still arriving).
    let rowsPresent: Int
    private let frame: Frame
    private var given = false

    /// The picture in an answer message (which this takes the fd of); nil when malformed.
    init?(_ m: WorkerMessage) {
        defer { if m.fd >= 0 { close(m.fd) } }
        let n = m.numbers
        guard n.count >= 9, m.fd >= 0 else { return nil }
        let (w, h, stride) = (Int(n[0]), Int(n[1]), Int(n[2]))
        let format = AVPixelFormat(rawValue: Int32(truncatingIfNeeded: n[3]))
        guard w > 0, h > 0, stride >= w * 4, stride <= Int(Int32.max), h <= Int(Int32.max) / stride,
              [AV_PIX_FMT_RGBA, AV_PIX_FMT_BGR0, AV_PIX_FMT_BGRA].contains(format),
              let frame = WorkerPicture.frame(fd: m.fd, width: w, height: h, stride: stride, format: format) else { return nil }
        let rotation = [0, 90, 180, 270].contains(Int(n[4])) ? Int(n[4]) : 0
        frame.raw.pointee.sample_aspect_ratio = AVRational(num: Int32(truncatingIfNeeded: n[5]), den: Int32(truncatingIfNeeded: n[6]))
        self.frame = frame
        let names = m.text.split(separator: "\n", maxSplits: 1).map(String.init)
        var (sw, sh) = (max(1, Int(n[7])), max(1, Int(n[8])))
        if rotation % 180 != 0 { (sw, sh) = (sh, sw) }
        var info = MediaInfo(kind: .image, duration: nil, width: sw, height: sh, hasAudio: false, hasCoverArt: false,
                             formatName: names.first ?? "", videoCodec: names.count > 1 && !names[1].isEmpty ? names[1] : nil,
                             audioCodec: nil, title: nil, artist: nil, rotation: rotation)
        // An SVG is drawn again by the viewer at the size it is zoomed to.
        info.isScalable = n.count > 9 && n[9] == 1
        self.info = info
        rowsPresent = n.count > 10 ? Int(max(0, min(Int64(h), n[10]))) : h
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        guard !given else { return nil }
        given = true
        return (frame, 0, 0)
    }

    func rewind() { given = false }

    /// The pixels, `width` x `height` BGR0 or RGBA rows of `stride` bytes.
    var pixels: StillPixels {
        let f = frame.raw
        let stride = Int(f.pointee.linesize.0), h = Int(f.pointee.height)
        return StillPixels(width: Int(f.pointee.width), height: h, format: f.pointee.format == AV_PIX_FMT_RGBA.rawValue ? .rgba : .bgr0,
                           rotation: info.rotation, bytes: Array(UnsafeRawBufferPointer(start: f.pointee.data.0, count: stride * h)))
    }

    /// A frame whose one plane is the memfd mapped; unmapped when the frame is freed.
    private static func frame(fd: Int32, width: Int, height: Int, stride: Int, format: AVPixelFormat) -> Frame? {
        let count = stride * height
        guard let p = SealedBytes.map(fd, count: count) else { return nil }
        guard let frame = Frame(plane: UnsafeMutableRawBufferPointer(start: p, count: count)) else {
            munmap(p, count)
            return nil
        }
        let f = frame.raw
        f.pointee.data.0 = p.assumingMemoryBound(to: UInt8.self)
        f.pointee.linesize.0 = Int32(stride)
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = format.rawValue
        f.pointee.key_frame = 1
        return frame
    }
}

/// A decoded still's pixels as plain bytes, for comparing the worker's with the viewer's own.
public struct StillPixels: Equatable, Sendable {
    /// The byte order of each pixel.
    public enum Format: Sendable { case rgba, bgr0 }
    public let width: Int
    public let height: Int
    public let format: Format
    /// Clockwise degrees the picture is shown turned.
    public let rotation: Int
    /// Rows of `width * 4` bytes.
    public let bytes: [UInt8]
}

extension StillWork.Result {
    /// The pixels as plain bytes.
    public var pixels: StillPixels {
        let f = frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for y in 0..<h { out += UnsafeRawBufferPointer(start: f.pointee.data.0! + y * Int(f.pointee.linesize.0), count: w * 4) }
        return StillPixels(width: w, height: h, format: f.pointee.format == AV_PIX_FMT_RGBA.rawValue ? .rgba : .bgr0,
                           rotation: rotation, bytes: out)
    }
}

extension DecodeWorkers {
    /// Decodes `bytes` in a worker and returns its pixels (tests compare them with `StillWork`'s
    /// in-process ones); throws the line the viewer would show.
    public func decodePixels(_ bytes: [UInt8], name: String, options: PlayerOptions) throws(AVError) -> StillPixels {
        switch try still(bytes, name: name, options: options) {
        case .picture(let p): return p.pixels
        case .inProcess: throw AVError(message: "\(name): no worker")
        case .moving: throw AVError(message: "\(name): an animation")
        }
    }
}
