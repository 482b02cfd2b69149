import Foundation
@testable import MediaCore
@testable import Playback
@testable import Subtitles
import TestSupport
import Testing
@testable import Web

/// Subtitle text read where a crafted file can do no harm: a subtitle file beside a film is
/// parsed by a confined worker and gives the player the same script as reading it here, its
/// failures say why in one line, and an answer a subverted worker could send is refused.
@Suite(.serialized) struct SubtitleSandboxTests {
    init() { FFmpegLog.quiet }

    private static var strict: PlayerOptions {
        var o = PlayerOptions()
        o.sandbox = .strict
        return o
    }

    private static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Fixtures.bytes("subtitle-sandbox-" + name, Data(bytes))
    }

    @Test("A subtitle file read by a confined worker gives the same header, events and codec as reading it here")
    func sameAsHere() throws {
        var latin1 = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8)
        latin1 += [0xE9, 0x0A]
        let files = [
            try Self.file("a.srt", Array("1\n00:00:01,500 --> 00:00:03,000\nHello <i>there</i>\n".utf8)),
            try Self.file("b.vtt", Array("WEBVTT\n\n00:00:02.000 --> 00:00:04.000\nWeb line\n".utf8)),
            try Self.file("c.ass", Array("""
                [Script Info]
                ScriptType: v4.00+
                PlayResX: 384
                PlayResY: 288

                [V4+ Styles]
                Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
                Style: Default,Sans,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

                [Events]
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: 0,0:00:05.00,0:00:06.50,Default,,0,0,0,,{\\fs9000}ASS line

                """.utf8)),
            try Self.file("old.srt", latin1),
        ]
        for path in files {
            let boxed = try SubtitleFile.load(path, options: Self.strict)
            let here = try SubtitleFile.load(path)
            #expect(boxed.codec == here.codec && boxed.header == here.header, "\(path)")
            #expect(boxed.cues == here.cues && !boxed.cues.isEmpty, "\(path): \(boxed.cues) against \(here.cues)")
        }
        let ass = try SubtitleFile.load(files[2], options: Self.strict)
        #expect(ass.cues.first?.fields.hasSuffix("{\\fs400}ASS line") == true, "the size a script asks for is bounded: \(ass.cues)")
        #expect(try SubtitleFile.load(files[3], options: Self.strict).cues.first?.fields.hasSuffix("Café") == true)
    }

    @Test("A subtitle file the worker cannot read, or that cannot be handed to it, says why in one line")
    func failuresAreOneLine() throws {
        var noise: [UInt8] = []
        for i in 0..<4096 { noise.append(UInt8((i * 7919 + 13) % 251)) }
        let cases: [(String, String)] = [
            (try Self.file("noise.srt", noise), "not a subtitle file FFmpeg can read"),
            (try Self.file("empty.srt", []), "the file is empty"),
            ("/nonexistent/missing.srt", "cannot open it: No such file or directory"),
            (FileManager.default.temporaryDirectory.path, "not a file"),
        ]
        for (path, want) in cases {
            do {
                let script = try SubtitleFile.load(path, options: Self.strict)
                Issue.record("\(path) read as \(script.cues.count) events")
            } catch {
                #expect(error.message == want, "\(path): \(error.message)")
            }
        }
    }

    @Test("Subtitle answers a subverted worker could send are refused: unknown streams, times that are not numbers, endless lines, garbage")
    func malformedAnswersAreRefused() throws {
        func message(_ kind: WorkerMessage.Kind, _ numbers: [Int64], _ json: String) throws -> WorkerMessage {
            let bytes = Array(json.utf8)
            let fd = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
            return WorkerMessage(kind: kind, numbers: numbers + [Int64(bytes.count)], fd: fd)
        }
        let good = #"[{"start":1.5,"duration":2,"fields":"0,Default,,0,0,0,,{\\bord900}Hi"}]"#
        let taken = try message(.containerCues, [2], good)
        defer { close(taken.fd) }
        let cues = try #require(SubtitleWork.cues(in: taken, subtitleStreams: [2]))
        #expect(cues.stream == 2 && cues.cues.first?.fields == "0,Default,,0,0,0,,{\\bord50}Hi", "bounded again here: \(cues)")

        let long = String(repeating: "x", count: SubtitleWork.largestEvent + 1)
        let refused: [(Int64, Set<Int>, String)] = [
            (2, [3], good),
            (-1, [2], good),
            (2, [2], #"[{"start":1,"duration":-2,"fields":"a"}]"#),
            (2, [2], #"[{"start":1,"duration":0,"fields":"a"}]"#),
            (2, [2], #"[{"start":1e400,"duration":1,"fields":"a"}]"#),
            (2, [2], "[{\"start\":1,\"duration\":1,\"fields\":\"\(long)\"}]"),
            (2, [2], #"{"start":1}"#),
            (2, [2], "\u{0}\u{1}garbage"),
        ]
        for (i, (stream, streams, json)) in refused.enumerated() {
            let m = try message(.containerCues, [stream], json)
            defer { close(m.fd) }
            #expect(SubtitleWork.cues(in: m, subtitleStreams: streams) == nil, "answer \(i) was taken")
        }
        let script = try message(.subtitleScript, [], #"{"header":"[Script Info]","codec":"subrip","cues":[]}"#)
        defer { close(script.fd) }
        #expect(SubtitleWork.script(in: script) == nil, "a script without events was taken")
        let header = try message(.subtitleScript, [], "{\"header\":\"\(String(repeating: "h", count: SubtitleWork.largestHeader + 1))\",\"codec\":\"subrip\",\"cues\":\(good)}")
        defer { close(header.fd) }
        #expect(SubtitleWork.script(in: header) == nil, "a header over its bound was taken")
        // A count beyond the memfd, and no memfd at all.
        #expect(SubtitleWork.cues(in: WorkerMessage(kind: .containerCues, numbers: [2, 1 << 40]), subtitleStreams: [2]) == nil)
        let here = try Demuxer(url: "file:" + (try ContainerSandboxTests.files()[0]), options: SourceOptions())
        var over = withExtendedLifetime(here) { ContainerDescription(here.ctx) }
        over.streams[0].subtitleHeader = String(repeating: "h", count: SubtitleWork.largestHeader + 1)
        #expect(!over.isSound, "a description with a header over its bound was taken")
        // The fuzzer's seeds are answers the viewer takes, so its mutations start from good ones.
        for (seed, kind) in [("container-cues", WorkerMessage.Kind.containerCues), ("subtitle-script", .subtitleScript)] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.repositoryRoot + "/Tests/FuzzCorpus/" + seed)).dropFirst())
            let fd = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
            defer { close(fd) }
            let m = WorkerMessage(kind: kind, numbers: (kind == .containerCues ? [1] : []) + [Int64(bytes.count)], fd: fd)
            let taken = kind == .containerCues ? SubtitleWork.cues(in: m, subtitleStreams: [1])?.cues : SubtitleWork.script(in: m)?.cues
            #expect(taken?.count == 1, "the seed \(seed) is refused")
        }
    }
}
