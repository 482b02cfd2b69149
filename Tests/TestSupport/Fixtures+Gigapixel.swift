import Foundation

/// A photo twice the default pixel budget, and FFmpeg's own decode of it to compare with.
extension Fixtures {
    /// A 20000x10000 JPEG as an encoder writes a photo: ffmpeg's test card under grain,
    /// baseline 4:2:0, about 29 MB. Made once (it takes a minute on a busy machine).
    public static func gigapixelJPEG() throws -> String {
        let path = directory + "/gigapixel-20000x10000.jpg"
        if FileManager.default.fileExists(atPath: path) { return path }
        let tmp = directory + "/.tmp-\(getpid())-gigapixel.jpg"
        let r = try Run.process("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                                           "-i", "testsrc2=s=20000x10000:r=1", "-vf", "noise=alls=12:allf=u",
                                           "-frames:v", "1", "-q:v", "3", tmp], timeout: 600)
        guard r.status == 0 else { throw FixtureError("ffmpeg failed for the 20000x10000 JPEG: \(r.stderr)") }
        guard rename(tmp, path) == 0 else { throw FixtureError("cannot rename \(tmp)") }
        return path
    }

    /// The picture of `path` decoded by FFmpeg's own JPEG decoder (not libjpeg), at
    /// 1/2^`lowres` of its size, then through `filter` (a crop, a scale): BGRA bytes of
    /// `width` x `height`. An independent reference for what the viewer shows.
    public static func ffmpegBGRA(_ path: String, lowres: Int = 0, filter: String, width: Int, height: Int) throws -> [UInt8] {
        let out = directory + "/.reference-\(UUID().uuidString).bgra"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try Run.process("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-lowres", String(lowres),
                                           "-i", path, "-vf", filter, "-frames:v", "1", "-f", "rawvideo",
                                           "-pix_fmt", "bgra", out], timeout: 120)
        guard r.status == 0, let data = FileManager.default.contents(atPath: out) else {
            throw FixtureError("ffmpeg could not decode \(path) through \(filter): \(r.stderr)")
        }
        guard data.count == width * height * 4 else {
            throw FixtureError("ffmpeg gave \(data.count) bytes, not \(width)x\(height) BGRA")
        }
        return [UInt8](data)
    }

    /// A copy of a small JPEG from ffmpeg whose header claims `width` x `height`: a
    /// decompression bomb, a few hundred bytes that say they are gigapixels. `progressive`
    /// makes it with ImageMagick as a progressive file, which libjpeg must buffer whole.
    public static func jpegBomb(width: Int, height: Int, progressive: Bool) throws -> String {
        let path = directory + "/jpeg-bomb-\(width)x\(height)\(progressive ? "-progressive" : "").jpg"
        if FileManager.default.fileExists(atPath: path) { return path }
        let small = try make("jpeg-bomb-seed-64x64.jpg", ["-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1"])
        var source = small
        if progressive {
            source = directory + "/jpeg-bomb-seed-64x64-progressive.jpg"
            let r = try Run.process("convert", [small, "-interlace", "JPEG", source], timeout: 60)
            guard r.status == 0 else { throw FixtureError("convert failed: \(r.stderr)") }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        // The frame header (SOF0 baseline, SOF2 progressive): FF Cx, length, precision, height, width.
        guard let sof = (2..<bytes.count - 9).first(where: { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) }) else {
            throw FixtureError("no frame header in \(source)")
        }
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
