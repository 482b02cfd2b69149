import CFFmpeg
import Foundation
import Testing
import TestSupport
@testable import Playback

/// A film in MP4 or Matroska opens from its headers alone, without FFmpeg's probe decoding
/// its first frames; what the info panel then says must be what ffprobe, which runs the full
/// probe, says of the same file, and the film must still play from its first picture.
@Suite(.serialized) struct ContainerHeaderTests {
    /// Films as encoders make them by default, and one whose sound is AAC at a low rate,
    /// which only the probe may describe (HE-AAC states half its rate in its header).
    static let films: [(name: String, args: [String])] = [
        ("header-x264-aac.mp4", ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i",
                                 "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx264", "-c:a", "aac",
                                 "-ac", "2"]),
        ("header-vp9-opus.webm", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-f", "lavfi", "-i",
                                  "sine=frequency=440", "-t", "2", "-c:v", "libvpx-vp9", "-c:a", "libopus"]),
        ("header-x264-ac3.mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24", "-f", "lavfi", "-i",
                                 "sine=frequency=440:sample_rate=44100", "-t", "2", "-c:v", "libx264", "-c:a", "ac3"]),
        ("header-x264-aac22k.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi", "-i",
                                    "sine=frequency=440:sample_rate=22050", "-t", "2", "-c:v", "libx264", "-c:a", "aac",
                                    "-ac", "1"]),
    ]

    /// ffprobe's account of `path`: the format's duration and bit rate, and the first video
    /// and sound stream's fields.
    static func ffprobe(_ path: String) throws -> (format: [String: Any], video: [String: Any], audio: [String: Any]) {
        let r = try Run.process("ffprobe", ["-v", "error", "-show_entries",
                                            "format=duration,bit_rate:stream=codec_type,codec_name,width,height,avg_frame_rate,"
                                            + "sample_rate,channels,bit_rate", "-of", "json", path])
        try #require(r.status == 0, "ffprobe: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let streams = json["streams"] as? [[String: Any]] ?? []
        return (json["format"] as? [String: Any] ?? [:],
                streams.first { $0["codec_type"] as? String == "video" } ?? [:],
                streams.first { $0["codec_type"] as? String == "audio" } ?? [:])
    }

    static func number(_ v: Any?) -> Double? {
        guard let s = v as? String else { return (v as? NSNumber)?.doubleValue }
        if let slash = s.firstIndex(of: "/"), let n = Double(s[..<slash]), let d = Double(s[s.index(after: slash)...]), d > 0 {
            return n / d
        }
        return Double(s)
    }

    @Test("A film's facts from its headers are ffprobe's, and it plays from its first picture",
          arguments: ContainerHeaderTests.films.map(\.name))
    func factsAgreeWithFFprobe(name: String) throws {
        let args = try #require(ContainerHeaderTests.films.first { $0.name == name }).args
        let path = try Fixtures.make(name, args)
        let truth = try ContainerHeaderTests.ffprobe(path)
        let d = PlayerDriver(path) { $0.untimed = true }
        defer { d.player.close() }
        let info = try d.ready()
        #expect(info.kind == .video && info.hasAudio)
        #expect(info.videoCodec == truth.video["codec_name"] as? String)
        #expect(info.audioCodec == truth.audio["codec_name"] as? String)
        #expect(info.width == truth.video["width"] as? Int && info.height == truth.video["height"] as? Int,
                "\(info.width)x\(info.height), ffprobe \(truth.video)")
        let duration = try #require(ContainerHeaderTests.number(truth.format["duration"]))
        #expect(abs((info.duration ?? 0) - duration) < 0.002, "duration \(String(describing: info.duration)), ffprobe \(duration)")
        let rate = try #require(ContainerHeaderTests.number(truth.video["avg_frame_rate"]))
        #expect(abs((info.streams.frameRate ?? 0) - rate) < 0.01, "\(String(describing: info.streams.frameRate)) fps, ffprobe \(rate)")
        #expect(info.streams.sampleRate.map(Double.init) == ContainerHeaderTests.number(truth.audio["sample_rate"]))
        #expect(info.streams.channels == truth.audio["channels"] as? Int)
        let overall = try #require(ContainerHeaderTests.number(truth.format["bit_rate"]))
        let ours = Double(info.streams.overallBitRate ?? 0)
        // ffprobe rounds the duration it divides by to microseconds, as we do.
        #expect(abs(ours - overall) <= overall * 0.001, "\(ours) bits a second, ffprobe \(overall)")
        #expect(info.streams.videoBitRate.map(Double.init) == ContainerHeaderTests.number(truth.video["bit_rate"]))
        #expect(info.streams.audioBitRate.map(Double.init) == ContainerHeaderTests.number(truth.audio["bit_rate"]))
        let run = d.play(limit: 10)
        #expect(run.finished, "the film never finished")
        // Every picture from the first on: none lost to a decoder that opened without the probe.
        let expected = Int((duration * rate).rounded())
        #expect(run.frames.count >= expected - 1, "\(run.frames.count) pictures of \(expected)")
        #expect(run.frames.first.map { abs($0.pts) < 0.05 } ?? false, "first picture at \(String(describing: run.frames.first?.pts))")
    }

    @Test("MP4 and Matroska skip the probe; sound that may state half its rate or states its bit rate only in its frames, and other formats, do not")
    func whichFilesSkipTheProbe() throws {
        // AC-3 states its bit rate in each frame: the probe reads it for the info panel.
        let expectations = [("header-x264-aac.mp4", true), ("header-vp9-opus.webm", true), ("header-x264-ac3.mkv", false),
                            ("header-x264-aac22k.mp4", false)]
        for (name, skips) in expectations {
            let args = try #require(ContainerHeaderTests.films.first { $0.name == name }).args
            let path = try Fixtures.make(name, args)
            var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
            try #require(avformat_open_input(&ctx, path, nil, nil) >= 0)
            defer { avformat_close_input(&ctx) }
            #expect(Demuxer.headersSuffice(ctx!) == skips, "\(name)")
        }
        let ts = try Fixtures.make("header-x264-aac.ts", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "1",
                                                          "-c:v", "libx264"])
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        try #require(avformat_open_input(&ctx, ts, nil, nil) >= 0)
        defer { avformat_close_input(&ctx) }
        #expect(!Demuxer.headersSuffice(ctx!), "an MPEG-TS states nothing in a header")
    }
}
