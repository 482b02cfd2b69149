import Foundation
@testable import MediaCore
@testable import Playback
@testable import Subtitles
import TestSupport
import Testing

/// Subtitle files as users have them: SubRip, WebVTT and ASS, in UTF-8 or Latin-1, found
/// beside the video; broken and hostile ones bounded.
@Suite struct SubtitleFileTests {
    private func decode(_ text: String, _ name: String) throws -> SubtitleFile.Script {
        try SubtitleFile.decode(Array(text.utf8), name: name)
    }

    @Test func subRipWebVTTAndASSBecomeTimedEvents() throws {
        let srt = try decode("1\n00:00:01,500 --> 00:00:03,000\nHello <i>there</i>\n", "a.srt")
        #expect(srt.codec == "subrip" && srt.cues.count == 1)
        #expect(srt.cues.first.map { abs($0.start - 1.5) < 0.001 && abs($0.duration - 1.5) < 0.001 } == true)
        #expect(srt.cues.first?.fields.contains("Hello {\\i1}there{\\i0}") == true, "\(srt.cues)")
        #expect(srt.header.contains("[Script Info]"))

        let vtt = try decode("WEBVTT\n\n00:00:02.000 --> 00:00:04.000\nWeb line\n", "a.vtt")
        #expect(vtt.codec == "webvtt" && vtt.cues.first?.fields.hasSuffix("Web line") == true, "\(vtt.cues)")

        let ass = try decode("""
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 384
            PlayResY: 288

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Sans,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:05.00,0:00:06.50,Default,,0,0,0,,ASS line

            """, "a.ass")
        #expect(ass.codec == "ass" && ass.cues.count == 1 && ass.cues.first.map { abs($0.start - 5) < 0.001 } == true)
        #expect(ass.header.contains("Style: Default,Sans,20"), "the script's own styles are kept")
    }

    /// An old SubRip file in Latin-1 still reads: "Café" is not lost to invalid UTF-8.
    @Test func latin1SubRipReads() throws {
        var bytes = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8)
        bytes.append(0xE9)
        bytes.append(0x0A)
        let script = try SubtitleFile.decode(bytes, name: "old.srt")
        #expect(script.cues.first?.fields.hasSuffix("Café") == true, "\(script.cues)")
    }

    @Test func brokenFilesSayWhyInAPhrase() throws {
        var noise: [UInt8] = []
        for i in 0..<4096 { noise.append(UInt8((i * 7919 + 13) % 251)) }
        for bytes in [noise, [], Array("not subtitles at all".utf8)] {
            do {
                _ = try SubtitleFile.decode(bytes, name: "broken.srt")
                Issue.record("\(bytes.count) bytes of garbage decoded as subtitles")
            } catch {
                #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(error.message)")
            }
        }
        #expect(throws: AVError.self) { try SubtitleFile.load("/nonexistent/missing.srt") }
    }

    /// A script of 30,000 lines keeps the first `maxCues`: memory stays bounded.
    @Test func aHugeScriptIsBounded() throws {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = ""
        for i in 0..<30_000 {
            let stamp = "00:\(two(i % 3600 / 60)):\(two(i % 60))"
            text += "\(i + 1)\n\(stamp),000 --> \(stamp),500\nline \(i)\n\n"
        }
        let script = try decode(text, "huge.srt")
        #expect(script.cues.count == SubtitleCues.maxCues)
        var cues = SubtitleCues()
        for c in script.cues { cues.add(c, to: 1) }
        for c in script.cues.prefix(10) { cues.add(c, to: 1) }
        #expect(cues.read(1, from: 0).cues.count == SubtitleCues.maxCues, "a repeated event is not kept twice")
    }

    /// `film.srt` and `film.en.srt` go with `film.mkv`; another film's subtitles do not.
    @Test func subtitleFilesBesideTheVideoAreFound() throws {
        let dir = NSTemporaryDirectory() + "subs-beside-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["film.mkv", "film.srt", "film.en.srt", "film.ASS", "other.srt", "film.part2.mkv.srt", "film.txt"] {
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        let found = SubtitleFile.beside("file:" + dir + "/film.mkv").map { ($0 as NSString).lastPathComponent }
        #expect(found == ["film.ASS", "film.srt", "film.en.srt"], "\(found)")
        #expect(SubtitleFile.language(of: dir + "/film.en.srt", media: dir + "/film.mkv") == "en")
        #expect(SubtitleFile.beside("https://example.org/film.mkv").isEmpty, "web media has no folder to look in")
    }

    /// A player lists its sound tracks with their languages, and its subtitle tracks with
    /// the files first; choosing changes the selection.
    @Test func playerListsAndChoosesTracks() throws {
        let video = try Fixtures.twoToneVideo(440, 1000, seconds: 2)
        let srt = try Fixtures.srt("tracks-list.srt", [Fixtures.Cue(0, 1, "Hello")])
        let d = PlayerDriver(video) { $0.subtitleFiles = [srt] }
        guard case .ready = d.waitOpened() else { Issue.record("did not open"); return }
        let p = d.player
        #expect(p.audioTracks.map(\.language) == ["eng", "deu"] && p.audioTrackID == 1)
        #expect(p.subtitleTracks.count == 1 && p.subtitleTracks.first?.isExternal == true && p.subtitleTrackID == 1)
        p.selectAudioTrack(2)
        #expect(p.audioTrackID == 2)
        p.selectAudioTrack(9)
        #expect(p.audioTrackID == 2, "an unknown track changes nothing")
        p.selectSubtitleTrack(nil)
        #expect(p.subtitleTrackID == nil)
    }
}

extension SubtitleFileTests {
    /// The fuzzer's subtitle seeds reach libass: each is read and drawn, so mutations of
    /// them explore the subtitle path rather than stopping at the demuxer.
    @Test(arguments: ["sub.srt", "sub.vtt", "sub.ass", "sub-latin1.srt"])
    func fuzzSeedsAreReadAndDrawn(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Run.repositoryRoot + "/Tests/FuzzMediaCorpus/" + name)))
        let outcome = SubtitleProbe.run(bytes)
        #expect(outcome.failure == nil && outcome.events >= 1 && outcome.images >= 1,
                "\(name): \(outcome.events) events, \(outcome.images) images, \(outcome.failure?.message ?? "")")
    }
}
