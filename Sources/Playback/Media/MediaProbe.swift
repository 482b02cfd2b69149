import CFFmpeg
import FoundationEssentials
import MediaCore
import Web

/// Runs bytes held in memory through the code every opened file and URL goes through —
/// FFmpeg's demuxers over our AVIO, the decoders, the resampler, the scaler, libjpeg-turbo,
/// libwebp, libavif, libheif, libjxl, librsvg and lcms2 — as fast as they decode and within a work budget, and says what came out.
///
/// Whatever a user opens reaches these paths, so they must refuse or survive any bytes.
/// This is how the media fuzzer (`make fuzz-media`) and the replay of its corpus in
/// `make test` drive them: one input at a time, on the calling thread, with no window,
/// sound server or network.
public enum MediaProbe {
    /// How much work one input may cost.
    public struct Budget: Sendable {
        /// Pixels of one picture; larger ones are refused before decoding, as the player does.
        public var maxPixels = 4_000_000
        /// Pixels decoded over the whole input.
        public var totalPixels = 40_000_000
        public var maxFrames = 40
        public var maxPackets = 400
        /// Wall-clock seconds for the whole input (reads stop at this deadline too).
        public var seconds = 2.0

        public init() {}
    }

    /// What one input gave.
    public struct Outcome: Sendable {
        /// Pictures decoded and scaled, and sound frames resampled.
        public var frames = 0
        /// Why the demuxer or a decoder refused the input, when one did.
        public var failure: AVError?
    }

    public static func run(_ bytes: [UInt8], budget: Budget = Budget()) -> Outcome {
        FFmpegLog.quiet
        let work = Work(budget: budget)
        // One per input, as one player has one: a damaged profile is warned about once.
        let colour = PictureColour(displayProfile: nil, name: "input")
        // A JPEG still is libjpeg's before FFmpeg's in the player; the input byte count picks
        // the reduced size, so every scale factor is reached.
        if bytes.starts(with: [0xFF, 0xD8]) {
            let jpeg = JPEGStill(lowres: bytes.count % 4, maxPixels: budget.maxPixels)
            do throws(AVError) {
                work.show(colour.manage(try decode(jpeg, bytes)))
            } catch { work.outcome.failure = error }
        }
        // As the player: what a picture decoder of our own takes never reaches FFmpeg.
        if !pictures(bytes, work, colour) { ffmpeg(bytes, work, colour) }
        return work.outcome
    }

    /// The player's decoders outside FFmpeg (AVIF, HEIC, animated JPEG XL, SVG, animated
    /// WebP), as the player picks them by the first bytes, twice through as a loop plays; an
    /// SVG is drawn small and large, as a zoom draws it again. False when none took it.
    private static func pictures(_ bytes: [UInt8], _ work: Work, _ colour: PictureColour) -> Bool {
        var options = PlayerOptions()
        options.source.maxPixels = work.budget.maxPixels
        options.targetSize = bytes.count % 2 == 0 ? (96, 64) : (1000, 800)
        do throws(AVError) {
            guard let picture = try PictureSources.open(bytes, name: "input.svgz", options: options, colour: colour) else {
                return false
            }
            for _ in 0..<2 {
                while work.hasRoom, let f = try picture.next() { work.show(f.frame) }
                picture.rewind()
            }
        } catch { work.outcome.failure = error }
        return true
    }

    private static func decode(_ jpeg: JPEGStill, _ bytes: [UInt8]) throws(AVError) -> Frame {
        var result: Result<Frame, AVError> = .failure(AVError(message: "libjpeg: no data"))
        bytes.withUnsafeBytes { b in
            do throws(AVError) { result = .success(try jpeg.decode(b)) } catch { result = .failure(error) }
        }
        return try result.get()
    }

    /// Demuxes everything FFmpeg finds and decodes the best picture and sound streams.
    private static func ffmpeg(_ bytes: [UInt8], _ work: Work, _ colour: PictureColour) {
        var options = SourceOptions()
        options.maxPixels = work.budget.maxPixels
        options.networkTimeout = work.budget.seconds
        guard let io = MemoryIO(data: Data(bytes)) else { return }
        let d: Demuxer
        do {
            d = try Demuxer(url: "memory:input", options: options, io: io)
        } catch {
            work.outcome.failure = error
            return
        }
        let v = av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let a = av_find_best_stream(d.ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        var video: Decoder?
        if v >= 0 {
            let par = d.stream(Int(v)).pointee.codecpar.pointee
            // The player's own refusal (DemuxStage.describe): no size, or over the budget.
            if par.width > 0, par.height > 0, Int(par.width) * Int(par.height) <= work.budget.maxPixels {
                video = try? Decoder(stream: d.stream(Int(v)), threads: 1, maxPixels: work.budget.maxPixels,
                                     lowres: bytes.count % 4)
            }
        }
        let audio = a >= 0 ? try? Decoder(stream: d.stream(Int(a)), threads: 1, maxPixels: work.budget.maxPixels) : nil
        // As the audio thread converts: to float at the source's own rate, which PulseAudio
        // must accept for any sound to be played (a rate of 1.9 GHz in a WAV header made a
        // rate conversion to 48 kHz take seconds here, a path the player never takes).
        let rate = Int(audio?.ctx.pointee.sample_rate ?? 0)
        let channels = min(2, max(1, Int(audio?.ctx.pointee.ch_layout.nb_channels ?? 1)))
        let resampler = (1...384_000).contains(rate) ? Resampler(outRate: rate, outChannels: channels) : nil
        readTwice(d, work, streams: (Int(v), Int(a)), decoders: (video, audio), resampler: resampler, colour: colour)
    }

    /// Reads and decodes every packet of the picture and sound streams, twice (the second
    /// time after a seek back to the start, as a loop plays), within the budget.
    private static func readTwice(_ d: Demuxer, _ work: Work, streams: (video: Int, audio: Int),
                                  decoders: (video: Decoder?, audio: Decoder?), resampler: Resampler?,
                                  colour: PictureColour) {
        let (video, audio) = decoders
        let (v, a) = streams
        let packet = Packet()
        let frame = Frame()
        // As the player's video thread: embedded profiles (PNG iCCP, JPEG APP2, WebP ICCP)
        // are read by lcms2 and the picture converted.
        func drain(_ dec: Decoder) {
            while work.hasRoom, case .frame = dec.receive(into: frame) {
                if dec === video {
                    work.show(colour.manage(frame))
                } else {
                    _ = resampler?.convert(frame)
                    work.outcome.frames += 1
                }
                av_frame_unref(frame.raw)
            }
        }
        var packets = 0
        // Twice through, the second time after a seek back to the start, as a loop plays.
        for pass in 0..<2 {
            if pass == 1 {
                _ = d.seek(to: 0)
                video?.flush()
                audio?.flush()
            }
            reading: while work.hasRoom, packets < work.budget.maxPackets {
                packets += 1
                switch d.read(into: packet) {
                case .packet:
                    let dec = packet.streamIndex == v ? video : packet.streamIndex == a ? audio : nil
                    if let dec {
                        _ = dec.send(packet)
                        drain(dec)
                    }
                    cff_packet_unref(packet.raw)
                case .again:
                    continue
                case .endOfFile, .failed:
                    break reading
                }
            }
            for dec in [video, audio].compactMap({ $0 }) {
                _ = dec.send(nil)
                drain(dec)
            }
        }
    }

    /// The budget, what has been spent of it, and the one surface every picture is scaled
    /// into (in turn upright and rotated, as the viewer draws them).
    private final class Work {
        let budget: Budget
        let started = MonotonicClock.seconds()
        var pixels = 0
        var outcome = Outcome()
        let scaler = Scaler()
        let surface = UnsafeMutableRawPointer.allocate(byteCount: 96 * 64 * 4, alignment: 64)

        init(budget: Budget) { self.budget = budget }

        deinit { surface.deallocate() }

        var hasRoom: Bool {
            outcome.frames < budget.maxFrames && pixels < budget.totalPixels
                && MonotonicClock.seconds() - started < budget.seconds
        }

        func show(_ f: Frame) {
            let w = Int(f.raw.pointee.width), h = Int(f.raw.pointee.height)
            guard w > 0, h > 0 else { return }
            pixels += w * h
            let turn = outcome.frames % 4 * 90
            outcome.frames += 1
            let copy = Frame()
            guard av_frame_ref(copy.raw, f.raw) >= 0 else { return }
            let vf = VideoFrame(frame: copy, pts: 0, duration: 0, serial: 0, rotation: turn)
            let target = ImageTarget(base: surface, width: 96, height: 64, stride: 96 * 4)
            scaler.render(vf, into: target, rect: PixelRect(x: 0, y: 0, width: 96, height: 64),
                          quality: outcome.frames % 2 == 0 ? .fast : .best, rotation: 0)
            // A zoomed view: only part of the picture is on the surface.
            scaler.render(vf, into: target, rect: PixelRect(x: -40, y: -30, width: 200, height: 140),
                          quality: .fast, rotation: 0)
        }
    }
}
