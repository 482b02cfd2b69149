import CFFmpeg
import MediaCore

/// A sound stream's open request. Numbers: codec id, codec tag, sample format, sample
/// rate, channel count and channel order, channel mask, block align and frame size,
/// initial and trailing padding, seek preroll, bits per coded and raw sample, profile and
/// level, bit rate, time base, 0, the extra data's length.
extension StreamOpening {
    /// The open request for the sound stream `par` (in `timeBase`); nil without memory.
    static func soundRequest(_ par: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, name: String) -> WorkerMessage? {
        let p = par.pointee
        let layout = p.ch_layout
        let mask = layout.order == AV_CHANNEL_ORDER_NATIVE ? Int64(bitPattern: layout.u.mask) : 0
        let numbers: [Int64] = [
            Int64(p.codec_id.rawValue), Int64(p.codec_tag), Int64(p.format), Int64(p.sample_rate),
            pair(layout.nb_channels, Int32(bitPattern: layout.order.rawValue)), mask, pair(p.block_align, p.frame_size),
            pair(p.initial_padding, p.trailing_padding), Int64(p.seek_preroll),
            pair(p.bits_per_coded_sample, p.bits_per_raw_sample), pair(p.profile, p.level), p.bit_rate, pack(timeBase), 0,
        ]
        return withExtraData(par, kind: .soundOpen, numbers: numbers, name: name)
    }

    /// Fills `par` from a sound open request's numbers.
    static func sound(_ n: [Int64], into par: UnsafeMutablePointer<AVCodecParameters>) -> Opened {
        var p = par.pointee
        p.codec_type = AVMEDIA_TYPE_AUDIO
        p.codec_id = AVCodecID(rawValue: UInt32(truncatingIfNeeded: n[0]))
        p.codec_tag = UInt32(truncatingIfNeeded: n[1])
        p.format = Int32(truncatingIfNeeded: n[2])
        p.sample_rate = Int32(truncatingIfNeeded: n[3])
        p.block_align = Int32(truncatingIfNeeded: n[6])
        p.frame_size = Int32(truncatingIfNeeded: n[6] >> 32)
        p.initial_padding = Int32(truncatingIfNeeded: n[7])
        p.trailing_padding = Int32(truncatingIfNeeded: n[7] >> 32)
        p.seek_preroll = Int32(truncatingIfNeeded: n[8])
        p.bits_per_coded_sample = Int32(truncatingIfNeeded: n[9])
        p.bits_per_raw_sample = Int32(truncatingIfNeeded: n[9] >> 32)
        p.profile = Int32(truncatingIfNeeded: n[10])
        p.level = Int32(truncatingIfNeeded: n[10] >> 32)
        p.bit_rate = n[11]
        par.pointee = p
        let channels = Int32(truncatingIfNeeded: max(0, min(64, n[4] & 0xFFFF_FFFF)))
        let order = AVChannelOrder(rawValue: UInt32(truncatingIfNeeded: n[4] >> 32))
        if order == AV_CHANNEL_ORDER_NATIVE, n[5] != 0,
           av_channel_layout_from_mask(&par.pointee.ch_layout, UInt64(bitPattern: n[5])) >= 0,
           par.pointee.ch_layout.nb_channels == channels {
            // The mask says which speakers; a mask that disagrees with the count is ignored.
        } else if channels > 0 {
            av_channel_layout_default(&par.pointee.ch_layout, channels)
        }
        return Opened(raw: par, timeBase: unpack(n[12]), threads: 1, maxPixels: 1 << 20, frameRate: AVRational(num: 0, den: 0))
    }
}
