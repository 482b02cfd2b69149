import Glibc
import MediaCore
import Web

/// Local JPEG and PNG stills decoded in a sandboxed worker rather than on the demux thread.
extension DemuxStage {
    /// The still decoded by a worker; nil when it is not a local JPEG or PNG, the sandbox
    /// is off, or no worker can be had (and the mode lets this process decode it).
    func sandboxedStill() throws(AVError) -> PictureSource? {
        guard options.sandbox != .off, url.hasPrefix("file:") else { return nil }
        let path = String(url.dropFirst(5))
        let name = SourceOptions.displayName(path)
        guard let bytes = try StillFile.read(path, name: name) else { return nil }
        switch try DecodeWorkers.shared.still(bytes, name: name, options: options) {
        case .picture(let p): return p
        case .inProcess: return nil
        }
    }
}
