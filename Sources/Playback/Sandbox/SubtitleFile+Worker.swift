import Glibc
import MediaCore
import Web

/// Subtitle files read in a sandboxed worker when the sandbox is on.
extension SubtitleFile {
    /// Seconds a worker may take over a subtitle file: the largest one allowed reads in well
    /// under a second.
    static let workerTime = 5.0

    /// Reads and decodes the file at `path`, in a worker of its own unless `options` turn the
    /// sandbox off (or, outside strict, no worker can be had). A file that stops its worker
    /// costs only its subtitles: the film plays on. The error reads as a sentence after the
    /// file's name.
    static func load(_ path: String, options: PlayerOptions) throws(AVError) -> Script {
        guard options.sandbox != .off else { return try load(path) }
        let (fd, _) = try open(path)
        defer { close(fd) }
        let pool = DecodeWorkers.shared
        let name = SourceOptions.displayName(path)
        guard let worker = try pool.confinedWorker(.containers, name: name, options: options) else { return try load(path) }
        // Parsed hostile text once: never handed another file.
        defer { pool.retire(worker) }
        let m: WorkerMessage
        do throws(AVError) {
            m = try pool.answer(worker.exchange(WorkerMessage(kind: .subtitleLoad, text: name, fd: fd), timeout: workerTime),
                                worker: worker, name: name)
        } catch {
            throw AVError(message: unnamed(error.message, name))
        }
        defer { if m.fd >= 0 { close(m.fd) } }
        guard m.kind == .subtitleScript else {
            let why = unnamed(m.text, name)
            throw AVError(message: why.isEmpty ? "the subtitle reader failed" : why)
        }
        guard let script = SubtitleWork.script(in: m) else { throw AVError(message: "the subtitle reader's answer was malformed") }
        return script
    }

    /// `text` without a leading "name: ": the warning names the file once, before it.
    private static func unnamed(_ text: String, _ name: String) -> String {
        text.hasPrefix(name + ": ") ? String(text.dropFirst(name.count + 2)) : text
    }
}
