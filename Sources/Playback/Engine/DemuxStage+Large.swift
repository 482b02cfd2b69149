import Glibc
import MediaCore
import Web

/// Local PNGs and TIFFs too large to hold whole: shown fitted from one pass over their rows,
/// in a worker, or here with the sandbox off; the same pass writes the zoom's tiles to a
/// store put on `PyramidShelf` for the view to take.
extension DemuxStage {
    /// The picture when the local file is a PNG or TIFF over the pixel budget (by its
    /// header) or too large to read whole; nil for every other file, which goes on its way.
    func largeStill() throws(AVError) -> PictureSource? {
        guard url.hasPrefix("file:"), let file = StillFile.openRegular(String(url.dropFirst(5))) else { return nil }
        defer { Glibc.close(file.fd) }
        guard LargeStill.format(head: file.head, fd: file.fd, size: file.size, maxPixels: options.source.maxPixels) != nil else {
            return nil
        }
        let name = SourceOptions.displayName(url)
        if options.sandbox != .off {
            switch try DecodeWorkers.shared.large(fd: file.fd, head: file.head, name: name, options: options,
                                                  cancelled: { self.isClosed }) {
            case .picture(let p): return p
            case .inProcess: break
            case .moving: throw AVError(message: "\(name): an animation, played by the player")
            }
        }
        let store = (try? PyramidStore.create(in: options.scratchDirectory)) ?? -1
        let result: StillWork.Result
        do {
            result = try LargeStill.decode(fd: file.fd, name: name, target: options.targetSize,
                                           maxPixels: options.source.maxPixels, store: store)
        } catch {
            if store >= 0 { Glibc.close(store) }
            throw error
        }
        if result.tilesStored {
            PyramidShelf.shared.put(file: file.fd, store: store, layout: LargeStill.layout(width: result.stored.width,
                                                                                            height: result.stored.height))
        } else if store >= 0 {
            Glibc.close(store)
        }
        return LargePicture(result)
    }
}
