import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore

/// An animation a worker plays for the viewer: the file parsed and decoded here, in the
/// sandbox, each frame answered as pixels in a sealed memfd with its time.
///
/// GIF and APNG go to FFmpeg, animated WebP to libwebp, AVIF and JPEG XL with frames to
/// their own libraries: the same decoders the player would use in the viewer.
public final class AnimationWork {
    private let source: PictureSource
    private let name: String

    /// Opens the animation in `bytes` (a whole file named `name`), refused over `maxPixels`.
    public init(_ bytes: [UInt8], name: String, maxPixels: Int, displayProfile: [UInt8]?) throws(AVError) {
        self.name = name
        let colour = PictureColour(displayProfile: displayProfile, name: name)
        let head = Array(bytes.prefix(PictureFormat.headSize))
        switch PictureFormat.sniff(head, name: name) {
        case .animatedWebP?:
            source = try WebPAnimation(bytes: Data(bytes), name: name, maxPixels: maxPixels)
        case .jxl?:
            guard let a = try JXLAnimation.openIfAnimated(bytes, name: name, maxPixels: maxPixels, colour: colour) else {
                throw AVError(message: "\(name): not an animation")
            }
            source = a
        case .avif?:
            source = try AVIFPicture(bytes: bytes, name: name, maxPixels: maxPixels, colour: colour, threads: 1)
        case .heif?, .svg?:
            throw AVError(message: "\(name): not an animation")
        case nil:
            source = try FFmpegAnimation(bytes: bytes, name: name, maxPixels: maxPixels)
        }
    }

    /// The answer for the next frame (from the start again with `restart`): a `picture`, an
    /// `animationEnd`, or a `failure` with the one line.
    public func next(restart: Bool = false) -> WorkerMessage {
        if restart { source.rewind() }
        let frame: (frame: Frame, pts: Double, duration: Double)?
        do {
            frame = try source.next()
        } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
        guard let frame else { return WorkerMessage(kind: .animationEnd) }
        var out = frame.frame
        if !AnimationWork.sendsAsIs(out) {
            guard let rgba = PictureColour.rgbaCopy(of: out) else { return outOfMemory }
            out = rgba
        }
        let info = source.info
        let stored = info.rotation % 180 == 0 ? (info.width, info.height) : (info.height, info.width)
        let still = StillWork.Result(frame: out, rotation: info.rotation, stored: stored, formatName: info.formatName,
                                     codec: info.videoCodec ?? "")
        guard var answer = still.answer() else { return outOfMemory }
        answer.numbers += [AnimationWork.micros(frame.pts), AnimationWork.micros(frame.duration),
                           info.duration.map(AnimationWork.micros) ?? -1, info.streams.frameRate.map(AnimationWork.micros) ?? -1]
        return answer
    }

    private var outOfMemory: WorkerMessage {
        WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "\(name): out of memory")
    }

    /// Whether a frame's pixels go to the viewer as they are: one plane of four bytes a
    /// pixel that its scaler reads. A GIF's BGRA is one, so its frames are copied once, into
    /// the memfd, and not converted first.
    static func sendsAsIs(_ frame: Frame) -> Bool {
        [AV_PIX_FMT_RGBA, AV_PIX_FMT_BGR0, AV_PIX_FMT_BGRA].contains(AVPixelFormat(rawValue: frame.raw.pointee.format))
    }

    /// Seconds as whole microseconds, for the message's numbers; 0 for what is not finite.
    static func micros(_ seconds: Double) -> Int64 {
        seconds.isFinite && abs(seconds) < 1e9 ? Int64((seconds * 1e6).rounded()) : 0
    }
}
