import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Web

/// Pictures decoded outside FFmpeg (`PictureSource`), and web pictures fetched whole into
/// memory.
extension DemuxStage {
    /// What the web route found for a picture address.
    enum WebPicture {
        /// Not a picture address fetched whole: the demuxer opens it as usual.
        case none
        /// One of the formats with a decoder of its own.
        case picture(PictureSource)
        /// Any other picture: FFmpeg reads it from the bytes already fetched.
        case bytes(MemoryIO)
        /// The download or its decode failed after part of the picture was shown: the
        /// part stays, with the error said (`keepSoFar`).
        case shownInPart
    }

    /// A web address ending in a picture extension that needs the whole file (WebP, AVIF,
    /// HEIC, JPEG XL, SVG) is fetched into memory once: the memory cache, then the disk
    /// cache, else the network (which also fills both caches, as any web picture does).
    /// No disk cache is needed, so `--no-cache` plays an animated WebP too.
    func webPicture(colour: PictureColour) throws(AVError) -> WebPicture {
        guard SourceOptions.isNetwork(url), PictureFormat.fetchesWhole(url) || sendsWebStills else { return .none }
        let name = SourceOptions.displayName(url)
        var soFar = SoFar(schedule: PartialPictureSchedule(start: MonotonicClock.seconds()))
        let bytes: [UInt8]
        do {
            bytes = try fetchWhole { showSoFarIfDue($0, total: $1, &soFar) }
            if let picture = try sandboxedStill(bytes, name: name) { return .picture(picture) }
        } catch where soFar.shown {
            keepSoFar(error)
            return .shownInPart
        }
        if let picture = try PictureSources.open(bytes, name: name, options: options, colour: colour) {
            return .picture(picture)
        }
        guard let io = MemoryIO(data: Data(bytes)) else { return .none }
        return .bytes(io)
    }

    /// The whole source at `url`, within `PictureFormat.largestFile`; close() cancels it.
    /// `arrived` is told the bytes so far and the announced length (0: none) as they come.
    private func fetchWhole(arrived: ([UInt8], Int) -> Void) throws(AVError) -> [UInt8] {
        let name = SourceOptions.displayName(url)
        let o = options.source
        if let data = o.memoryCache?.data(for: url) { return [UInt8](data) }
        if let path = o.cache?.check(url).path, let data = try? Data(contentsOf: URL(fileURLWithPath: path)) {
            return [UInt8](data)
        }
        let cb = openInterrupt.callback
        let sinks = CachingIO.Sinks(cache: o.cache, directory: o.cacheDirectory, memory: o.memoryCache,
                                    onCached: o.onCached)
        openInterrupt.arm()
        let io: CachingIO
        do {
            io = try CachingIO.open(url: url, options: o, sinks: sinks, interrupt: cb)
        } catch {
            throw AVError(code: error.code, message: "cannot open \(name): \(error.message)")
        }
        defer { io.close() }
        return try readWhole(io, arrived: arrived)
    }

    /// Every byte `io` holds from where it stands, within `PictureFormat.largestFile`, with
    /// `arrived` told of them as they come.
    func readWhole(_ io: CachingIO, from start: [UInt8] = [], arrived: ([UInt8], Int) -> Void) throws(AVError) -> [UInt8] {
        let name = SourceOptions.displayName(url)
        var bytes = start
        let chunk = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        while true {
            // The timeout is per read: a slow but steady download is fine, a stall is not.
            openInterrupt.arm()
            let n = io.read(into: buffer, size: chunk)
            openInterrupt.disarm()
            if n > 0 {
                guard bytes.count + Int(n) <= PictureFormat.largestFile else {
                    throw AVError(message: "\(name): the picture is more than \(PictureFormat.largestFile >> 20) MiB")
                }
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(n)))
                if io.size > 0 {
                    bufferedPermille.store(min(1000, bytes.count * 1000 / Int(io.size)), ordering: .relaxed)
                }
                arrived(bytes, Int(max(0, io.size)))
                continue
            }
            if n == cff_averror_eof { return bytes }
            let why = io.failure?.message ?? AVError.describe(n)
            throw AVError(code: n, message: "\(name): download failed: \(why)")
        }
    }

    /// Plays a `PictureSource`: its first frame is decoded before the item is announced
    /// (a picture that cannot be decoded fails like one that cannot be opened), frames go to
    /// the queue a video decoder fills, and a seek (the viewer's loop) starts it over.
    func playPicture(_ picture: PictureSource) {
        let info = picture.info
        var first: (frame: Frame, pts: Double, duration: Double)?
        do {
            first = try picture.next()
        } catch {
            fail(error)
            return
        }
        guard first != nil else {
            fail(AVError(message: "\(SourceOptions.displayName(url)): no picture could be decoded"))
            return
        }
        state.withLock {
            $0.phase = .ready(info)
            $0.decodes = (true, false)
        }
        bufferedPermille.store(1000, ordering: .relaxed)
        wake()
        var current = serial.current
        while !isClosed {
            if let command = takeCommand() {
                picture.rewind()
                first = nil
                current = command.serial
            }
            var f = first
            first = nil
            if f == nil {
                do {
                    f = try picture.next()
                } catch where picture.endsItemOnFailure {
                    // Its decoder stopped (crashed, or killed by its sandbox): the item
                    // fails with that line, and the rest of the queue goes on.
                    fail(error)
                    return
                } catch {
                    // A frame that fails mid-animation ends it there: what came before plays.
                }
            }
            if let f {
                let vf = VideoFrame(frame: f.frame, pts: f.pts, duration: f.duration, serial: current,
                                    rotation: info.rotation)
                if !pictureFrames.push(.frame(vf)) { return }
                wake()
                continue
            }
            pictureFrames.pushForced(.end(serial: current))
            wake()
            waitWhileIdle()
        }
    }
}
