import CFFmpeg
import Glibc
import MediaCore

/// A stream's codec parameters as an open request carries them to a worker: fifteen
/// numbers, and the codec's extra data (H.264's parameter sets, AAC's configuration) in a
/// sealed memfd. Rationals are packed as two 32-bit halves.
///
/// `videoOpen` numbers: codec id, codec tag, width, height, pixel format, profile, level,
/// bits per coded and raw sample, time base, colour (range, primaries, transfer, matrix,
/// chroma siting, field order, a byte each), sample aspect ratio, frame rate, video delay
/// and decode threads, the pixel budget, the extra data's length. `soundOpen` numbers are
/// in `StreamOpening+Sound.swift`.
enum StreamOpening {
    static func pack(_ r: AVRational) -> Int64 {
        Int64(UInt32(bitPattern: r.num)) << 32 | Int64(UInt32(bitPattern: r.den))
    }

    static func unpack(_ n: Int64) -> AVRational {
        AVRational(num: Int32(bitPattern: UInt32(truncatingIfNeeded: n >> 32)), den: Int32(bitPattern: UInt32(truncatingIfNeeded: n)))
    }

    /// Two 32-bit numbers in one.
    static func pair(_ low: Int32, _ high: Int32) -> Int64 {
        Int64(UInt32(bitPattern: low)) | Int64(high) << 32
    }

    /// The open request for a video stream, its extra data in a sealed memfd; nil without memory.
    static func request(_ stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, name: String) -> WorkerMessage? {
        let par = stream.pointee.codecpar.pointee
        let colour = Int64(par.color_range.rawValue) | Int64(par.color_primaries.rawValue) << 8
            | Int64(par.color_trc.rawValue) << 16 | Int64(par.color_space.rawValue) << 24
            | Int64(par.chroma_location.rawValue) << 32 | Int64(par.field_order.rawValue) << 40
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let numbers: [Int64] = [
            Int64(par.codec_id.rawValue), Int64(par.codec_tag), Int64(par.width), Int64(par.height), Int64(par.format),
            Int64(par.profile), Int64(par.level), pair(par.bits_per_coded_sample, par.bits_per_raw_sample),
            pack(stream.pointee.time_base), colour, pack(par.sample_aspect_ratio), pack(rate),
            pair(par.video_delay, Int32(threads)), Int64(maxPixels),
        ]
        return withExtraData(stream.pointee.codecpar, kind: .videoOpen, numbers: numbers, name: name)
    }

    /// `numbers` and the extra data's length, with the extra data in a sealed memfd.
    static func withExtraData(_ par: UnsafeMutablePointer<AVCodecParameters>, kind: WorkerMessage.Kind, numbers: [Int64],
                              name: String) -> WorkerMessage? {
        let extra = par.pointee.extradata == nil ? 0 : Int(max(0, par.pointee.extradata_size))
        guard let fd = SealedBytes.make([UnsafeRawBufferPointer(start: par.pointee.extradata, count: extra)],
                                        name: "mediaview-extradata") else { return nil }
        return WorkerMessage(kind: kind, numbers: numbers + [Int64(extra)], text: name, fd: fd)
    }

    /// What an open request asks for, rebuilt in the worker.
    struct Opened {
        let raw: UnsafeMutablePointer<AVCodecParameters>
        let timeBase: AVRational
        let threads: Int
        let maxPixels: Int
        /// A video's frame rate (0/0 when unknown or sound).
        let frameRate: AVRational
    }

    /// Codec parameters rebuilt from an open request (in the worker); nil when malformed.
    static func parameters(_ m: WorkerMessage) -> Opened? {
        let n = m.numbers
        guard n.count >= 15, let par = avcodec_parameters_alloc() else { return nil }
        let opened: Opened
        if m.kind == .soundOpen {
            opened = sound(n, into: par)
        } else {
            var p = par.pointee
            p.codec_type = AVMEDIA_TYPE_VIDEO
            p.codec_id = AVCodecID(rawValue: UInt32(truncatingIfNeeded: n[0]))
            p.codec_tag = UInt32(truncatingIfNeeded: n[1])
            p.width = Int32(truncatingIfNeeded: n[2])
            p.height = Int32(truncatingIfNeeded: n[3])
            p.format = Int32(truncatingIfNeeded: n[4])
            p.profile = Int32(truncatingIfNeeded: n[5])
            p.level = Int32(truncatingIfNeeded: n[6])
            p.bits_per_coded_sample = Int32(truncatingIfNeeded: n[7])
            p.bits_per_raw_sample = Int32(truncatingIfNeeded: n[7] >> 32)
            let colour = n[9]
            p.color_range = AVColorRange(rawValue: UInt32(colour & 0xFF))
            p.color_primaries = AVColorPrimaries(rawValue: UInt32(colour >> 8 & 0xFF))
            p.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour >> 16 & 0xFF))
            p.color_space = AVColorSpace(rawValue: UInt32(colour >> 24 & 0xFF))
            p.chroma_location = AVChromaLocation(rawValue: UInt32(colour >> 32 & 0xFF))
            p.field_order = AVFieldOrder(rawValue: UInt32(colour >> 40 & 0xFF))
            p.sample_aspect_ratio = unpack(n[10])
            p.video_delay = Int32(truncatingIfNeeded: n[12])
            par.pointee = p
            opened = Opened(raw: par, timeBase: unpack(n[8]), threads: Int(max(0, min(16, n[12] >> 32))),
                            maxPixels: Int(max(1, n[13])), frameRate: unpack(n[11]))
        }
        guard readExtraData(m, count: Int(n[14]), into: par) else {
            var q: UnsafeMutablePointer<AVCodecParameters>? = par
            avcodec_parameters_free(&q)
            return nil
        }
        return opened
    }

    /// The request's memfd into the parameters' extra data, padded as FFmpeg requires.
    private static func readExtraData(_ m: WorkerMessage, count: Int, into par: UnsafeMutablePointer<AVCodecParameters>) -> Bool {
        guard m.fd >= 0, count >= 0, count < 1 << 24, SealedBytes.size(m.fd) == count else { return false }
        guard count > 0 else { return true }
        let padded = count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let data = av_malloc(padded)?.assumingMemoryBound(to: UInt8.self) else { return false }
        memset(data, 0, padded)
        par.pointee.extradata = data
        par.pointee.extradata_size = Int32(count)
        var done = 0
        while done < count {
            let r = pread(m.fd, data + done, count - done, off_t(done))
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { return false }
            done += r
        }
        return true
    }
}
