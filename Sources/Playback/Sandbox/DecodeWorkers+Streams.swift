import CFFmpeg
import MediaCore

/// Videos' pictures and sound decoded by workers of their own, one per stream.
extension DecodeWorkers {
    /// What asking for a stream's decoder came to.
    enum StreamOutcome {
        case decoder(WorkerDecoder)
        /// No worker can be had and the mode allows decoding here.
        case inProcess
    }

    /// A worker-backed decoder for the video stream `stream` (of the item `name`), confined
    /// as `options.sandbox` asks; throws the one line when the video cannot be decoded.
    func video(_ stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, name: String,
               options: PlayerOptions) throws(AVError) -> StreamOutcome {
        guard let worker = try streamWorker(name: name, options: options) else { return .inProcess }
        let opened = try WorkerDecoder.video(stream, threads: threads, maxPixels: maxPixels, worker: worker, pool: self, name: name)
        videos.add(1, ordering: .relaxed)
        return .decoder(opened)
    }

    /// A worker-backed decoder for the sound stream `par`, as `video` makes one.
    func sound(_ par: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational, name: String,
               options: PlayerOptions) throws(AVError) -> StreamOutcome {
        guard let worker = try streamWorker(name: name, options: options) else { return .inProcess }
        let opened = try WorkerDecoder.sound(par, timeBase: timeBase, worker: worker, pool: self, name: name)
        sounds.add(1, ordering: .relaxed)
        return .decoder(opened)
    }

    /// A sound decoder for the track `next` a user switched to: a worker's unless the
    /// sandbox is off or none can be had, then one in this process.
    func soundDecoder(_ next: StreamParameters, name: String, options: PlayerOptions) throws(AVError) -> any SoundDecoding {
        if options.sandbox != .off, case .decoder(let d) = try sound(next.raw, timeBase: next.timeBase, name: name, options: options) {
            return d
        }
        return try Decoder(parameters: next, threads: 1, maxPixels: options.source.maxPixels)
    }

    /// The media worker a stream takes; another is started ahead for the next stream once
    /// this one is under way (`WorkerDecoder`'s `SpareWorker`).
    private func streamWorker(name: String, options: PlayerOptions) throws(AVError) -> DecodeWorker? {
        try confinedWorker(.media, name: name, options: options)
    }
}
