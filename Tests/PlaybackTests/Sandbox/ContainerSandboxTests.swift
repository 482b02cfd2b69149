import CFFmpeg
import CSandbox
import Foundation
@testable import MediaCore
@testable import Playback
@testable import Subtitles
import TestSupport
import Testing
@testable import Web

/// A local video's or song's container read by a sandboxed worker, as everyone who plays a
/// downloaded file depends on: the player sees the same streams, facts and packets as from
/// FFmpeg's demuxer here, the worker is confined, and answers a subverted worker could send
/// are refused. A web video's container is read there too, its bytes fetched by the viewer.
@Suite(.serialized) struct ContainerSandboxTests {
    init() { FFmpegLog.quiet }

    /// Files as people have them: x264's and libvpx's defaults with sound, a Matroska with
    /// chapters, two sound tracks in two languages and text subtitles, a phone video turned
    /// by its display matrix, an MP3 with cover art, Opus in Ogg.
    static func files() throws -> [String] {
        let chapters = try Fixtures.bytes("container-chapters.txt", Data("""
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1000
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=1000
            END=2000
            title=Second part
            """.utf8))
        let subtitles = try Fixtures.bytes("container-subtitles.srt", Data("1\n00:00:00,200 --> 00:00:01,500\nHello there\n".utf8))
        return [
            try Fixtures.make("container-x264-aac.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi",
                                                          "-i", "sine=frequency=440", "-t", "2", "-c:v", "libx264",
                                                          "-pix_fmt", "yuv420p", "-c:a", "aac"]),
            try Fixtures.make("container-vp9-opus.webm", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi",
                                                           "-i", "sine=frequency=440", "-t", "1", "-c:v", "libvpx-vp9",
                                                           "-c:a", "libopus"]),
            try Fixtures.make("container-chapters.mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-f", "lavfi",
                                                          "-i", "sine=frequency=440", "-f", "lavfi", "-i", "sine=frequency=880",
                                                          "-i", subtitles, "-i", chapters, "-map", "0", "-map", "1", "-map", "2",
                                                          "-map", "3", "-map_metadata", "4", "-map_chapters", "4", "-t", "2",
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "srt",
                                                          "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra",
                                                          "-metadata", "title=Two tracks"]),
            // A phone's turn is written on a stream copy: the muxer then takes the tag as its matrix.
            try Fixtures.make("container-turned-90.mp4", ["-i", try Fixtures.make("container-upright.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "1", "-c:v", "libx264", "-preset", "ultrafast",
                "-pix_fmt", "yuv420p"]), "-c", "copy", "-metadata:s:v:0", "rotate=90"]),
            try Fixtures.make("container-cover.mp3", ["-f", "lavfi", "-i", "sine=frequency=440", "-f", "lavfi", "-i",
                                                       "color=c=red:s=64x64", "-t", "1", "-map", "0", "-map", "1", "-frames:v", "1",
                                                       "-c:a", "libmp3lame", "-c:v", "png", "-disposition:v", "attached_pic",
                                                       "-metadata", "artist=Someone"]),
            try Fixtures.make("container-opus.ogg", ["-f", "lavfi", "-i", "sine=frequency=440", "-t", "1", "-c:a", "libopus"]),
        ]
    }

    /// The container at `path` read by a confined worker.
    static func sandboxed(_ path: String) throws -> Demuxer {
        try sandboxed(url: "file:" + path)
    }

    /// The container at `url` (a file or a web address) read by a confined worker.
    static func sandboxed(url: String) throws -> Demuxer {
        var o = PlayerOptions()
        o.sandbox = .strict
        let interrupt = Interrupt(timeout: 5)
        guard case .sandboxed(let c) = try SandboxedContainer.open(url: url, memory: nil, options: o, interrupt: interrupt,
                                                                    cancelled: { false }) else {
            throw AVError(message: "\(url) was not opened in a worker")
        }
        return Demuxer(sandboxed: c, interrupt: interrupt)
    }

    /// Each packet as a line: stream, times, flags, size, a hash of its bytes, its side data.
    /// A text subtitle packet is its events instead, decoded here or by the worker.
    static func packets(_ d: Demuxer) -> [String] {
        var out: [String] = []
        let packet = Packet()
        let decoders = Dictionary(uniqueKeysWithValues: (0..<d.streamCount).compactMap { i in
            SubtitleDecoder.isText(d.stream(i)) && !d.isSandboxed ? (try? SubtitleDecoder(stream: d.stream(i))).map { (i, $0) } : nil
        })
        func cues(_ stream: Int, _ list: [SubtitleCue]) {
            out += list.map { "cue \(stream) \(Int(($0.start * 1000).rounded())) \(Int(($0.duration * 1000).rounded())) \($0.fields)" }
        }
        while out.count < 10_000 {
            let result = d.read(into: packet)
            for (stream, list) in d.takeCues() { cues(stream, list) }
            guard case .packet = result else { break }
            if let decoder = decoders[packet.streamIndex] {
                cues(packet.streamIndex, decoder.decode(packet))
                av_packet_unref(packet.raw)
                continue
            }
            let p = packet.raw.pointee
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for i in 0..<Int(p.size) { h = (h ^ UInt64(p.data[i])) &* 0x100_0000_01b3 }
            let side = (0..<Int(p.side_data_elems)).map { i -> String in
                let sd = p.side_data[i]
                return "\(sd.type.rawValue):\(Array(UnsafeBufferPointer(start: sd.data, count: Int(sd.size))))"
            }
            out.append("\(p.stream_index) \(p.pts) \(p.dts) \(p.duration) \(p.flags) \(p.size) \(h) \(side)")
            av_packet_unref(packet.raw)
        }
        return out
    }

    /// What the player reads of each stream, as text.
    static func streams(_ d: Demuxer) throws -> [String] {
        try (0..<d.streamCount).map { i in
            let st = d.stream(i)
            var s = ContainerDescription.Stream(codec: CodecFacts(st.pointee.codecpar), timeBase: [0, 1], disposition: 0, tags: [],
                                                averageRate: [], realRate: [], aspect: [], frames: 0, duration: 0, start: 0)
            s.timeBase = ContainerDescription.pair(st.pointee.time_base)
            s.disposition = st.pointee.disposition
            s.averageRate = ContainerDescription.pair(st.pointee.avg_frame_rate)
            s.realRate = ContainerDescription.pair(st.pointee.r_frame_rate)
            s.frames = st.pointee.nb_frames
            s.duration = st.pointee.duration
            s.start = st.pointee.start_time
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = String(decoding: try encoder.encode(s), as: UTF8.self)
            // The codec's name as the info panel and the track list show it: the worker's
            // description carries it, so the viewer looks it up in no libavcodec of its own.
            return "\(json) codec \(d.codecName(i)) rotation \(StreamFacts.rotation(of: st)) language \(StreamFacts.tag(st.pointee.metadata, "language") ?? "-")"
        }
    }

    @Test("A local file's container read by a confined worker gives the player the same streams, facts and packets as FFmpeg's demuxer here")
    func sameAsHere() throws {
        for path in try Self.files() {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let here = try Demuxer(url: "file:" + path, options: SourceOptions())
            let boxed = try Self.sandboxed(path)
            #expect(boxed.isSandboxed && !here.isSandboxed)
            #expect(boxed.formatName == here.formatName && boxed.longName == here.longName, "\(name)")
            #expect(boxed.duration == here.duration, "\(name)")
            #expect(boxed.chapters.map(\.start) == here.chapters.map(\.start) && boxed.chapters.map(\.title) == here.chapters.map(\.title), "\(name)")
            for type in [AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_AUDIO] {
                #expect(boxed.bestStream(type) == here.bestStream(type), "\(name)")
            }
            #expect(StreamFacts.tag(boxed.ctx.pointee.metadata, "title") == StreamFacts.tag(here.ctx.pointee.metadata, "title"))
            #expect(StreamFacts.tag(boxed.ctx.pointee.metadata, "artist") == StreamFacts.tag(here.ctx.pointee.metadata, "artist"))
            let (a, b) = (try Self.streams(boxed), try Self.streams(here))
            #expect(a == b, "\(name): the streams differ")
            let (p, q) = (Self.packets(boxed), Self.packets(here))
            #expect(p.count == q.count && p.count > 10, "\(name): \(p.count) packets from the worker, \(q.count) here")
            let same = p == q
            #expect(same, "\(name): the packets differ, first at \(Array(zip(p, q)).firstIndex { $0.0 != $0.1 } ?? -1)")
            // And after a seek to the middle.
            #expect(boxed.seek(to: 1) == here.seek(to: 1))
            let (r, s) = (Self.packets(boxed), Self.packets(here))
            #expect(r == s && !r.isEmpty, "\(name): the packets after a seek differ")
        }
        let files = try Self.files()
        let turned = try Self.sandboxed(files[3])
        #expect(StreamFacts.rotation(of: turned.stream(0)) == 270 || StreamFacts.rotation(of: turned.stream(0)) == 90)
        let mkv = try Self.sandboxed(files[2])
        #expect(mkv.chapters.map(\.title) == ["Opening", "Second part"])
        #expect(mkv.streamCount == 4)
        // Its SubRip track is decoded by the worker: the viewer gets the events and the
        // header libass needs, never the packets.
        #expect(mkv.workerSubtitleHeader(3)?.contains("[Script Info]") == true)
        let lines = Self.packets(mkv)
        #expect(lines.contains { $0.hasPrefix("cue 3 ") && $0.contains(" 1300 ") && $0.hasSuffix("Hello there") }, "\(lines.filter { $0.hasPrefix("cue") })")
        #expect(!lines.contains { $0.hasPrefix("3 ") }, "a subtitle packet crossed over undecoded")
    }

    @Test("A web video's container is read by a confined worker through the viewer's transport: the same packets as FFmpeg's demuxer reading it here")
    func webSameAsHere() throws {
        let (name, _) = try TrackPreviewerTests.servedClip()
        let url = try TestEnvironment.http + "/" + name
        let boxed = try Self.sandboxed(url: url)
        let here = try Demuxer(url: url, options: SourceOptions())
        #expect(try Self.streams(boxed) == (try Self.streams(here)))
        let (p, q) = (Self.packets(boxed), Self.packets(here))
        #expect(p.count == q.count && p.count > 1000, "\(p.count) packets from the worker, \(q.count) here")
        let same = p == q
        #expect(same, "the packets differ")
        // The last packets end a little before the file does (its index is at the end, read
        // while opening).
        let progress = try #require(boxed.byteProgress)
        #expect(Double(progress.position) > 0.99 * Double(progress.size), "the buffered range stopped at \(progress)")
    }

    @Test("A web download cut short ends the worker's read in the transport's words, as it does here; a playlist is known by its address")
    func webCutAndPlaylists() throws {
        let (name, size) = try TrackPreviewerTests.servedClip()
        let url = try TestEnvironment.http + "/reset/\(size / 2)/" + name
        let boxed = try Self.sandboxed(url: url)
        let packet = Packet()
        var result = boxed.read(into: packet)
        var count = 0
        while case .packet = result, count < 100_000 {
            av_packet_unref(packet.raw)
            count += 1
            result = boxed.read(into: packet)
        }
        guard case .failed = result else {
            Issue.record("a download cut in half read to its end: \(result)")
            return
        }
        let why = try #require(boxed.ioFailure?.message)
        #expect(!why.isEmpty && !why.contains("\n") && boxed.sandboxStopped == nil, "\(why)")
        #expect(SandboxedContainer.namesPlaylist("https://example.invalid/live/index.m3u8?token=1"))
        #expect(!SandboxedContainer.namesPlaylist("https://example.invalid/clip.mp4"))
    }

    @Test("A web playlist (HLS), plain and with AES-128 segments, is read by a confined worker, each part fetched by the viewer: the same packets as FFmpeg's demuxer reading it here",
          arguments: [false, true])
    func webPlaylistSameAsHere(encrypted: Bool) throws {
        let url = try Fixtures.servedHLS(encrypted: encrypted)
        let boxed = try Self.sandboxed(url: url)
        var options = SourceOptions()
        options.cache = nil
        let here = try Demuxer(url: url, options: options)
        #expect(boxed.isSandboxed && boxed.formatName == "hls" && here.formatName == "hls")
        #expect(try Self.streams(boxed) == (try Self.streams(here)))
        let (p, q) = (Self.packets(boxed), Self.packets(here))
        #expect(p.count == q.count && p.count > 300, "\(p.count) packets from the worker, \(q.count) here")
        #expect(p == q, "the packets differ, first at \(Array(zip(p, q)).firstIndex { $0.0 != $0.1 } ?? -1)")
    }

    @Test("The viewer opens only web addresses for a worker's playlist: a local file, another protocol or a malformed address is refused")
    func playlistPartsAreWebOnly() throws {
        let io = try #require(MemoryIO(data: Data("#EXTM3U\n".utf8)))
        let sources = ChannelSources(main: ChannelReads.Source(io: io, interrupt: Interrupt(timeout: 5)), options: SourceOptions())
        func open(_ url: String) throws -> WorkerMessage {
            let bytes = Array(url.utf8)
            let fd = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
            defer { close(fd) }
            return sources.answer(WorkerMessage(kind: .openURL, numbers: [Int64(bytes.count)], fd: fd))
        }
        for url in ["file:///etc/passwd", "/etc/passwd", "crypto+file:///etc/passwd", "ftp://127.0.0.1/x", "data:,hello"] {
            let m = try open(url)
            #expect(m.kind == .urlOpened && (m.numbers.first ?? 0) < 0 && m.text == "a web playlist may name only web addresses", "\(url): \(m.text)")
        }
        #expect(sources.answer(WorkerMessage(kind: .openURL, numbers: [5])).numbers.first.map { $0 < 0 } == true, "no memfd")
        let unopened = sources.answer(WorkerMessage(kind: .readAt, numbers: [0, 100, 7]))
        #expect(unopened.kind == .bytes && (unopened.numbers.first ?? 0) < 0, "a part never opened was read")
        let served = try open(try Fixtures.servedHLS())
        let id = try #require(served.numbers.first)
        #expect(served.kind == .urlOpened && id > 0, "\(served.text)")
        let read = sources.answer(WorkerMessage(kind: .readAt, numbers: [0, 7, id]))
        #expect(read.kind == .bytes && read.numbers.first == 7)
        if read.fd >= 0 { close(read.fd) }
        #expect(sources.answer(WorkerMessage(kind: .closeURL, numbers: [id])).numbers.first == 0)
        let closed = sources.answer(WorkerMessage(kind: .readAt, numbers: [0, 7, id]))
        #expect((closed.numbers.first ?? 0) < 0, "a closed part was read")
        // An encrypted segment's key and IV as the HLS demuxer hands them over: 32 hex digits.
        #expect(SegmentDecryption.bytes(hex: "00112233445566778899aabbccddeeff") == (0..<16).map { UInt8($0 * 0x11) })
        for bad in ["", "0011", "00112233445566778899aabbccddeeffaa", "zz112233445566778899aabbccddeeff", "+0112233445566778899aabbccddeeff"] {
            #expect(SegmentDecryption.bytes(hex: bad) == nil, "\(bad) was taken as a key")
        }
    }

    @Test("The packets of a stream nobody plays stay in the worker")
    func unwantedStreams() throws {
        let mkv = try Self.files()[2]
        let boxed = try Self.sandboxed(mkv)
        let packet = Packet()
        var seen = Set<Int32>()
        while case .packet = boxed.read(into: packet, wanted: [0, 2]) {
            seen.insert(packet.raw.pointee.stream_index)
            av_packet_unref(packet.raw)
        }
        #expect(seen == [0, 2])
    }

    @Test("A playing video's container is read by a confined worker, which is given no path and cannot open one, reach the network or run a program")
    func confinedWhilePlaying() throws {
        let path = try VideoSandboxTests.x264Defaults()
        let d = PlayerDriver(path) { $0.sandbox = .automatic }
        _ = try d.ready()
        #expect(d.play(limit: 10) { $0.count >= 5 }.frames.count == 5)
        #expect(d.player.engine.demux.demuxer?.isSandboxed == true, "the container was read in this process")
        let workers = try Run.process("pgrep", ["-P", "\(getpid())", "-f", "mediaview-worker containers"], timeout: 5)
        let pid = try #require(workers.stdout.split(separator: "\n").compactMap { Int32($0) }.first)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"))
        d.player.close()

        let pool = DecodeWorkers(timeout: 2, testing: true)
        defer { pool.stopAll() }
        SandboxTests.expectConfined(pool, .containers)
    }

    @Test("With the sandbox off the container is read here, as before")
    func offReadsHere() throws {
        let d = PlayerDriver(try VideoSandboxTests.x264Defaults()) { $0.sandbox = .off }
        _ = try d.ready()
        #expect(d.player.engine.demux.demuxer?.isSandboxed == false)
        d.player.close()
    }

    @Test("A description a subverted worker could send is refused: out-of-range best streams, zero time bases, bad matrices, huge sizes")
    func malformedDescriptions() throws {
        let here = try Demuxer(url: "file:" + (try Self.files()[0]), options: SourceOptions())
        let good = ContainerDescription(here.ctx)
        #expect(good.isSound)
        var bad = [ContainerDescription](repeating: good, count: 7)
        bad[0].bestVideo = 7
        bad[1].bestAudio = 0  // the video stream called the sound
        bad[2].streams[0].timeBase = [1, 0]
        bad[3].streams[0].matrix = [1, 2, 3]
        bad[4].streams[0].codec.width = -4
        bad[5].streams[1].codec.channels = 100_000
        bad[6].streams[0].averageRate = [30]
        for (i, d) in bad.enumerated() { #expect(!d.isSound, "malformed description \(i) was taken") }
        // The fuzzer's seed is one the viewer takes, so its mutations start from a good answer.
        let seed = try Data(contentsOf: URL(fileURLWithPath: Run.repositoryRoot + "/Tests/FuzzCorpus/container-description"))
        let fd = try #require(Array(seed.dropFirst()).withUnsafeBytes { SealedBytes.make([$0], name: "test") })
        defer { close(fd) }
        let taken = try #require(SandboxedContainer.described(WorkerMessage(kind: .containerOpened, numbers: [Int64(seed.count - 1)], fd: fd)))
        let standIn = try #require(SandboxedContainer.standIn(taken))
        #expect([90, 270].contains(StreamFacts.rotation(of: standIn.pointee.streams[0]!)) && standIn.pointee.nb_streams == 1)
        cff_standin_free(standIn)
    }

    @Test("A packet a subverted worker could describe is refused: a stream out of range, more bytes than its memfd holds, side data out of bounds")
    func malformedPackets() throws {
        let fd = sbx_memfd("test-packets")
        defer { close(fd) }
        let bytes = [UInt8](repeating: 7, count: 100)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, 100) } == 100)
        let packet = Packet()
        func take(_ n: [Int64]) -> Bool {
            ContainerPackets.take(WorkerMessage(kind: .containerPacket, numbers: n), area: fd, streams: 2, into: packet)
        }
        #expect(take([1, 0, 0, 1, 1, 0, 100, 0, 0]))
        #expect(packet.size == 100 && packet.streamIndex == 1)
        #expect(!take([2, 0, 0, 1, 1, 0, 100, 0, 0]), "a stream out of range")
        #expect(!take([-1, 0, 0, 1, 1, 0, 100, 0, 0]), "a negative stream")
        #expect(!take([0, 0, 0, 1, 1, 0, 101, 0, 0]), "more bytes than the memfd holds")
        #expect(!take([0, 0, 0, 1, 1, 0, Int64(ContainerPackets.largest) + 1, 0, 0]), "a packet over the limit")
        #expect(!take([0, 0, 0, 1, 1, 0, 50, 1, 60]), "side data beyond the memfd")
        // Side data claiming more bytes than the packet's side part holds.
        var side = [UInt8]()
        withUnsafeBytes(of: Int32(AV_PKT_DATA_SKIP_SAMPLES.rawValue)) { side += $0 }
        withUnsafeBytes(of: Int32(45)) { side += $0 }
        #expect(side.withUnsafeBytes { pwrite(fd, $0.baseAddress, 8, 50) } == 8)
        #expect(!take([0, 0, 0, 1, 1, 0, 50, 1, 50]), "side data longer than sent")
    }
}
