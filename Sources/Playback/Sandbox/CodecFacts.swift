import CFFmpeg
import FoundationEssentials

/// A stream's codec parameters as a container description carries them: every field a
/// decoder, the stream chooser or the info panel reads, and the codec's extra data.
struct CodecFacts: Codable {
    var type: Int32
    var id: UInt32
    var tag: UInt32
    var format: Int32
    var bitRate: Int64
    var bitsPerCoded: Int32
    var bitsPerRaw: Int32
    var profile: Int32
    var level: Int32
    var width: Int32
    var height: Int32
    var aspect: [Int32]
    var fieldOrder: UInt32
    /// Range, primaries, transfer, matrix and chroma siting.
    var colour: [UInt32]
    var videoDelay: Int32
    var channelOrder: UInt32
    var channels: Int32
    var channelMask: UInt64
    var sampleRate: Int32
    var blockAlign: Int32
    var frameSize: Int32
    var initialPadding: Int32
    var trailingPadding: Int32
    var seekPreroll: Int32
    var extra: Data
    /// FFmpeg's short name of the codec ("h264"), for the info panel and the track list: the
    /// viewer of a sandboxed film does not load libavcodec, which holds the names.
    var name: String?

    /// The largest extra data taken (H.264's parameter sets are a few hundred bytes; an
    /// ASS subtitle track's header is its styles).
    static let largestExtra = 16 << 20

    /// The facts of `par` (in the worker).
    init(_ par: UnsafeMutablePointer<AVCodecParameters>) {
        let p = par.pointee
        type = p.codec_type.rawValue
        id = p.codec_id.rawValue
        tag = p.codec_tag
        format = p.format
        bitRate = p.bit_rate
        bitsPerCoded = p.bits_per_coded_sample
        bitsPerRaw = p.bits_per_raw_sample
        profile = p.profile
        level = p.level
        width = p.width
        height = p.height
        aspect = ContainerDescription.pair(p.sample_aspect_ratio)
        fieldOrder = p.field_order.rawValue
        colour = [p.color_range.rawValue, p.color_primaries.rawValue, p.color_trc.rawValue, p.color_space.rawValue,
                  p.chroma_location.rawValue]
        videoDelay = p.video_delay
        channelOrder = p.ch_layout.order.rawValue
        channels = p.ch_layout.nb_channels
        channelMask = p.ch_layout.order == AV_CHANNEL_ORDER_NATIVE ? p.ch_layout.u.mask : 0
        sampleRate = p.sample_rate
        blockAlign = p.block_align
        frameSize = p.frame_size
        initialPadding = p.initial_padding
        trailingPadding = p.trailing_padding
        seekPreroll = p.seek_preroll
        let count = p.extradata == nil ? 0 : Int(max(0, min(p.extradata_size, Int32(CodecFacts.largestExtra))))
        extra = count > 0 ? Data(bytes: p.extradata, count: count) : Data()
        name = String(cString: avcodec_get_name(p.codec_id))
    }

    /// The longest codec name taken; FFmpeg's are under 32 bytes.
    static let longestName = 64

    /// Whether the numbers are within what FFmpeg takes from a demuxer of its own.
    var isSound: Bool {
        type >= AVMEDIA_TYPE_UNKNOWN.rawValue && type < AVMEDIA_TYPE_NB.rawValue && width >= 0 && height >= 0
            && width <= 1 << 20 && height <= 1 << 20 && channels >= 0 && channels <= 512 && sampleRate >= 0
            && aspect.count == 2 && colour.count == 5 && extra.count <= CodecFacts.largestExtra
            && blockAlign >= 0 && frameSize >= 0 && videoDelay >= 0 && (name?.utf8.count ?? 0) <= CodecFacts.longestName
    }

    /// Sets `par`, fresh from `avcodec_parameters_alloc` or a new stream, to these facts;
    /// false without memory.
    func fill(_ par: UnsafeMutablePointer<AVCodecParameters>) -> Bool {
        par.pointee.codec_type = AVMediaType(rawValue: type)
        par.pointee.codec_id = AVCodecID(rawValue: id)
        par.pointee.codec_tag = tag
        par.pointee.format = format
        par.pointee.bit_rate = bitRate
        par.pointee.bits_per_coded_sample = bitsPerCoded
        par.pointee.bits_per_raw_sample = bitsPerRaw
        par.pointee.profile = profile
        par.pointee.level = level
        par.pointee.width = width
        par.pointee.height = height
        par.pointee.sample_aspect_ratio = ContainerDescription.rational(aspect)
        par.pointee.field_order = AVFieldOrder(rawValue: fieldOrder)
        par.pointee.color_range = AVColorRange(rawValue: colour[0])
        par.pointee.color_primaries = AVColorPrimaries(rawValue: colour[1])
        par.pointee.color_trc = AVColorTransferCharacteristic(rawValue: colour[2])
        par.pointee.color_space = AVColorSpace(rawValue: colour[3])
        par.pointee.chroma_location = AVChromaLocation(rawValue: colour[4])
        par.pointee.video_delay = videoDelay
        av_channel_layout_uninit(&par.pointee.ch_layout)
        if channelOrder == AV_CHANNEL_ORDER_NATIVE.rawValue, channelMask != 0,
           av_channel_layout_from_mask(&par.pointee.ch_layout, channelMask) >= 0, par.pointee.ch_layout.nb_channels == channels {
        } else if channelOrder == AV_CHANNEL_ORDER_UNSPEC.rawValue, channels > 0 {
            // A header that gives only a count (MP4's sample entry, opened without the
            // probe): the decoder names the channels, as it does for FFmpeg's own demuxer.
            par.pointee.ch_layout.order = AV_CHANNEL_ORDER_UNSPEC
            par.pointee.ch_layout.nb_channels = channels
        } else if channels > 0 {
            // Another order (a custom map, Ambisonics) is taken as the default layout of as
            // many channels: the player plays at most two.
            av_channel_layout_default(&par.pointee.ch_layout, channels)
        }
        par.pointee.sample_rate = sampleRate
        par.pointee.block_align = blockAlign
        par.pointee.frame_size = frameSize
        par.pointee.initial_padding = initialPadding
        par.pointee.trailing_padding = trailingPadding
        par.pointee.seek_preroll = seekPreroll
        av_freep(&par.pointee.extradata)
        par.pointee.extradata_size = 0
        if !extra.isEmpty {
            guard let buffer = av_mallocz(extra.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else { return false }
            extra.withUnsafeBytes { _ = memcpy(buffer, $0.baseAddress!, extra.count) }
            par.pointee.extradata = buffer.assumingMemoryBound(to: UInt8.self)
            par.pointee.extradata_size = Int32(extra.count)
        }
        return true
    }
}
