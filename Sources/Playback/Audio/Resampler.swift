import CFFmpeg

/// Converts decoded audio of any layout and sample format to interleaved float32 at the
/// source rate, mono or stereo, in a buffer it reuses.
final class Resampler {
    private var swr: OpaquePointer?
    private var inFormat: Int32 = -1
    private var inRate: Int32 = 0
    private var inChannels: Int32 = 0
    let outChannels: Int
    let outRate: Int
    private(set) var buffer: UnsafeMutableRawPointer
    private var capacitySamples: Int

    init(outRate: Int, outChannels: Int) {
        self.outRate = outRate
        self.outChannels = outChannels
        capacitySamples = 8192
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacitySamples * outChannels * 4, alignment: 64)
    }

    deinit {
        swr_free(&swr)
        buffer.deallocate()
    }

    /// Converts one frame; returns the number of bytes now in `buffer`, or nil on failure.
    func convert(_ frame: Frame) -> Int? {
        let f = frame.raw
        if swr == nil || f.pointee.format != inFormat || f.pointee.sample_rate != inRate
            || f.pointee.ch_layout.nb_channels != inChannels {
            guard configure(for: f) else { return nil }
        }
        let needed = Int(swr_get_out_samples(swr, f.pointee.nb_samples)) + 32
        if needed > capacitySamples {
            buffer.deallocate()
            capacitySamples = needed * 2
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacitySamples * outChannels * 4, alignment: 64)
        }
        var out: UnsafeMutablePointer<UInt8>? = buffer.assumingMemoryBound(to: UInt8.self)
        let input = UnsafeMutableRawPointer(f.pointee.extended_data)!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let n = swr_convert(swr, &out, Int32(capacitySamples), input, f.pointee.nb_samples)
        return n < 0 ? nil : Int(n) * outChannels * 4
    }

    private func configure(for f: UnsafeMutablePointer<AVFrame>) -> Bool {
        swr_free(&swr)
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(outChannels))
        var inLayout = f.pointee.ch_layout
        var tmp: OpaquePointer? = nil
        let r = swr_alloc_set_opts2(&tmp, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outRate),
                                    &inLayout, AVSampleFormat(rawValue: f.pointee.format), f.pointee.sample_rate, 0, nil)
        guard r >= 0, let s = tmp, swr_init(s) >= 0 else {
            swr_free(&tmp)
            return false
        }
        swr = s
        inFormat = f.pointee.format
        inRate = f.pointee.sample_rate
        inChannels = f.pointee.ch_layout.nb_channels
        return true
    }
}
