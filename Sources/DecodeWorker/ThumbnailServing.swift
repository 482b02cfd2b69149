import Glibc
import MediaCore
import Playback

/// A gallery thumbnail request served: made from the file through the descriptor the viewer
/// handed over (this process can open no path), or a cached PNG decoded, and answered as
/// small RGBA pixels in a sealed memfd.
enum ThumbnailServing {
    /// The largest cached thumbnail PNG read: the cache's own limit.
    static let largestPNG = 8 << 20

    /// The answer to the thumbnail request `m` (whose fd stays the caller's).
    static func serve(_ m: WorkerMessage) -> WorkerMessage {
        guard let request = ThumbnailRequest(m), m.fd >= 0, let fileSize = SealedBytes.size(m.fd) else {
            return WorkerMessage(kind: .failure, text: "\(m.text.isEmpty ? "thumbnail" : m.text): the request was malformed")
        }
        let name = request.name.isEmpty ? "thumbnail" : request.name
        switch request.source {
        case .cachedPNG:
            let png = WholeFile.read(m.fd, size: min(fileSize, largestPNG))
            guard let picture = ThumbnailMaker.picture(ofCachedPNG: png, size: request.size) else {
                return WorkerMessage(kind: .failure, text: "\(name): the cached thumbnail is damaged")
            }
            return answer(picture, length: nil, name: name)
        case .file:
            do {
                let made = try ThumbnailMaker.thumbnail(fd: m.fd, fileSize: fileSize, name: name, size: request.size,
                                                        maxPixels: request.maxPixels)
                return answer(made.picture, length: made.length, name: name)
            } catch {
                switch error {
                case .noPicture: return WorkerMessage(kind: .nothing, text: name)
                case .broken(let why): return WorkerMessage(kind: .failure, text: why)
                }
            }
        }
    }

    private static func answer(_ picture: StillDecoder.RGBA, length: Double?, name: String) -> WorkerMessage {
        ThumbnailRequest.answer(picture, length: length)
            ?? WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "\(name): out of memory")
    }
}
