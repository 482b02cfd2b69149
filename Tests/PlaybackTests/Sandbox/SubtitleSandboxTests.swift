import CSandbox
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
            try Self.file("c.ass", Array((Self.styled + "Dialogue: 0,0:00:05.00,0:00:06.50,Default,,0,0,0,,{\\fs9000}ASS line\n").utf8)),
            try Self.file("old.srt", latin1),
        ]
        for path in files {
            let boxed = try SubtitleFile.load(path, options: Self.strict)
            let here = try SubtitleFile.load(path)
            #expect(boxed.codec == here.codec && boxed.header == here.header, "\(path)")
            #expect(boxed.cues == here.cues && !boxed.cues.isEmpty, "\(path): \(boxed.cues) against \(here.cues)")
        }
        let ass = try SubtitleFile.load(files[2], options: Self.strict)
        #expect(ass.cues.contains { $0.fields.hasSuffix("{\\fs400}ASS line") }, "the size a script asks for is bounded: \(ass.cues)")
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

    /// A pool whose workers take probes.
    let pool = DecodeWorkers(timeout: 2, testing: true)

    @Test("The worker that draws subtitles applies every step, may read fonts and nothing else, and cannot write, reach the network, the display or the bus, or run a program")
    func drawingWorkerIsConfined() throws {
        defer { pool.stopAll() }
        let c = try #require(pool.confinement(.subtitles))
        #expect(c.missing == [])
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        let font = try #require(FileManager.default.enumerator(atPath: "/usr/share/fonts")?.first { ($0 as? String)?.hasSuffix(".ttf") == true } as? String)
        #expect(pool.probe("open:/usr/share/fonts/" + font, kind: .subtitles) == .answered("allowed"), "a font cannot be read")
        #expect(pool.probe("open:/etc/passwd", kind: .subtitles) == .answered("refused: EACCES"))
        #expect(pool.probe("open:" + home, kind: .subtitles) == .answered("refused: EACCES"))
        #expect(pool.probe("create:/usr/share/fonts/" + font, kind: .subtitles) == .answered("refused: EACCES"), "a font can be overwritten")
        #expect(pool.probe("create:" + FileManager.default.temporaryDirectory.path + "/from-the-worker", kind: .subtitles) == .answered("refused: EACCES"))
        let display = try TestEnvironment.display.split(separator: ":").last.map { $0.split(separator: ".")[0] } ?? "0"
        let bus = try TestEnvironment.require("DBUS_SESSION_BUS_ADDRESS")
        let busPath = bus.split(separator: ",").first { $0.contains("path=") }.map { String($0.split(separator: "=")[1]) }
        #expect(pool.probe("tcp:80", kind: .subtitles) == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("unix:/tmp/.X11-unix/X\(display)", kind: .subtitles) == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("unix:" + (busPath ?? "/run/dbus/system_bus_socket"), kind: .subtitles) == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("exec:/bin/true", kind: .subtitles) == .stopped("killed by the sandbox (SIGSYS)"))
    }

    /// Every image of each frame, as text: place, size, colour and a hash of its mask.
    private static func frames(_ render: (Double, (SubtitleBitmap) -> Void) throws -> Void) rethrows -> [[String]] {
        try [0.5, 1.2, 2.5, 2.6, 4.0].map { t in
            var out: [String] = []
            try render(t) { b in
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for y in 0..<b.height { for x in 0..<b.width { h = (h ^ UInt64(b.mask[y * b.stride + x])) &* 0x100_0000_01b3 } }
                out.append("\(b.x),\(b.y) \(b.width)x\(b.height) \(b.red),\(b.green),\(b.blue),\(b.alpha) \(h)")
            }
            return out
        }
    }

    @Test("Subtitles drawn by the confined worker are the same images, pixel for pixel, as libass draws here")
    func drawingSameAsHere() throws {
        defer { pool.stopAll() }
        let script = try SubtitleFile.decode(Array(Self.styled.utf8), name: "styled.ass")
        let news = { (i: Int) in (header: script.header, cues: Array(script.cues[min(i, script.cues.count)...])) }
        let here = try #require(SubtitleRenderer())
        let worker = try #require(try pool.confinedWorker(.subtitles, name: "subtitles", options: Self.strict))
        let boxed = WorkerSubtitles(worker: worker, pool: pool)
        let a = Self.frames { t, draw in here.render(track: 1, at: t, width: 640, height: 360, news: news, draw) }
        // Waiting for each frame's images, as a frame in the program waits up to 50 ms: here
        // the first line in a second font may take longer, and the test compares every frame.
        let b = try Self.frames { t, draw in
            try boxed.render(track: 1, at: t, width: 640, height: 360, fontScale: 1, wait: WorkerSubtitles.drawTime, news: news, draw)
        }
        #expect(a == b, "the worker drew other images")
        #expect(a[0].count > 2 && a[1].count > 2 && a[4].isEmpty, "\(a.map(\.count))")
        #expect(a[2] == a[3], "a frame that did not change is drawn again the same")
    }

    /// A renderer that never answers holds the thread that draws the video only for the
    /// frame that asked, 50 ms, never its whole 2 s: the frames after it draw without
    /// subtitles at once, and once the 2 s are over the worker is stopped in one line.
    @Test("A hung subtitle renderer does not hold up the frames drawn while it is given its 2 s")
    func aHungRendererDoesNotHoldTheVideo() throws {
        defer { pool.stopAll() }
        let header = Self.styled.replacingOccurrences(of: "ScriptType: v4.00+", with: "ScriptType: v4.00+\nTitle: mediaview-test: hang")
        let script = try SubtitleFile.decode(Array(header.utf8), name: "hang.ass")
        let news = { (i: Int) in (header: script.header, cues: Array(script.cues[min(i, script.cues.count)...])) }
        let worker = try #require(try pool.confinedWorker(.subtitles, name: "subtitles", options: Self.strict))
        let boxed = WorkerSubtitles(worker: worker, pool: pool)
        let started = MonotonicClock.seconds()
        var longest = 0.0, frames = 0, drawn = 0
        var failure: AVError?
        // 25 frames a second, until the renderer is given up on (or 6 s, which would be a failure).
        while MonotonicClock.seconds() - started < 6 {
            let t0 = MonotonicClock.seconds()
            do throws(AVError) {
                try boxed.render(track: 1, at: 1.5, width: 640, height: 360, fontScale: 1, news: news) { _ in drawn += 1 }
            } catch {
                failure = error
                break
            }
            longest = max(longest, MonotonicClock.seconds() - t0)
            frames += 1
            Thread.sleep(forTimeInterval: 0.04)
        }
        let after = MonotonicClock.seconds() - started
        #expect(failure?.message == "subtitles: the decoder stopped: took too long", "\(String(describing: failure))")
        #expect(after >= WorkerSubtitles.drawTime && after < WorkerSubtitles.drawTime + 1, "given up after \(after) s")
        #expect(frames >= 30 && drawn == 0, "\(frames) frames drawn meanwhile, \(drawn) images")
        #expect(longest < 0.5, "a frame was held \(longest) s")
    }

    /// Two styled lines: one in bold yellow with a border, one in another font, both gone at 3 s.
    static let styled = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,28,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,2,1,2,10,10,10,1
        Style: Other,DejaVu Serif,24,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,0,0,100,100,0,0,1,1,0,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.20,0:00:03.00,Default,,0,0,0,,Yellow and bold
        Dialogue: 0,0:00:01.00,0:00:03.00,Other,,0,0,0,,{\\i1}Another font{\\i0} at the top

        """

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
        // Image tables: each image must lie in the memfd, after the table.
        func table(_ entries: [[Int32]], size: Int) throws -> (WorkerMessage, SubtitleImages.Mapping) {
            var bytes = [UInt8](repeating: 0, count: size)
            for (i, e) in entries.enumerated() {
                for (j, n) in e.enumerated() { withUnsafeBytes(of: n) { for k in 0..<4 { bytes[(i * 6 + j) * 4 + k] = $0[k] } } }
            }
            let fd = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
            defer { close(fd) }
            return (WorkerMessage(kind: .subtitleImages, numbers: [1, Int64(entries.count), Int64(size)]), try #require(SubtitleImages.Mapping(fd: fd)))
        }
        let (fine, fineMap) = try table([[10, 2, 5, 5, -1, 24]], size: 44)
        #expect(SubtitleImages.parse(fine, map: fineMap.base, size: fineMap.size)?.first == .init(width: 10, height: 2, x: 5, y: 5, color: .max, offset: 24))
        for (i, e) in [[11, 2, 5, 5, -1, 24], [10, 2, 5, 5, -1, 0], [-10, 2, 5, 5, -1, 24], [10, 2, 5, 5, -1, 1 << 30], [1 << 20, 1 << 20, 0, 0, 0, 24]].enumerated() {
            let (m, map) = try table([e.map(Int32.init)], size: 44)
            #expect(SubtitleImages.parse(m, map: map.base, size: map.size) == nil, "image table \(i) was taken")
        }
        let (many, manyMap) = try table([], size: 44)
        var tooMany = many
        tooMany.numbers[1] = 1 << 20
        #expect(SubtitleImages.parse(tooMany, map: manyMap.base, size: manyMap.size) == nil, "a table longer than its memfd was taken")
        // A memfd whose size the worker could still change is not mapped.
        let loose = sbx_memfd("loose")
        defer { close(loose) }
        #expect(ftruncate(loose, 4096) == 0 && SubtitleImages.Mapping(fd: loose) == nil, "a memfd that can shrink was mapped")

        // The fuzzer's seeds are answers the viewer takes, so its mutations start from good ones.
        for (seed, kind) in [("container-cues", WorkerMessage.Kind.containerCues), ("subtitle-script", .subtitleScript)] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Run.repositoryRoot + "/Tests/FuzzCorpus/" + seed)).dropFirst())
            let fd = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
            defer { close(fd) }
            let m = WorkerMessage(kind: kind, numbers: (kind == .containerCues ? [1] : []) + [Int64(bytes.count)], fd: fd)
            let taken = kind == .containerCues ? SubtitleWork.cues(in: m, subtitleStreams: [1])?.cues : SubtitleWork.script(in: m)?.cues
            #expect(taken?.count == 1, "the seed \(seed) is refused")
        }
        let images = Array(try Data(contentsOf: URL(fileURLWithPath: Run.repositoryRoot + "/Tests/FuzzCorpus/subtitle-images")).dropFirst())
        let imagesFD = try #require(images.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
        defer { close(imagesFD) }
        let imagesMap = try #require(SubtitleImages.Mapping(fd: imagesFD))
        let seedCount = Int64(images[0]) << 8 | Int64(images[1])
        #expect(SubtitleImages.parse(WorkerMessage(kind: .subtitleImages, numbers: [1, seedCount, Int64(images.count)]),
                                     map: imagesMap.base, size: imagesMap.size)?.count == 1, "the seed subtitle-images is refused")
    }
}
