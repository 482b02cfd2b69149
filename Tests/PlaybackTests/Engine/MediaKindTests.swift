import Foundation
import Testing
import TestSupport
@testable import Playback

/// Each kind of file opens as the kind a user expects, shows the right pictures and ends.
@Suite(.serialized) struct MediaKindTests {
    @Test("Stills in PNG, JPEG, BMP, TIFF and WebP are one image frame that finishes",
          arguments: ["png", "jpg", "bmp", "tiff", "webp"])
    func stills(ext: String) throws {
        let path = try Fixtures.solidImage("blue", width: 96, height: 64, ext: ext)
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .image)
        #expect(info.width == 96 && info.height == 64)
        #expect(!info.hasAudio)
        let run = d.play(limit: 5, colors: true)
        // A still is decoded once: exactly one picture, then the end, promptly.
        #expect(run.finished, "a still never finished")
        #expect(run.frames.count == 1)
        if let c = run.frames.first?.color {
            #expect(Colour.near(c, Colour.blue, tolerance: 25), "got \(Colour.text(c))")
        }
    }

    @Test("An animated GIF is .animated and shows each of its frames in order")
    func gif() throws {
        let path = try Fixtures.gif(colors: ["red", "lime", "blue"], delayCentiseconds: 10)
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .animated)
        let run = d.play(limit: 5, colors: true)
        #expect(run.finished)
        let colours = run.frames.compactMap(\.color)
        try #require(colours.count == 3, "frames: \(colours.map(Colour.text))")
        #expect(Colour.near(colours[0], Colour.red, tolerance: 25))
        #expect(Colour.near(colours[1], Colour.green, tolerance: 25))
        #expect(Colour.near(colours[2], Colour.blue, tolerance: 25))
    }

    @Test("An mp4 with a tone is .video with sound")
    func video() throws {
        let path = try Fixtures.solidVideo("lime", width: 160, height: 120, seconds: 1, tone: 440)
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .video)
        #expect(info.hasAudio && !info.hasCoverArt)
        #expect(info.width == 160 && info.height == 120)
        #expect(abs((info.duration ?? 0) - 1) < 0.1, "duration \(String(describing: info.duration))")
        #expect(info.videoCodec == "h264" && info.audioCodec == "aac")
        let run = d.play(limit: 5)
        #expect(run.finished)
        #expect(run.frames.count >= 24, "\(run.frames.count) frames of 25")
    }

    @Test("A wav is .audio with no picture, and ends")
    func wav() throws {
        let path = try Fixtures.tone(440, seconds: 0.5)
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .audio)
        #expect(info.hasAudio && !info.hasCoverArt)
        #expect(info.width == 0 && info.height == 0)
        #expect(abs((info.duration ?? 0) - 0.5) < 0.05)
        // (How long it lasts without a sound server is NoSoundServerTests' business.)
        let run = d.play(limit: 5)
        #expect(run.finished && run.frames.isEmpty)
    }

    @Test("An mp3 with cover art is .audio with the cover as its one picture", arguments: ["png", "mjpeg"])
    func coverArt(codec: String) throws {
        let path = try Fixtures.make("pt-cover-\(codec).mp3", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
            "-f", "lavfi", "-i", "color=c=lime:s=64x64:d=0.04",
            "-map", "0", "-map", "1", "-frames:v", "1", "-c:a", "libmp3lame",
            "-c:v", codec, "-pix_fmt", codec == "png" ? "rgb24" : "yuvj444p",
            "-disposition:v", "attached_pic"])
        let d = PlayerDriver(path)
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .audio)
        #expect(info.hasCoverArt && info.hasAudio)
        #expect(info.width == 64 && info.height == 64)
        let run = d.play(limit: 5, colors: true)
        #expect(run.finished)
        try #require(run.frames.count == 1, "\(run.frames.count) cover frames")
        let c = try #require(run.frames[0].color)
        #expect(Colour.near(c, Colour.green, tolerance: 25), "cover is \(Colour.text(c))")
    }
}
