import Foundation
import Testing
import TestSupport
@testable import Playback

/// Phone videos with a display-matrix rotation are reported turned and drawn upright.
@Suite(.serialized) struct RotationTests {
    /// A 160x240 video, red on its top half and blue on its bottom half, tagged `rotate`.
    static func tagged(_ rotate: Int) throws -> String {
        try Fixtures.make("pt-red-over-blue-rot\(rotate).mp4",
                          ["-i", try plain(), "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)"])
    }

    /// The same video with no rotation tag.
    static func plain() throws -> String {
        try Fixtures.make("pt-red-over-blue.mp4", [
            "-f", "lavfi", "-i", "color=c=red:s=160x120:r=25:d=0.4",
            "-f", "lavfi", "-i", "color=c=blue:s=160x120:r=25:d=0.4",
            "-filter_complex", "[0:v][1:v]vstack", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv444p"])
    }

    /// Where red lands when ffmpeg itself shows the file upright (its autorotate): the
    /// reference a user's other players agree with. Returns "left", "right", "top", "bottom".
    static func ffmpegRedSide(_ path: String) throws -> String {
        let out = Fixtures.directory + "/pt-rot-\(getpid()).rgb"
        defer { unlink(out) }
        let r = try Run.process("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", path, "-frames:v", "1",
                                           "-f", "rawvideo", "-pix_fmt", "rgb24", out])
        guard r.status == 0, let data = FileManager.default.contents(atPath: out) else {
            throw DriverError("ffmpeg could not decode \(path): \(r.stderr)")
        }
        // 240x160 once turned.
        let w = 240, h = 160
        guard data.count == w * h * 3 else { throw DriverError("ffmpeg gave \(data.count) bytes, not 240x160") }
        func isRed(_ x: Int, _ y: Int) -> Bool { data[(y * w + x) * 3] > 200 && data[(y * w + x) * 3 + 2] < 60 }
        if isRed(20, 80) && !isRed(220, 80) { return "left" }
        if isRed(220, 80) && !isRed(20, 80) { return "right" }
        throw DriverError("ffmpeg's picture has red on neither side")
    }

    /// Which side of our own upright rendering is red.
    static func ourRedSide(_ f: VideoFrame, extra: Int = 0) -> (String, [UInt32]) {
        let (w, h) = extra % 180 == 0 ? f.displaySize : (f.displaySize.height, f.displaySize.width)
        var px = [UInt32](repeating: 0, count: w * h)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: w, height: h, stride: w * 4)
            Scaler().render(f, into: t, rect: PixelRect(x: 0, y: 0, width: w, height: h), quality: .fast, rotation: extra)
        }
        func isRed(_ x: Int, _ y: Int) -> Bool {
            let p = px[y * w + x]
            return (p >> 16) & 0xFF > 200 && p & 0xFF < 60
        }
        let side = isRed(w / 8, h / 2) && !isRed(w * 7 / 8, h / 2) ? "left"
            : isRed(w * 7 / 8, h / 2) && !isRed(w / 8, h / 2) ? "right"
            : isRed(w / 2, h / 8) && !isRed(w / 2, h * 7 / 8) ? "top"
            : isRed(w / 2, h * 7 / 8) && !isRed(w / 2, h / 8) ? "bottom" : "none"
        return (side, px)
    }

    @Test("rotate=90 and rotate=270 report a quarter turn, swapped size, and draw like ffmpeg",
          arguments: [90, 270])
    func quarterTurn(tag: Int) throws {
        let path = try Self.tagged(tag)
        let reference = try Self.ffmpegRedSide(path)
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.rotation == 90 || info.rotation == 270, "rotation \(info.rotation)")
        #expect(info.width == 240 && info.height == 160, "reported \(info.width)x\(info.height)")
        let f = try #require(d.firstFrame())
        #expect(f.rotation == info.rotation)
        #expect(f.displaySize.width == 240 && f.displaySize.height == 160)
        let (side, _) = Self.ourRedSide(f)
        #expect(side == reference, "red drawn on the \(side), ffmpeg shows it on the \(reference)")
    }

    @Test("The two tags turn opposite ways")
    func oppositeTurns() throws {
        #expect(try Self.ffmpegRedSide(Self.tagged(90)) != Self.ffmpegRedSide(Self.tagged(270)))
        let a = PlayerDriver(try Self.tagged(90)), b = PlayerDriver(try Self.tagged(270))
        defer { a.player.close(); b.player.close() }
        let ra = try a.ready().rotation, rb = try b.ready().rotation
        #expect((ra + rb) % 360 == 0 && ra != rb, "\(ra) and \(rb)")
    }

    @Test("No tag: upright as coded, red on top; a user's extra turns move it round")
    func untaggedAndUserTurns() throws {
        let d = PlayerDriver(try Self.plain())
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.rotation == 0 && info.width == 160 && info.height == 240)
        let f = try #require(d.firstFrame())
        #expect(Self.ourRedSide(f).0 == "top")
        // Clockwise: the top goes to the right, then the bottom, then the left.
        #expect(Self.ourRedSide(f, extra: 90).0 == "right")
        #expect(Self.ourRedSide(f, extra: 180).0 == "bottom")
        #expect(Self.ourRedSide(f, extra: 270).0 == "left")
    }
}
