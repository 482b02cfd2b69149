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
    /// file are, and JPEG, which is shown while it downloads). A GIF then shows once it has
    /// all come, with the download's progress meanwhile, rather than being parsed here as
    /// it arrives.
    var sendsWebStills: Bool {
        (StillFile.namesStill(url) && (options.sandbox != .off || StillFile.namesJPEG(url)))
            || (StillFile.namesAnimation(url) && options.sandbox != .off)
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
