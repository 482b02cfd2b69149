import CFFmpeg
import FoundationEssentials
import MediaCore
import Web

/// A GIF or an APNG decoded by FFmpeg from the file's bytes, one frame at a time.
///
/// This is how a decode worker plays the animations FFmpeg reads: the file is parsed in
/// the sandbox and only pixels come back, as for a still. Looping starts the file over,
/// which for pictures of a few megabytes costs less than a frame.
final class FFmpegAnimation: PictureSource {
    let info: MediaInfo
    private let bytes: [UInt8]
    private let name: String
    private let maxPixels: Int
    private var opened: Opened
    private let packet = Packet()
    /// Seconds at which the next frame starts when the file gives it no time of its own.
    private var clock = 0.0

    /// The demuxer and decoder of one pass through the file.
    private struct Opened {
        let demuxer: Demuxer
        let decoder: Decoder
        let stream: Int
        var drained = false
    }

    /// The animation in `bytes` (a whole file named `name` in messages), refused over `maxPixels`.
    init(bytes: [UInt8], name: String, maxPixels: Int) throws(AVError) {
        self.bytes = bytes
        self.name = name
        self.maxPixels = maxPixels
        opened = try FFmpegAnimation.open(bytes, name: name, maxPixels: maxPixels)
        let st = opened.demuxer.stream(opened.stream)
        let par = st.pointee.codecpar.pointee
        let codec = String(cString: avcodec_get_name(par.codec_id))
        var info = MediaInfo.picture(kind: .animated, width: Int(par.width), height: Int(par.height),
                                     format: opened.demuxer.formatName, codec: codec)
        let duration = opened.demuxer.ctx.pointee.duration
        if duration > 0 { info.duration = Double(duration) / Double(AV_TIME_BASE) }
        let fps = av_q2d(st.pointee.avg_frame_rate)
        info.streams.frameRate = fps.isFinite && fps > 0 ? fps : nil
        self.info = info
    }

    private static func open(_ bytes: [UInt8], name: String, maxPixels: Int) throws(AVError) -> Opened {
        guard let io = MemoryIO(data: Data(bytes)) else { throw AVError(message: "\(name): out of memory") }
        var options = SourceOptions()
        options.maxPixels = maxPixels
        let d = try Demuxer(url: name, options: options, io: io)
        let v = Int(av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0))
        guard v >= 0 else { throw AVError(message: "\(name): no picture in it") }
        let par = d.stream(v).pointee.codecpar.pointee
        let w = Int(par.width), h = Int(par.height)
        guard w > 0, h > 0 else { throw AVError(message: "\(name): the picture has no size (damaged, or too large to decode)") }
        guard w * h <= maxPixels else { throw PictureSources.tooLarge(name, w, h, maxPixels) }
        // One thread: frames come one at a time, each waited for by the viewer.
        return Opened(demuxer: d, decoder: try Decoder(stream: d.stream(v), threads: 1, maxPixels: maxPixels), stream: v)
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        let frame = Frame()
        // Bounded: a file of packets that never make a frame ends, it does not spin.
        for _ in 0..<100_000 {
            switch opened.decoder.receive(into: frame) {
            case .frame:
                return shown(frame)
            case .endOfStream:
                return nil
            case .failed(let e):
                throw AVError(code: e.code, message: "\(name): \(e.message)")
            case .needsInput:
                if opened.drained { return nil }
                switch opened.demuxer.read(into: packet) {
                case .packet:
                    if packet.streamIndex == opened.stream { _ = opened.decoder.send(packet) }
                    cff_packet_unref(packet.raw)
                case .again:
                    continue
                case .endOfFile, .failed:
                    _ = opened.decoder.send(nil)
                    opened.drained = true
                }
            }
        }
        return nil
    }

    /// The frame as decoded (whoever sends it converts what needs converting) with its
    /// time: the file's own, and the browsers' rule for the tiny delays some GIFs carry.
    private func shown(_ frame: Frame) -> (frame: Frame, pts: Double, duration: Double) {
        let f = frame.raw.pointee
        let duration = PictureSources.animationDelay(opened.decoder.seconds(f.pkt_duration) ?? 0)
        let pts = opened.decoder.seconds(f.best_effort_timestamp) ?? clock
        clock = pts + duration
        return (frame, pts, duration)
    }

    /// Back to the first frame: the file opened again from its bytes.
    func rewind() {
        guard let again = try? FFmpegAnimation.open(bytes, name: name, maxPixels: maxPixels) else { return }
        opened = again
        clock = 0
    }
}
