import CFFmpeg
import MediaCore

/// Changes the sound's tempo without changing its pitch: libavfilter's `atempo`, chained
/// as often as the speed needs, on interleaved float samples.
///
/// Owns the filter graph and its two frames (freed in deinit). Used by the one audio
/// decode thread.
final class TempoFilter {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private var input: UnsafeMutablePointer<AVFrame>?
    private var output: UnsafeMutablePointer<AVFrame>?
    /// The speed the graph was built for.
    let speed: PlaybackSpeed
    private let sampleRate: Int
    private let channels: Int
    /// Samples fed so far, which gives each input its timestamp in the graph.
    private var fed: Int64 = 0

    /// A graph for interleaved float sound at `sampleRate` with `channels` (1 or 2).
    init(speed: PlaybackSpeed, sampleRate: Int, channels: Int) throws(AVError) {
        self.speed = speed
        self.sampleRate = sampleRate
        self.channels = channels
        let layout = channels == 1 ? "mono" : "stereo"
        var g = avfilter_graph_alloc()
        guard let built = g else { throw AVError(message: "out of memory making the tempo filter") }
        // One thread: a few kilobytes of sound per call do not pay for handing work around.
        built.pointee.nb_threads = 1
        func add(_ name: String, _ label: String, _ args: String?) -> UnsafeMutablePointer<AVFilterContext>? {
            var f: UnsafeMutablePointer<AVFilterContext>?
            return avfilter_graph_create_filter(&f, avfilter_get_by_name(name), label, args, nil, built) >= 0 ? f : nil
        }
        var chain: [UnsafeMutablePointer<AVFilterContext>?] = [
            add("abuffer", "in", "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layout)")
        ]
        for (i, stage) in speed.tempoStages.enumerated() { chain.append(add("atempo", "tempo\(i)", "tempo=\(stage)")) }
        // atempo may answer in another sample layout; the output must be what the stream takes.
        chain.append(add("aformat", "format", "sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layout)"))
        chain.append(add("abuffersink", "out", nil))
        let filters = chain.compactMap { $0 }
        var linked = filters.count == chain.count
        for i in filters.indices.dropFirst() where linked {
            linked = avfilter_link(filters[i - 1], 0, filters[i], 0) >= 0
        }
        guard linked, avfilter_graph_config(built, nil) >= 0,
              let first = filters.first, let last = filters.last else {
            avfilter_graph_free(&g)
            throw AVError(message: "cannot make the tempo filter for \(speed)")
        }
        graph = built
        source = first
        sink = last
        input = av_frame_alloc()
        output = av_frame_alloc()
        guard input != nil, output != nil else { throw AVError(message: "out of memory making the tempo filter") }
    }

    deinit {
        avfilter_graph_free(&graph)
        av_frame_free(&input)
        av_frame_free(&output)
    }

    /// Feeds `bytes` of interleaved float samples and hands each piece that comes out to
    /// `take` (pointer and byte count, valid during the call). False when the graph failed.
    func process(_ samples: UnsafeRawPointer, bytes: Int, take: (UnsafeRawPointer, Int) -> Void) -> Bool {
        guard let f = input else { return false }
        let frameBytes = channels * MemoryLayout<Float>.size
        let count = bytes / frameBytes
        guard count > 0 else { return true }
        f.pointee.nb_samples = Int32(count)
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
        f.pointee.pts = fed
        guard av_frame_get_buffer(f, 0) >= 0, let data = f.pointee.data.0 else { av_frame_unref(f); return false }
        data.update(from: samples.assumingMemoryBound(to: UInt8.self), count: count * frameBytes)
        fed += Int64(count)
        // The source takes the frame's buffers and leaves it blank for the next call.
        guard av_buffersrc_add_frame(source, f) >= 0 else { av_frame_unref(f); return false }
        return collect(take)
    }

    /// Ends the input and hands out what the filters still hold (before a speed change, so
    /// no sound is lost).
    func finish(take: (UnsafeRawPointer, Int) -> Void) {
        guard av_buffersrc_add_frame(source, nil) >= 0 else { return }
        _ = collect(take)
    }

    private func collect(_ take: (UnsafeRawPointer, Int) -> Void) -> Bool {
        guard let o = output else { return false }
        while true {
            let r = av_buffersink_get_frame(sink, o)
            if r == cff_averror(EAGAIN) || r == cff_averror_eof { return true }
            if r < 0 { return false }
            if let data = o.pointee.data.0, o.pointee.nb_samples > 0 {
                take(UnsafeRawPointer(data), Int(o.pointee.nb_samples) * channels * MemoryLayout<Float>.size)
            }
            av_frame_unref(o)
        }
    }
}
