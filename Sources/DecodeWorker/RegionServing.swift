import Glibc
import MediaCore
import Playback

/// The zoomed JPEG a worker serves tiles of: read whole through the descriptor handed over
/// with `regionsOpen`, kept until the next open or the worker's end.
final class RegionServing {
    private var regions: JPEGRegions?

    /// Reads the JPEG behind `m`'s fd (which stays the caller's) and answers its stored
    /// size, or why it cannot be, in one line.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        regions = nil
        let name = m.text.isEmpty ? "picture" : m.text
        guard m.fd >= 0, let size = SealedBytes.size(m.fd) else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        do {
            let opened = try JPEGRegions(fd: m.fd, size: size, name: name)
            regions = opened
            return WorkerMessage(kind: .regionsSize, numbers: [Int64(opened.width), Int64(opened.height)])
        } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
    }

    /// The piece `m` asks for, decoded and colour managed to the display's profile in its
    /// fd (none: sRGB).
    func band(_ m: WorkerMessage) -> WorkerMessage {
        guard let regions else { return WorkerMessage(kind: .failure, text: "zoom detail: no picture is open") }
        return RegionRequest.answer(m, from: regions)
    }
}
