import CFFmpeg
import Glibc
import MediaCore
import ThumbnailCache
import Web

/// Makes the small picture of a file that a gallery cell shows, on the calling thread.
///
/// A gallery of a thousand photos waits on this, so each kind takes its fastest way: JPEG
/// through libjpeg-turbo scaled down while decoding (a 24 MP photo decodes at 1/8 size in a
/// fraction of the full decode), everything else through FFmpeg. A video shows a frame about
/// a tenth of the way in, past the black or the title card most videos open with; an
/// animated picture shows its first frame; sound shows its cover art.
public enum ThumbnailMaker {
    /// Why a file has no thumbnail.
    public enum Failure: Error, Sendable, Equatable {
        /// The file holds no picture at all (sound without cover art): nothing is wrong with it.
        case noPicture
        /// The file could not be read or decoded; the message says why, in one line.
        case broken(String)
    }

    /// A thumbnail made: the picture, and how long the file plays when it is a video.
    public typealias Made = (picture: StillDecoder.RGBA, length: Double?)

    /// The picture of the file at `path`, fitting in `size` x `size` pixels with its shape
    /// kept (never enlarged), as straight-alpha RGBA.
    public static func make(path: String, size: Int, maxPixels: Int = 100_000_000) throws(Failure) -> StillDecoder.RGBA {
        try thumbnail(path: path, size: size, maxPixels: maxPixels).picture
    }

    /// As `make`, with how long the file plays when it is a video (nil for stills, animated
    /// pictures and sound), read from the container the picture was taken from: a gallery
    /// shows it without opening the file again.
    public static func thumbnail(path: String, size: Int, maxPixels: Int = 100_000_000) throws(Failure)
        -> (picture: StillDecoder.RGBA, length: Double?) {
        let file: (fd: Int32, size: Int)
        do { file = try open(path) } catch { throw .broken(error.message) }
        defer { close(file.fd) }
        return try thumbnail(fd: file.fd, fileSize: file.size, name: SourceOptions.displayName(path), size: size,
                             maxPixels: maxPixels)
    }

    /// As `thumbnail(path:)`, of the regular file open as `fd` (`fileSize` bytes, called
    /// `name` in messages), read only through `pread`: how the sandboxed worker, which may
    /// open no path, makes a gallery's thumbnails from the descriptor the viewer hands it.
    public static func thumbnail(fd: Int32, fileSize: Int, name: String, size: Int, maxPixels: Int = 100_000_000)
        throws(Failure) -> (picture: StillDecoder.RGBA, length: Double?) {
        let head = WholeFile.read(fd, size: min(fileSize, PictureFormat.headSize))
        if head.starts(with: [0xFF, 0xD8, 0xFF]),
           let p = try? jpeg(fd: fd, fileSize: fileSize, name: name, size: size, maxPixels: maxPixels) { return (p, nil) }
        // The pictures FFmpeg cannot decode well (AVIF, HEIC, animated JPEG XL and WebP, SVG)
        // go through the player's own decoders: their first frame, an SVG drawn at the cell's size.
        if PictureFormat.sniff(head, name: name) != nil, fileSize <= PictureFormat.largestFile {
            var picture = PlayerOptions()
            picture.source.maxPixels = maxPixels
            picture.targetSize = (size, size)
            let bytes = WholeFile.read(fd, size: fileSize)
            if let source = try? PictureSources.open(bytes, name: name, options: picture,
                                                     colour: PictureColour(displayProfile: nil, name: name)),
               let first = try? source.next(), let p = try? fit(first.frame, size: size) {
                return (p, nil)
            }
        }
        var options = SourceOptions()
        options.maxPixels = maxPixels
        guard let io = ReaderIO.descriptor(fd, size: Int64(fileSize)) else { throw .broken("\(name): out of memory") }
        return try ffmpeg(io: io, name: name, size: size, options: options)
    }

    /// A cached thumbnail's PNG decoded and fitted to `size`: what the gallery's sandboxed
    /// worker does with the PNG the viewer read from the desktop's cache.
    public static func picture(ofCachedPNG png: [UInt8], size: Int) -> StillDecoder.RGBA? {
        ThumbnailStore.decodePNG(png, size: size)
    }

    /// The camera's own thumbnail when it serves (`embedded`), else libjpeg-turbo at the
    /// largest DCT scale-down that still covers `size`. Only the head of the file is read
    /// for the first: a camera folder's first screen costs no twelve-megapixel reads.
    static func jpeg(fd: Int32, fileSize: Int, name: String, size: Int, maxPixels: Int) throws -> StillDecoder.RGBA {
        guard fileSize <= wholeFileLimit else { throw AVError(message: "\(name): too big for a thumbnail") }
        let head = WholeFile.read(fd, size: min(fileSize, headBytes))
        if let p = head.withUnsafeBytes({ embedded($0, size: size) }) { return p }
        let bytes = head.count < headBytes ? head : WholeFile.read(fd, size: fileSize)
        let lowres = try bytes.withUnsafeBytes { raw throws(AVError) -> Int in
            let (w, h) = try JPEGStill.storedSize(raw)
            return Self.lowres(width: w, height: h, size: size)
        }
        let frame = try bytes.withUnsafeBytes { raw throws(AVError) in
            try JPEGStill(lowres: lowres, maxPixels: maxPixels).decode(raw)
        }
        // Upright, as the photo is shown: a camera held sideways says so in EXIF.
        let turn = bytes.withUnsafeBytes { JPEGOrientation.rotation(ofJPEG: $0) }
        return rotated(try fit(frame, size: size), by: turn)
    }

    /// `p` turned clockwise by a multiple of 90 degrees.
    static func rotated(_ p: StillDecoder.RGBA, by degrees: Int) -> StillDecoder.RGBA {
        let turn = ((degrees % 360) + 360) % 360
        guard turn != 0 else { return p }
        let (w, h) = (p.width, p.height)
        let (ow, oh) = turn == 180 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: p.pixels.count)
        for y in 0..<h {
            for x in 0..<w {
                let (nx, ny) = turn == 90 ? (h - 1 - y, x) : turn == 180 ? (w - 1 - x, h - 1 - y) : (y, w - 1 - x)
                let s = (y * w + x) * 4, d = (ny * ow + nx) * 4
                out[d] = p.pixels[s]; out[d + 1] = p.pixels[s + 1]; out[d + 2] = p.pixels[s + 2]; out[d + 3] = p.pixels[s + 3]
            }
        }
        return StillDecoder.RGBA(width: ow, height: oh, pixels: out)
    }

    /// FFmpeg: the best picture stream, a tenth of the way into a video, read through `io`.
    static func ffmpeg(io: ReaderIO, name: String, size: Int, options: SourceOptions) throws(Failure)
        -> (picture: StillDecoder.RGBA, length: Double?) {
        let d: Demuxer
        do { d = try Demuxer(url: name, options: options, io: io) } catch { throw .broken(error.message) }
        let v = av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard v >= 0 else {
            if av_find_best_stream(d.ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) >= 0 { throw .noPicture }
            throw .broken("\(name): no picture in it")
        }
        let st = d.stream(Int(v))
        for i in 0..<Int(d.ctx.pointee.nb_streams) where i != Int(v) { d.stream(i).pointee.discard = AVDISCARD_ALL }
        let codec = st.pointee.codecpar.pointee.codec_id
        let animated = [AV_CODEC_ID_GIF, AV_CODEC_ID_APNG, AV_CODEC_ID_WEBP, AV_CODEC_ID_PNG].contains(codec)
        let cover = st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        let length = animated || cover ? nil : d.duration
        if let length, length > 1 { _ = d.seek(to: length / 10) }
        let dec: Decoder
        do { dec = try Decoder(stream: st, threads: 1, maxPixels: options.maxPixels) } catch { throw .broken(error.message) }
        let frame = Frame()
        switch StillDecoder.firstPicture(of: d, stream: Int(v), decoder: dec, into: frame, budget: 2000) {
        case .picture:
            // Upright, as the player shows it: a phone's video is stored sideways.
            do { return (rotated(try fit(frame, size: size), by: StreamFacts.rotation(of: st)), length) } catch {
                throw .broken(error.message)
            }
        case .none:
            throw .broken("\(name): no picture could be decoded")
        case .failed(let e):
            throw .broken("\(name): \(e.message)")
        }
    }

    /// `frame` scaled to fit `size` (its sample aspect applied), as RGBA.
    static func fit(_ frame: Frame, size: Int) throws(AVError) -> StillDecoder.RGBA {
        let f = frame.raw
        let sw = Int(f.pointee.width), sh = Int(f.pointee.height)
        guard sw > 0, sh > 0 else { throw AVError(message: "a picture of no size") }
        let sar = f.pointee.sample_aspect_ratio
        let shownW = sar.num > 0 && sar.den > 0 ? Double(sw) * Double(sar.num) / Double(sar.den) : Double(sw)
        let scale = min(1, Double(size) / max(shownW, Double(sh)))
        let dw = max(1, Int((shownW * scale).rounded())), dh = max(1, Int((Double(sh) * scale).rounded()))
        guard let sws = sws_getContext(Int32(sw), Int32(sh), AVPixelFormat(rawValue: f.pointee.format),
                                       Int32(dw), Int32(dh), AV_PIX_FMT_RGBA, SWS_AREA, nil, nil, nil) else {
            throw AVError(message: "cannot scale a picture of format \(f.pointee.format)")
        }
        defer { sws_freeContext(sws) }
        var out = [UInt8](repeating: 0, count: dw * dh * 4)
        out.withUnsafeMutableBufferPointer { buf in
            var dst: [UnsafeMutablePointer<UInt8>?] = [buf.baseAddress, nil, nil, nil]
            var stride: [Int32] = [Int32(dw * 4), 0, 0, 0]
            withUnsafePointer(to: &f.pointee.data) { data in
                withUnsafePointer(to: &f.pointee.linesize) { sizes in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        sizes.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            _ = sws_scale(sws, src, srcStride, 0, f.pointee.height, &dst, &stride)
                        }
                    }
                }
            }
        }
        // BGR0 and other formats without alpha come out with alpha 0 from some swscale paths.
        if av_pix_fmt_desc_get(AVPixelFormat(rawValue: f.pointee.format)).map({ $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) == 0 }) ?? true {
            var i = 3
            while i < out.count { out[i] = 255; i += 4 }
        }
        return StillDecoder.RGBA(width: dw, height: dh, pixels: out)
    }

    /// The largest file read whole for a thumbnail.
    static let wholeFileLimit = 512 << 20

    /// `path` opened for reading, with its size, or why not, in one line. Non-blocking, and
    /// regular files only: a pipe or a device named like a picture would block the reader.
    static func open(_ path: String) throws(AVError) -> (fd: Int32, size: Int) {
        let fd = FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw AVError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw AVError(message: "\(path): not a regular file")
        }
        return (fd, Int(st.st_size))
    }
}
