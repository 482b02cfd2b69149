import CFFmpeg
import CSandbox
import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// A video's pictures decoded by a sandboxed worker, as a user playing a file from the web
/// depends on: the same pixels as decoding here, nothing left behind when it ends, a worker
/// confined as the picture workers are, and a worker that dies ending only its video.
@Suite(.serialized) struct VideoSandboxTests {
    /// Encoded as x264 leaves a file with its defaults: B-frames, several references, CABAC,
    /// so pictures come out of order and are held as references while the viewer shows them.
    static func x264Defaults() throws -> String {
        try Fixtures.make("x264-defaults-640x360.mp4", ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "2",
                                                         "-c:v", "libx264", "-pix_fmt", "yuv420p"])
    }

    static func vp9Defaults() throws -> String {
        try Fixtures.make("vp9-defaults-320x180.webm", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "1",
                                                         "-c:v", "libvpx-vp9"])
    }

    /// Every shown picture's planes, hashed row by row over their visible bytes.
    static func pictures(_ path: String, sandbox: SandboxMode) throws -> [String] {
        let d = PlayerDriver(path) {
            $0.untimed = true
            $0.sandbox = sandbox
        }
        _ = try d.ready()
        var hashes: [String] = []
        let end = MonotonicClock.seconds() + 30
        while MonotonicClock.seconds() < end {
            switch d.player.nextFrame() {
            case .show(let f): hashes.append("\(f.pts): \(hash(f.frame.raw))")
            case .finished: return hashes
            case .wait, .idle: usleep(2000)
            }
        }
        return hashes
    }

    static func hash(_ f: UnsafeMutablePointer<AVFrame>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let p = f.pointee
        let planes = [(p.data.0, p.linesize.0, 1), (p.data.1, p.linesize.1, 2), (p.data.2, p.linesize.2, 2)]
        for (data, line, sub) in planes {
            guard let data else { continue }
            let w = (Int(p.width) + sub - 1) / sub, rows = (Int(p.height) + sub - 1) / sub
            for y in 0..<rows {
                for x in 0..<w {
                    h = (h ^ UInt64(data[y * Int(line) + x])) &* 0x100_0000_01b3
                }
            }
        }
        return h
    }

    /// SVT-AV1's defaults in WebM: decoded by dav1d, which names the threads it starts.
    static func av1Defaults() throws -> String {
        try Fixtures.make("av1-defaults-320x180.webm", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "1",
                                                        "-c:v", "libsvtav1"])
    }

    @Test(arguments: ["x264", "vp9", "av1"])
    func aWorkerShowsExactlyThePicturesDecodingHereWould(_ codec: String) throws {
        let path = codec == "x264" ? try VideoSandboxTests.x264Defaults()
            : codec == "vp9" ? try VideoSandboxTests.vp9Defaults() : try VideoSandboxTests.av1Defaults()
        let before = DecodeWorkers.shared.videosDecoded
        let sandboxed = try VideoSandboxTests.pictures(path, sandbox: .automatic)
        #expect(DecodeWorkers.shared.videosDecoded == before + 1, "the video was not decoded by a worker")
        let here = try VideoSandboxTests.pictures(path, sandbox: .off)
        #expect(sandboxed.count == (codec == "x264" ? 60 : 30))
        #expect(sandboxed == here)
    }

    /// Pictures shared with a worker are unmapped, and their descriptors closed, when the
    /// video ends: a day of playing does not pile them up.
    @Test func nothingOfAFinishedVideoStaysMapped() throws {
        let path = try VideoSandboxTests.x264Defaults()
        func mapped() -> Int {
            // Read to its end: procfs files report no size, and a one-page read would cut them.
            let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data()
            let maps = String(decoding: data, as: UTF8.self)
            return maps.split(separator: "\n").filter { $0.contains("mediaview-frame") || $0.contains("mediaview-packets") }.count
        }
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        let threads = ProcSelf.threads
        for _ in 0..<3 {
            let d = PlayerDriver(path) { $0.untimed = true }
            _ = try d.ready()
            var sharedWhilePlaying = false
            let played = d.play(limit: 20) { shown in
                if shown.count == 10 { sharedWhilePlaying = mapped() > 0 }
                return false
            }
            #expect(played.finished && played.frames.count == 60)
            #expect(sharedWhilePlaying, "the pictures did not come through shared memory")
            d.player.close()
        }
        #expect(mapped() == 0)
        // The pool keeps one video worker ready for the next video; its channel is the one fd more.
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count <= fds + 1)
        #expect(ProcSelf.threads <= threads + 1)
    }

    /// The video worker gets the same confinement as the picture workers.
    @Test func theVideoWorkerIsConfined() throws {
        let pool = DecodeWorkers(timeout: 2, testing: true)
        defer { pool.stopAll() }
        SandboxTests.expectConfined(pool, .media)
    }

    /// A worker killed from outside mid-play ends its video with one line; the next video
    /// plays from a fresh worker.
    @Test func aKilledVideoWorkerEndsItsVideoInOneLine() throws {
        let path = try VideoSandboxTests.x264Defaults()
        let d = PlayerDriver(path) { $0.sandbox = .automatic }
        _ = try d.ready()
        let first = d.play(limit: 10) { $0.count >= 5 }
        #expect(first.frames.count == 5)
        let workers = try Run.process("pgrep", ["-P", "\(getpid())", "-f", "mediaview-worker media"], timeout: 5)
        let pids = workers.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(!pids.isEmpty)
        for pid in pids { kill(pid, SIGKILL) }
        let rest = d.play(limit: 10) { _ in false }
        #expect(rest.finished)
        #expect(rest.frames.count < 55, "the video played on without its decoder")
        let stopped = try #require(d.player.decoderStopped)
        #expect(stopped.message == "\(URL(fileURLWithPath: path).lastPathComponent): the decoder stopped: killed (SIGKILL)")
        d.player.close()
        let next = PlayerDriver(path) { $0.untimed = true }
        _ = try next.ready()
        #expect(next.play(limit: 20).frames.count == 60)
        #expect(next.player.decoderStopped == nil)
    }
}

/// What a worker answers is not trusted: a picture message whose planes reach outside its
/// slot, or a slot that could shrink under the viewer, is refused before a byte is read.
@Suite struct VideoAnswerChecks {
    /// A slot as a worker makes one: a memfd of `size` bytes, sealed against shrinking.
    static func slot(_ size: Int, sealed: Bool = true) throws -> Int32 {
        let fd = sbx_memfd("test-slot")
        try #require(fd >= 0 && ftruncate(fd, off_t(size)) == 0)
        if sealed { #expect(fcntl(fd, addSeals, sealShrink | sealGrow) == 0) }
        return fd
    }

    // F_ADD_SEALS, F_SEAL_SHRINK and F_SEAL_GROW, which Glibc's module does not export.
    static let addSeals: Int32 = 1033, sealShrink: Int32 = 2, sealGrow: Int32 = 4

    /// A 64x48 YUV 4:2:0 picture message with its planes where `planes` says.
    static func message(width: Int64 = 64, height: Int64 = 48, format: AVPixelFormat = AV_PIX_FMT_YUV420P,
                        planes: [(offset: Int64, line: Int64)]) -> WorkerMessage {
        var numbers: [Int64] = [1, 1, Int64(format.rawValue), width, height]
        for i in 0..<4 { numbers.append(i < planes.count ? planes[i].offset << 24 | planes[i].line : 0) }
        numbers += [0, 1, 0, StreamOpening.pack(AVRational(num: 1, den: 1)), 1, 0]
        return WorkerMessage(kind: .videoFrame, numbers: numbers)
    }

    static let good: [(offset: Int64, line: Int64)] = [(0, 64), (3072, 32), (3840, 32)]

    @Test func aPictureInsideItsSlotIsShown() throws {
        let fd = try VideoAnswerChecks.slot(4608)
        defer { close(fd) }
        let slot = try #require(FrameSlot(fd: fd))
        let released = Locked<[Int64]>([])
        var frame = VideoFrameMessage.frame(VideoAnswerChecks.message(planes: VideoAnswerChecks.good), slot: slot,
                                            release: FrameRelease(number: 7, slot: slot, released: released))
        #expect(frame?.raw.pointee.width == 64 && frame?.raw.pointee.linesize.1 == 32)
        frame = nil
        #expect(released.withLock { $0 } == [7], "letting the picture go tells the worker its number")
    }

    @Test(arguments: [
        ("a plane past the end", [(0, 64), (3072, 32), (4000, 32)], AV_PIX_FMT_YUV420P, Int64(64)),
        ("lines shorter than a row", [(0, 32), (3072, 32), (3840, 32)], AV_PIX_FMT_YUV420P, Int64(64)),
        ("a negative offset", [(-64, 64), (3072, 32), (3840, 32)], AV_PIX_FMT_YUV420P, Int64(64)),
        ("wider than its lines", VideoAnswerChecks.good, AV_PIX_FMT_YUV420P, Int64(65_536 * 2)),
        ("a hardware format", VideoAnswerChecks.good, AV_PIX_FMT_VAAPI, Int64(64)),
        ("a format that does not exist", VideoAnswerChecks.good, AVPixelFormat(rawValue: 9999), Int64(64)),
    ] as [(String, [(offset: Int64, line: Int64)], AVPixelFormat, Int64)])
    func aPictureReachingOutsideItsSlotIsRefused(_ why: String, _ planes: [(offset: Int64, line: Int64)],
                                                  _ format: AVPixelFormat, _ width: Int64) throws {
        let fd = try VideoAnswerChecks.slot(4608)
        defer { close(fd) }
        let slot = try #require(FrameSlot(fd: fd))
        let released = Locked<[Int64]>([])
        let m = VideoAnswerChecks.message(width: width, format: format, planes: planes)
        #expect(VideoFrameMessage.frame(m, slot: slot, release: FrameRelease(number: 1, slot: slot, released: released)) == nil, "\(why)")
        #expect(released.withLock { $0 }.isEmpty)
    }

    @Test func aSlotThatCouldShrinkIsRefused() throws {
        let fd = try VideoAnswerChecks.slot(4608, sealed: false)
        defer { close(fd) }
        #expect(FrameSlot(fd: fd) == nil)
        let empty = sbx_memfd("test-empty")
        defer { close(empty) }
        _ = fcntl(empty, VideoAnswerChecks.addSeals, VideoAnswerChecks.sealShrink)
        #expect(FrameSlot(fd: empty) == nil)
    }
}

extension VideoSandboxTests {
    /// A media worker costs each video and song little memory for its libraries: it is
    /// forked from the zygote, which bound them once, and writes to none of their pages. A
    /// worker started as a program of its own relocated its codec libraries itself, about
    /// 3.4 MB of private pages.
    @Test func aMediaWorkerSharesItsLibrariesWithTheZygote() throws {
        let pool = DecodeWorkers(timeout: 2, testing: true)
        defer { pool.stopAll() }
        #expect(pool.confinement(.media)?.missing == [])
        let pid = try #require(pool.idlePIDs.first)
        // Read to its end: procfs files report no size, and a one-page read would cut them.
        let zygote = try Run.process("pgrep", ["-P", "\(getpid())", "-f", "mediaview-worker zygote"], timeout: 5)
        guard sbx_sanitized() == 0 else {
            // The sanitizer builds start each worker as a program (a forked one could not
            // enter a user namespace beside ThreadSanitizer's thread): there is no zygote.
            #expect(zygote.stdout.isEmpty, "a zygote in a sanitizer build")
            return
        }
        #expect(!zygote.stdout.isEmpty, "no zygote beside the worker")
        let data = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")).readDataToEndOfFile()
        let smaps = String(decoding: data, as: UTF8.self)
        #expect(smaps.contains("libavcodec.so"))
        var inLibrary = false
        var privateKiB = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), range.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inLibrary = fields.count >= 6 && fields[5].contains(".so")
            } else if inLibrary, fields.first == "Private_Dirty:", fields.count > 1 {
                privateKiB += Int(fields[1]) ?? 0
            }
        }
        #expect(privateKiB < 1024, "a media worker holds \(privateKiB) KiB of its libraries' pages as its own")
    }
}

extension VideoAnswerChecks {
    /// Sound as a worker answers it: 1152 planar float samples of 2 channels, the second
    /// plane `stride` bytes after the first.
    static func sound(channels: Int64 = 2, samples: Int64 = 1152, rate: Int64 = 48000, offset: Int64 = 0,
                      stride: Int64 = 4672) -> WorkerMessage {
        WorkerMessage(kind: .soundFrame,
                      numbers: [3, 1, Int64(AV_SAMPLE_FMT_FLTP.rawValue), samples, rate, channels, 0, offset, stride, 0, 1152, 0])
    }

    @Test func soundInsideItsSlotIsPlayed() throws {
        let fd = try VideoAnswerChecks.slot(9344)
        defer { close(fd) }
        let slot = try #require(FrameSlot(fd: fd))
        let released = Locked<[Int64]>([])
        var frame = SoundFrameMessage.frame(VideoAnswerChecks.sound(), slot: slot, release: FrameRelease(number: 3, slot: slot, released: released))
        #expect(frame?.raw.pointee.nb_samples == 1152 && frame?.raw.pointee.ch_layout.nb_channels == 2)
        #expect(frame?.raw.pointee.data.1 == slot.base + 4672)
        frame = nil
        #expect(released.withLock { $0 } == [3])
    }

    /// Each: why, channels, samples, rate, offset, stride.
    @Test(arguments: [
        ("the second plane past the end", 2, 1152, 48000, 0, 6000),
        ("planes overlapping", 2, 1152, 48000, 0, 100),
        ("more channels than planes an AVFrame has", 9, 1152, 48000, 0, 4672),
        ("no samples", 2, 0, 48000, 0, 4672),
        ("a negative offset", 2, 1152, 48000, -8, 4672),
        ("a rate of zero", 2, 1152, 0, 0, 4672),
    ] as [(String, Int64, Int64, Int64, Int64, Int64)])
    func soundReachingOutsideItsSlotIsRefused(_ why: String, _ channels: Int64, _ samples: Int64, _ rate: Int64,
                                              _ offset: Int64, _ stride: Int64) throws {
        let fd = try VideoAnswerChecks.slot(9344)
        defer { close(fd) }
        let slot = try #require(FrameSlot(fd: fd))
        let released = Locked<[Int64]>([])
        let m = VideoAnswerChecks.sound(channels: channels, samples: samples, rate: rate, offset: offset, stride: stride)
        #expect(SoundFrameMessage.frame(m, slot: slot, release: FrameRelease(number: 1, slot: slot, released: released)) == nil, "\(why)")
    }
}
