import CFFmpeg
import Glibc
import MediaCore
import Web

/// Where a `TrackPreviewer` gets its pictures: its own demuxer and decoder in this process,
/// or a session with a sandboxed worker that has them.
protocol PreviewPictures: AnyObject {
    /// Keyframe times from the container's index, in order; empty when it has none.
    var keyframes: [Double] { get }
    /// The keyframe at or before `seconds`, scaled to the preview width; nil when none can
    /// be had within the bounded work or `stillWanted` says the pointer moved on.
    func picture(at seconds: Double, stillWanted: () -> Bool) -> VideoFrame?
    /// Why no more pictures will come (the worker stopped), in one line; nil while they may.
    var ended: String? { get }
}

extension TrackPreviewer.Work: PreviewPictures {
    var ended: String? { nil }
}

/// Track previews made in a sandboxed decode worker of their own.
///
/// A gallery plays a video's cell under the resting pointer, a file the user has not
/// opened: its container and codec are parsed as a thumbnail's are, in a process with no
/// files, no network and no display, so a crafted file that breaks a parser takes only
/// that process and the previews stop with one line. A web video is parsed there too: this
/// process fetches the ranges the worker asks for (`ChannelReads`), from its caches or the
/// server, and the worker sees only bytes. The worker is this session's alone (it holds
/// the video open and its demuxer between pictures) and is stopped with it.
final class SandboxedPreview: PreviewPictures {
    let keyframes: [Double]
    private(set) var ended: String?
    private let worker: DecodeWorker
    private let width: Int
    private let name: String
    /// The web video's reader in this process, answering the worker's reads; nil for a file.
    private let source: ChannelReads.Source?
    /// Seconds one picture, or the opening, may take before the worker is killed; for web
    /// media, the worker's own time between two reads.
    static let timeout = 10.0

    /// What opening came to.
    enum Opening {
        case opened(SandboxedPreview)
        /// Previews are made in this process: the sandbox is off, the source is in memory,
        /// or (auto) no worker can be had.
        case inProcess
        /// No previews for this video, and the one line saying why (nil: nothing to say,
        /// such as a file without a moving picture or a server that takes no ranges).
        case failed(String?)
    }

    private init(worker: DecodeWorker, keyframes: [Double], width: Int, name: String, source: ChannelReads.Source?) {
        self.worker = worker
        self.keyframes = keyframes
        self.width = width
        self.name = name
        self.source = source
    }

    deinit {
        worker.stop()
        source?.io.close()
    }

    /// The worker's process id.
    var pid: Int32 { worker.pid }

    /// Opens `url` for previews `width` wide in a worker, when `mode` and the source call for
    /// one. A web video is read with `options`, each blocking step bounded by `interrupt`.
    static func open(url: String, options: SourceOptions, interrupt: Interrupt, width: Int, mode: SandboxMode) -> Opening {
        guard mode != .off else { return .inProcess }
        if let path = localPath(url) { return open(path: path, width: width, maxPixels: options.maxPixels, mode: mode) }
        guard SourceOptions.isNetwork(url) else { return .inProcess }
        let route: SourceRoute.Opened
        interrupt.arm()
        do throws(AVError) {
            route = try SourceRoute.open(url: url, options: options, interrupt: interrupt.callback)
        } catch {
            // As in this process: a server without ranges, or none at all, means no previews.
            interrupt.disarm()
            return .failed(nil)
        }
        interrupt.disarm()
        guard let io = route.io else {
            // A whole copy in the disk cache: previewed as the local file it is.
            guard let path = localPath(route.url) else { return .inProcess }
            return open(path: path, width: width, maxPixels: options.maxPixels, mode: mode)
        }
        // A web playlist (HLS, DASH) has no previews: a preview worker is handed bytes, not an
        // address to fetch the playlist's parts from, and FFmpeg would fetch them itself.
        if SandboxedContainer.namesPlaylist(url) || SandboxedContainer.playlistKind(io) != nil {
            io.close()
            return .failed(nil)
        }
        let web = ChannelReads.Source(io: io, interrupt: interrupt)
        let name = SourceOptions.displayName(url)
        let worker: DecodeWorker
        switch DecodeWorkers.own(mode, nice: 5) {
        case .success(let w): worker = w
        case .failure(.inProcess):
            io.close()
            return .inProcess
        case .failure(.refused(let why)):
            io.close()
            return .failed("\(name): previews: \(why)")
        }
        let size = io.seek(to: 0, whence: Int32(AVSEEK_SIZE))
        let request = PreviewRequest.open(readingThroughChannel: size, name: name, width: width, maxPixels: options.maxPixels)
        let outcome = worker.exchange(request, timeout: timeout, reads: web.answer, meanwhile: {})
        // Opened: each later read gives up as a preview's seek does in this process.
        interrupt.setTimeout(TrackPreviewer.Work.stepTimeout)
        let opening = opened(outcome, worker: worker, width: width, name: name, source: web)
        if case .opened = opening { return opening }
        io.close()
        return opening
    }

    /// Opens the local file at `path` in a worker.
    private static func open(path: String, width: Int, maxPixels: Int, mode: SandboxMode) -> Opening {
        let name = SourceOptions.displayName(path)
        let worker: DecodeWorker
        // Previews come after the shown picture and its sound: decoded at nice 5, as in-process.
        switch DecodeWorkers.own(mode, nice: 5) {
        case .success(let w): worker = w
        case .failure(.inProcess): return .inProcess
        case .failure(.refused(let why)): return .failed("\(name): previews: \(why)")
        }
        let file: (fd: Int32, size: Int)
        do { file = try ThumbnailMaker.open(path) } catch {
            worker.stop()
            return .failed(nil)
        }
        defer { close(file.fd) }
        let request = PreviewRequest.open(fd: file.fd, name: name, width: width, maxPixels: maxPixels)
        return opened(worker.exchange(request, timeout: timeout), worker: worker, width: width, name: name, source: nil)
    }

    /// The session an open's `outcome` makes, or why there is none (the worker stopped).
    private static func opened(_ outcome: DecodeWorker.Outcome, worker: DecodeWorker, width: Int, name: String,
                               source: ChannelReads.Source?) -> Opening {
        switch outcome {
        case .answer(let m):
            defer { if m.fd >= 0 { close(m.fd) } }
            guard let keyframes = PreviewRequest.keyframes(in: m) else {
                worker.stop()
                return .failed(m.kind == .failure ? nil : "\(name): previews: the decoder's answer was malformed")
            }
            return .opened(SandboxedPreview(worker: worker, keyframes: keyframes, width: width, name: name, source: source))
        case .stopped(let why), .crashed(let why):
            return .failed("\(name): previews: the decoder stopped: \(why)")
        case .cancelled:
            return .failed(nil)
        }
    }

    func picture(at seconds: Double, stillWanted: () -> Bool) -> VideoFrame? {
        guard ended == nil else { return nil }
        var told = false
        let reads: ((WorkerMessage) -> WorkerMessage)? = source.map { web in
            { m in
                // No longer wanted: the worker's reads end at once, and its answer with them.
                told ? WorkerMessage(kind: .bytes, numbers: [Int64(cff_averror(EINTR))]) : web.answer(m)
            }
        }
        let outcome = worker.exchange(PreviewRequest.at(seconds), timeout: Self.timeout, reads: reads) {
            // The pointer moved on: the worker drops this picture at its next packet and
            // answers, and the next request follows at once.
            guard !told, !stillWanted() else { return }
            told = WorkerMessage(kind: .previewCancel).send(on: worker.socket)
        }
        switch outcome {
        case .answer(let m):
            defer { if m.fd >= 0 { close(m.fd) } }
            if m.kind == .failure { return nil }
            guard let picture = PreviewRequest.picture(in: m, width: width) else {
                end("the decoder's answer was malformed")
                return nil
            }
            return picture
        case .stopped(let why), .crashed(let why):
            end("the decoder stopped: \(why)")
            return nil
        case .cancelled:
            end("cancelled")
            return nil
        }
    }

    /// No more pictures from this session; the worker is stopped (if it still runs).
    private func end(_ why: String) {
        ended = "\(name): previews: \(why)"
        worker.stop()
    }

    /// The local file `url` names, or nil for web media and media in memory.
    static func localPath(_ url: String) -> String? {
        if SourceOptions.isNetwork(url) || url.hasPrefix("memory:") { return nil }
        if url.hasPrefix("file://") { return String(url.dropFirst(7)) }
        if url.hasPrefix("file:") { return String(url.dropFirst(5)) }
        return url.contains("://") ? nil : url
    }
}
