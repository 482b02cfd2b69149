import CFFmpeg
import Glibc
import MediaCore
import Web

/// Web pictures whose address does not say what they are (`https://cdn.example/photo?id=7`):
/// their first bytes do, and a still or an animation found there goes to a sandboxed worker
/// like one with a picture's extension, instead of to FFmpeg in this process.
extension DemuxStage {
    /// What the first bytes of a web address said.
    enum Sniffed {
        /// A still, decoded by a worker.
        case picture(PictureSource)
        /// Not a still (or no worker takes it): the demuxer reads on from `io`, which is back
        /// at its start and holds the bytes read so far in its copy.
        case stream(CachingIO)
        /// The download or its decode failed after part of the picture was shown: the part
        /// stays, with the error said (`keepSoFar`).
        case shownInPart
    }

    /// The still at a web address without a picture's extension, decoded by a worker; nil
    /// when the sandbox is off, the address is not one, or a cache already holds it (the
    /// demuxer then opens it as before). Without a disk cache to read the first bytes back
    /// from, a video costs one more request for them.
    func sniffedWebStill() throws(AVError) -> Sniffed? {
        let o = options.source
        guard options.sandbox != .off, SourceOptions.isNetwork(url), !sendsWebStills, !PictureFormat.fetchesWhole(url),
              o.memoryCache?.data(for: url) == nil, o.cache?.holds(url) != true else { return nil }
        let cb = openInterrupt.callback
        let sinks = CachingIO.Sinks(cache: o.cache, directory: o.cacheDirectory, memory: o.memoryCache, onCached: o.onCached)
        openInterrupt.arm()
        defer { openInterrupt.disarm() }
        let io: CachingIO
        do { io = try CachingIO.open(url: url, options: o, sinks: sinks, interrupt: cb) } catch {
            throw AVError(code: error.code, message: "cannot open \(SourceOptions.displayName(url)): \(error.message)")
        }
        let head = self.head(of: io)
        let name = SourceOptions.displayName(url)
        guard StillFile.isStill(head, name: name) || StillFile.isAnimation(head) else {
            // A video or a sound: FFmpeg reads it from the start, the first bytes from the copy.
            _ = io.seek(to: 0, whence: SEEK_SET)
            return .stream(io)
        }
        defer { io.close() }
        // A JPEG or a GIF shows while it downloads, as with a picture's extension.
        var soFar = SoFar(schedule: PartialPictureSchedule(start: MonotonicClock.seconds()))
        do throws(AVError) {
            let bytes = try readWhole(io, from: head) { showSoFarIfDue($0, total: $1, &soFar) }
            guard let picture = try sandboxedStill(bytes, name: name) else {
                throw AVError(message: "\(name): no sandboxed decoder took the picture")
            }
            return .picture(picture)
        } catch where soFar.shown {
            keepSoFar(error)
            return .shownInPart
        }
    }

    /// The first bytes of `io` (up to `PictureFormat.headSize`): fewer at a short file's end.
    private func head(of io: CachingIO) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: PictureFormat.headSize)
        var got = 0
        while got < head.count {
            let n = head.withUnsafeMutableBufferPointer { io.read(into: $0.baseAddress! + got, size: $0.count - got) }
            guard n > 0 else { break }
            got += Int(n)
        }
        return Array(head[0..<got])
    }
}
