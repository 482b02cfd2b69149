import CFFmpeg
import MediaCore

/// Videos' pictures decoded by workers of their own.
extension DecodeWorkers {
    /// What asking for a video decoder came to.
    enum VideoOutcome {
        case decoder(WorkerVideo)
        /// No worker can be had and the mode allows decoding here.
        case inProcess
    }

    /// A worker-backed decoder for `stream` (of the item `name`), confined as
    /// `options.sandbox` asks; throws the one line when the video cannot be decoded.
    func video(_ stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, name: String,
               options: PlayerOptions) throws(AVError) -> VideoOutcome {
        guard let worker = try confinedWorker(.video, name: name, options: options) else { return .inProcess }
        // This worker is the video's now: another gets ready for the next one.
        startAhead(kind: .video)
        let opened = try WorkerVideo.open(stream, threads: threads, maxPixels: maxPixels, worker: worker, pool: self, name: name)
        videos.add(1, ordering: .relaxed)
        return .decoder(opened)
    }
}
