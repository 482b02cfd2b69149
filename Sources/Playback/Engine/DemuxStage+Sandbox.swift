import CFFmpeg
import Glibc
import MediaCore
import Web

/// Stills and animations decoded in a sandboxed worker rather than on the demux thread:
/// local files and pictures from the web alike, handed over as bytes (the worker opens nothing).
extension DemuxStage {
    /// The local still decoded by a worker; nil when it is not a local still the worker
    /// takes, the sandbox is off, or no worker can be had (and the mode lets this process
    /// decode it).
    func sandboxedStill() throws(AVError) -> PictureSource? {
        guard options.sandbox != .off, url.hasPrefix("file:") else { return nil }
        let path = String(url.dropFirst(5))
        let name = SourceOptions.displayName(path)
        if let bytes = try StillFile.read(path, name: name) { return try worker(bytes, name: name) }
        guard let bytes = try StillFile.read(path, name: name, if: StillFile.isAnimation) else { return nil }
        return try animation(bytes, name: name)
    }

    /// A downloaded picture's bytes decoded by a worker; nil when the sandbox is off, the
    /// bytes are not a still the worker takes (an animation, a video), or no worker can be had.
    func sandboxedStill(_ bytes: [UInt8], name: String) throws(AVError) -> PictureSource? {
        guard options.sandbox != .off else { return nil }
        let head = Array(bytes.prefix(PictureFormat.headSize))
        if StillFile.isAnimation(head) { return try animation(bytes, name: name) }
        guard StillFile.isStill(head, name: name) else { return nil }
        return try worker(bytes, name: name)
    }

    /// Whether a web address names a still or an animation by its extension, so it is
    /// fetched whole for a worker (with the sandbox off, only the formats that need the whole
    /// file are, JPEG, which is shown while it downloads, and animations). A GIF shows its
    /// first frame once that has come and plays once the file has. FFmpeg's GIF reader could
    /// not do better as the bytes arrive: it reads every frame before the first, and on a
    /// slow link its second pass from the start ran past the open's time limit.
    var sendsWebStills: Bool {
        (StillFile.namesStill(url) && (options.sandbox != .off || StillFile.namesJPEG(url)))
            || StillFile.namesAnimation(url)
    }

    private func worker(_ bytes: [UInt8], name: String) throws(AVError) -> PictureSource? {
        let glance: ((WorkerPicture) -> Void)? = options.firstLook == .none ? nil : { [self] in offer($0) }
        // A quit or a closed item does not wait for the worker's picture.
        switch try DecodeWorkers.shared.still(bytes, name: name, options: options,
                                              cancelled: { self.isClosed }, glance: glance) {
        case .picture(let p): return p
        case .inProcess: return nil
        case .moving: return try animation(bytes, name: name)
        }
    }

    /// An animation played frame by frame by a worker of its own; nil when no worker can be
    /// had and the mode lets this process play it.
    private func animation(_ bytes: [UInt8], name: String) throws(AVError) -> PictureSource? {
        switch try DecodeWorkers.shared.animation(bytes, name: name, options: options, cancelled: { self.isClosed }) {
        case .animation(let a): return a
        case .inProcess: return nil
        }
    }
}

extension DemuxStage {
    /// A video's pictures decoded by a worker of their own; nil when the sandbox is off, the
    /// item is not a video (a picture or cover art decoded here with FFmpeg, when no worker
    /// took it), or no worker can be had and the mode lets this process decode it.
    func sandboxedVideo(_ stream: UnsafeMutablePointer<AVStream>, kind: MediaInfo.Kind, threads: Int,
                        maxPixels: Int) throws(AVError) -> (any PacketDecoding)? {
        guard options.sandbox != .off, kind == .video else { return nil }
        switch try DecodeWorkers.shared.video(stream, threads: threads, maxPixels: maxPixels, name: SourceOptions.displayName(url),
                                                options: options) {
        case .decoder(let d): return d
        case .inProcess: return nil
        }
    }
}

extension DemuxStage {
    /// Sound (a song, a video's track) decoded by a worker of its own; nil when the sandbox
    /// is off or no worker can be had and the mode lets this process decode it.
    func sandboxedSound(_ stream: UnsafeMutablePointer<AVStream>, kind: MediaInfo.Kind) throws(AVError) -> (any SoundDecoding)? {
        guard options.sandbox != .off, kind == .video || kind == .audio else { return nil }
        switch try DecodeWorkers.shared.sound(stream.pointee.codecpar, timeBase: stream.pointee.time_base,
                                              name: SourceOptions.displayName(url), options: options) {
        case .decoder(let d): return d
        case .inProcess: return nil
        }
    }
}
