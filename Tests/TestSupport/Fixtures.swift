import Foundation

/// Real media files made with ffmpeg for the tests, cached per test run.
///
/// Each fixture is made once (keyed by its name) in a private directory and reused by
/// every test that asks for it, so the suites stay fast.
public enum Fixtures {
    /// The directory fixtures are written to.
    public static let directory: String = {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_FIXTURES"]
            ?? (NSTemporaryDirectory() + "mediaview-fixtures-\(getuid())")
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }()

    private static let lock = NSLock()

    /// Makes `name` with `ffmpeg -y <args> <path>` unless it exists already.
    public static func make(_ name: String, _ args: [String]) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let path = directory + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        let tmp = directory + "/.tmp-\(getpid())-" + name
        let r = try Run.process("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + args + [tmp], timeout: 120)
        guard r.status == 0 else { throw FixtureError("ffmpeg failed for \(name): \(r.stderr)") }
        guard rename(tmp, path) == 0 else { throw FixtureError("cannot rename fixture \(name)") }
        return path
    }

    /// 6 s of video, red, green, then blue for 2 s each, with a chapter per colour titled
    /// "Red", "Green" and "Blue" (an MKV, as files with chapters usually are).
    public static func chapteredVideo() throws -> String {
        let meta = directory + "/chapters.ffmeta"
        try ";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=2000\ntitle=Red\n"
            .appending("[CHAPTER]\nTIMEBASE=1/1000\nSTART=2000\nEND=4000\ntitle=Green\n")
            .appending("[CHAPTER]\nTIMEBASE=1/1000\nSTART=4000\nEND=6000\ntitle=Blue\n")
            .write(toFile: meta, atomically: true, encoding: .utf8)
        return try make("chapters-rgb-6s.mkv", [
            "-f", "lavfi", "-i", "color=c=red:s=320x180:r=25:d=2", "-f", "lavfi", "-i", "color=c=green:s=320x180:r=25:d=2",
            "-f", "lavfi", "-i", "color=c=blue:s=320x180:r=25:d=2", "-f", "ffmetadata", "-i", meta,
            "-filter_complex", "[0:v][1:v][2:v]concat=n=3:v=1[v]", "-map", "[v]", "-map_chapters", "3",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p"])
    }

    /// The colours of `colourSeconds()`, one a second, as CSS names and RGB.
    public static let secondColours: [(name: String, rgb: UInt32)] = [
        ("red", 0xFF0000), ("green", 0x008000), ("blue", 0x0000FF), ("yellow", 0xFFFF00), ("cyan", 0x00FFFF),
        ("magenta", 0xFF00FF),
    ]

    /// 6 s of 640x360 video whose every second has its own colour (`secondColours`), with a
    /// keyframe at each second: a picture that tells which time it shows.
    public static func colourSeconds() throws -> String {
        var args: [String] = []
        for c in secondColours { args += ["-f", "lavfi", "-i", "color=c=\(c.name):s=640x360:r=25:d=1"] }
        let inputs = (0..<secondColours.count).map { "[\($0):v]" }.joined()
        return try make("colour-seconds-6s.mp4", args + [
            "-filter_complex", "\(inputs)concat=n=\(secondColours.count):v=1[v]", "-map", "[v]",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p"])
    }

    /// An hour of tiny video (64x36, 5 fps) with a single keyframe at its start: what a
    /// hovered preview must not decode its way through.
    public static func oneKeyframeHour() throws -> String {
        try make("one-keyframe-hour.mp4", [
            "-f", "lavfi", "-i", "testsrc2=s=64x36:r=5:d=3600", "-c:v", "libx264", "-preset", "ultrafast",
            "-g", "100000", "-keyint_min", "100000", "-sc_threshold", "0", "-pix_fmt", "yuv420p"])
    }

    /// The same hour as an MPEG-TS stream: no index, so a seek is a search through the bytes.
    public static func oneKeyframeHourStream() throws -> String {
        try make("one-keyframe-hour.ts", ["-i", try oneKeyframeHour(), "-c", "copy", "-f", "mpegts"])
    }

    /// The same hour as a raw H.264 stream: no index, no timestamps, no duration.
    public static func rawH264() throws -> String {
        try make("one-keyframe-hour.h264", ["-i", try oneKeyframeHour(), "-c", "copy", "-f", "h264"])
    }

    /// A still image of one colour.
    public static func solidImage(_ color: String, width: Int = 320, height: Int = 240, ext: String = "png") throws -> String {
        try make("solid-\(color)-\(width)x\(height).\(ext)",
                 ["-f", "lavfi", "-i", "color=c=\(color):s=\(width)x\(height)", "-frames:v", "1"])
    }

    /// A video of one colour, optionally with a sine tone.
    public static func solidVideo(_ color: String, width: Int = 320, height: Int = 240, seconds: Double = 1,
                                  fps: Int = 25, pixelFormat: String = "yuv420p", codec: String = "libx264",
                                  tone: Int? = nil, ext: String = "mp4") throws -> String {
        var args = ["-f", "lavfi", "-i", "color=c=\(color):s=\(width)x\(height):r=\(fps):d=\(seconds)"]
        if let tone { args += ["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=\(seconds)"] }
        args += ["-c:v", codec, "-pix_fmt", pixelFormat]
        if codec == "libx264" { args += ["-preset", "ultrafast"] }
        if tone != nil { args += ["-c:a", ext == "webm" || ext == "mkv" ? "libopus" : "aac", "-shortest"] }
        let name = "video-\(color)-\(width)x\(height)-\(seconds)s-\(fps)-\(pixelFormat)-\(codec)-\(tone ?? 0).\(ext)"
        return try make(name, args)
    }

    /// A sine tone, with no picture.
    public static func tone(_ frequency: Int, seconds: Double = 2, ext: String = "wav") throws -> String {
        try make("tone-\(frequency)-\(seconds).\(ext)",
                 ["-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)"])
    }

    /// An animated GIF whose frames alternate between the given colours, each shown for
    /// `delayCentiseconds` (0 and 1 test the browsers' clamp).
    public static func gif(colors: [String], delayCentiseconds: Int, size: Int = 64) throws -> String {
        let name = "anim-\(colors.joined(separator: "-"))-\(delayCentiseconds)cs-\(size).gif"
        var args: [String] = []
        for c in colors { args += ["-f", "lavfi", "-i", "color=c=\(c):s=\(size)x\(size):d=1:r=1"] }
        let inputs = (0..<colors.count).map { "[\($0):v]" }.joined()
        // One frame per colour; the GIF muxer takes the delay from the frame rate.
        let fps = delayCentiseconds == 0 ? "100" : "100/\(delayCentiseconds)"
        args += ["-filter_complex", "\(inputs)concat=n=\(colors.count):v=1[c];[c]settb=1/100,setpts=N*\(max(1, delayCentiseconds)),split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse",
                 "-r", fps, "-loop", "0", "-final_delay", "-1"]
        return try make(name, args)
    }

    /// Makes `name` with another of Debian's tools (avifenc, heif-enc, cjxl, convert):
    /// `args(path)` are its arguments for writing `path`. Made once per run, like the rest.
    public static func tool(_ name: String, _ tool: String, _ args: (String) -> [String]) throws -> String {
        lock.lock(); defer { lock.unlock() }
        let path = directory + "/" + name
        if FileManager.default.fileExists(atPath: path) { return path }
        let tmp = directory + "/.tmp-\(getpid())-" + name
        let r = try Run.process(tool, args(tmp), timeout: 120)
        guard r.status == 0, FileManager.default.fileExists(atPath: tmp) else {
            throw FixtureError("\(tool) failed for \(name): \(r.stderr)")
        }
        guard rename(tmp, path) == 0 else { throw FixtureError("cannot rename fixture \(name)") }
        return path
    }

    /// A solid `color` PNG with 8-bit RGB samples (heif-enc misreads palette PNGs), the
    /// source the still-format fixtures are encoded from.
    public static func truecolourPNG(_ color: String, width: Int = 128, height: Int = 96) throws -> String {
        let safe = color.filter { $0.isLetter || $0.isNumber }
        return try tool("src-\(safe)-\(width)x\(height).png", "convert") { out in
            ["-size", "\(width)x\(height)", "xc:\(color)", "PNG24:" + out]
        }
    }

    /// A file holding exactly these bytes.
    public static func bytes(_ name: String, _ data: Data) throws -> String {
        let path = directory + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A fixture could not be made.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}
