import CFFmpeg
import Glibc
import MediaCore

/// A video stream's codec parameters as a `videoOpen` message carries them: fifteen
/// numbers, and the codec's extra data (H.264's parameter sets, for one) in a sealed memfd.
///
/// Numbers: codec id, codec tag, width, height, pixel format, profile, level, bits per
/// coded and raw sample, time base, colour (range, primaries, transfer, matrix, chroma
/// siting, field order, a byte each), sample aspect ratio, frame rate, video delay and
/// decode threads, the pixel budget, the extra data's length. Rationals are two 32-bit halves.
enum VideoParameters {
    static func pack(_ r: AVRational) -> Int64 {
        Int64(UInt32(bitPattern: r.num)) << 32 | Int64(UInt32(bitPattern: r.den))
    }

    static func unpack(_ n: Int64) -> AVRational {
        AVRational(num: Int32(bitPattern: UInt32(truncatingIfNeeded: n >> 32)), den: Int32(bitPattern: UInt32(truncatingIfNeeded: n)))
    }

    /// The open request for `stream`, its extra data in a sealed memfd; nil without memory.
    static func request(_ stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, name: String) -> WorkerMessage? {
        let par = stream.pointee.codecpar.pointee
        let colour = Int64(par.color_range.rawValue) | Int64(par.color_primaries.rawValue) << 8
            | Int64(par.color_trc.rawValue) << 16 | Int64(par.color_space.rawValue) << 24
            | Int64(par.chroma_location.rawValue) << 32 | Int64(par.field_order.rawValue) << 40
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let extra = Int(max(0, par.extradata_size))
        let fd = SealedBytes.make([UnsafeRawBufferPointer(start: par.extradata, count: par.extradata == nil ? 0 : extra)],
                                  name: "mediaview-extradata")
        guard let fd else { return nil }
        let numbers: [Int64] = [
            Int64(par.codec_id.rawValue), Int64(par.codec_tag), Int64(par.width), Int64(par.height), Int64(par.format),
            Int64(par.profile), Int64(par.level),
            Int64(UInt32(bitPattern: par.bits_per_coded_sample)) | Int64(par.bits_per_raw_sample) << 32,
            pack(stream.pointee.time_base), colour, pack(par.sample_aspect_ratio), pack(rate),
            Int64(par.video_delay) | Int64(threads) << 32, Int64(maxPixels), Int64(par.extradata == nil ? 0 : extra),
        ]
        return WorkerMessage(kind: .videoOpen, numbers: numbers, text: name, fd: fd)
    }

    /// Codec parameters rebuilt from an open request (in the worker); nil when malformed.
    static func parameters(_ m: WorkerMessage) -> (raw: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational,
                                                   threads: Int, maxPixels: Int)? {
        let n = m.numbers
        let extra = Int(n[14])
        guard m.fd >= 0, extra >= 0, extra < 1 << 24, SealedBytes.size(m.fd) == extra,
              let par = avcodec_parameters_alloc() else { return nil }
        var p = par.pointee
        p.codec_type = AVMEDIA_TYPE_VIDEO
        p.codec_id = AVCodecID(rawValue: UInt32(truncatingIfNeeded: n[0]))
        p.codec_tag = UInt32(truncatingIfNeeded: n[1])
        p.width = Int32(truncatingIfNeeded: n[2])
        p.height = Int32(truncatingIfNeeded: n[3])
        p.format = Int32(truncatingIfNeeded: n[4])
        p.profile = Int32(truncatingIfNeeded: n[5])
        p.level = Int32(truncatingIfNeeded: n[6])
        p.bits_per_coded_sample = Int32(truncatingIfNeeded: n[7] & 0xFFFF_FFFF)
        p.bits_per_raw_sample = Int32(truncatingIfNeeded: n[7] >> 32)
        let colour = n[9]
        p.color_range = AVColorRange(rawValue: UInt32(colour & 0xFF))
        p.color_primaries = AVColorPrimaries(rawValue: UInt32(colour >> 8 & 0xFF))
        p.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour >> 16 & 0xFF))
        p.color_space = AVColorSpace(rawValue: UInt32(colour >> 24 & 0xFF))
        p.chroma_location = AVChromaLocation(rawValue: UInt32(colour >> 32 & 0xFF))
        p.field_order = AVFieldOrder(rawValue: UInt32(colour >> 40 & 0xFF))
        p.sample_aspect_ratio = unpack(n[10])
        p.video_delay = Int32(truncatingIfNeeded: n[12] & 0xFFFF_FFFF)
        par.pointee = p
        if extra > 0 {
            let padded = extra + Int(AV_INPUT_BUFFER_PADDING_SIZE)
            guard let data = av_malloc(padded)?.assumingMemoryBound(to: UInt8.self) else {
                var q: UnsafeMutablePointer<AVCodecParameters>? = par
                avcodec_parameters_free(&q)
                return nil
            }
            memset(data, 0, padded)
            var done = 0
            while done < extra {
                let r = pread(m.fd, data + done, extra - done, off_t(done))
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { break }
                done += r
            }
            par.pointee.extradata = data
            par.pointee.extradata_size = Int32(extra)
            guard done == extra else {
                var q: UnsafeMutablePointer<AVCodecParameters>? = par
                avcodec_parameters_free(&q)
                return nil
            }
        }
        let threads = Int(max(0, min(16, n[12] >> 32)))
        return (par, unpack(n[8]), threads, Int(max(1, n[13])))
    }
}
