import CFFmpeg
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

    @Test(arguments: ["x264", "vp9"])
    func aWorkerShowsExactlyThePicturesDecodingHereWould(_ codec: String) throws {
        let path = codec == "x264" ? try VideoSandboxTests.x264Defaults() : try VideoSandboxTests.vp9Defaults()
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
            let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
            return maps.split(separator: "\n").filter { $0.contains("mediaview-frame") || $0.contains("mediaview-packets") }.count
        }
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        let threads = ProcSelf.threads
        for _ in 0..<3 {
            let d = PlayerDriver(path) { $0.untimed = true }
            _ = try d.ready()
            let played = d.play(limit: 20)
            #expect(played.finished && played.frames.count == 60)
            #expect(mapped() > 0, "the pictures did not come through shared memory")
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
        #expect(pool.confinement(.video)?.missing == [])
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        #expect(SandboxTests.refused(pool.probe("open:/etc/passwd", kind: .video)))
        #expect(SandboxTests.refused(pool.probe("open:" + home, kind: .video)))
        #expect(pool.probe("tcp:9", kind: .video) == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("exec:/bin/true", kind: .video) == .stopped("killed by the sandbox (SIGSYS)"))
    }

    /// A worker killed from outside mid-play ends its video with one line; the next video
    /// plays from a fresh worker.
    @Test func aKilledVideoWorkerEndsItsVideoInOneLine() throws {
        let path = try VideoSandboxTests.x264Defaults()
        let d = PlayerDriver(path) { $0.sandbox = .automatic }
        _ = try d.ready()
        let first = d.play(limit: 10) { $0.count >= 5 }
        #expect(first.frames.count == 5)
        let workers = try Run.process("pgrep", ["-P", "\(getpid())", "-f", "mediaview-worker video"], timeout: 5)
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
