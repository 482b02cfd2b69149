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

/// Track previews of a local video made in a sandboxed decode worker of their own.
///
/// A gallery plays a video's cell under the resting pointer, a file the user has not
/// opened: its container and codec are parsed as a thumbnail's are, in a process with no
/// files, no network and no display, so a crafted file that breaks a parser takes only
/// that process and the previews stop with one line. The worker is this session's alone
/// (it holds the file open and its demuxer between pictures) and is stopped with it.
final class SandboxedPreview: PreviewPictures {
    let keyframes: [Double]
    private(set) var ended: String?
    private let worker: DecodeWorker
    private let width: Int
    private let name: String
    /// Seconds one picture, or the opening, may take before the worker is killed.
    static let timeout = 10.0

    /// What opening came to.
    enum Opening {
        case opened(SandboxedPreview)
        /// Previews are made in this process: the sandbox is off, the source is on the web,
        /// or (auto) no worker can be had.
        case inProcess
        /// No previews for this file, and the one line saying why (nil: nothing to say,
        /// such as a file without a moving picture).
        case failed(String?)
    }

    private init(worker: DecodeWorker, keyframes: [Double], width: Int, name: String) {
        self.worker = worker
        self.keyframes = keyframes
        self.width = width
        self.name = name
    }

    deinit { worker.stop() }

    /// The worker's process id.
    var pid: Int32 { worker.pid }

    /// Opens `url` for previews `width` wide in a worker, when `mode` and the source call for one.
    static func open(url: String, width: Int, maxPixels: Int, mode: SandboxMode) -> Opening {
        guard mode != .off, let path = localPath(url) else { return .inProcess }
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
        switch worker.exchange(request, timeout: timeout) {
        case .answer(let m):
            defer { if m.fd >= 0 { close(m.fd) } }
            guard let keyframes = PreviewRequest.keyframes(in: m) else {
                worker.stop()
                return .failed(m.kind == .failure ? nil : "\(name): previews: the decoder's answer was malformed")
            }
            return .opened(SandboxedPreview(worker: worker, keyframes: keyframes, width: width, name: name))
        case .stopped(let why), .crashed(let why):
            return .failed("\(name): previews: the decoder stopped: \(why)")
        case .cancelled:
            return .failed(nil)
        }
    }

    func picture(at seconds: Double, stillWanted: () -> Bool) -> VideoFrame? {
        guard ended == nil else { return nil }
        var told = false
        let outcome = worker.exchange(PreviewRequest.at(seconds), timeout: Self.timeout) {
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

    /// The local file `url` names, or nil for web media (its previews stay in this process,
    /// reading ranges from the server, as the player does).
    static func localPath(_ url: String) -> String? {
        if SourceOptions.isNetwork(url) || url.hasPrefix("memory:") { return nil }
        if url.hasPrefix("file://") { return String(url.dropFirst(7)) }
        if url.hasPrefix("file:") { return String(url.dropFirst(5)) }
        return url.contains("://") ? nil : url
    }
}
