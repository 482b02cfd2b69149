import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Track previews of a local video made in a confined worker of their own: the same
/// pictures as the viewer's own decode, the worker under the syscall filter, a newer hover
/// answered without killing it, and a worker killed mid-session stopping only the previews.
@Suite(.serialized) struct PreviewSandboxTests {
    init() { FFmpegLog.quiet }

    /// The picture at `t` once it is ready (nil after `timeout` seconds or when previews
    /// became unavailable).
    func picture(_ p: TrackPreviewer, at t: Double, timeout: Double = 10) -> VideoFrame? {
        p.request(at: t)
        let end = Date().addingTimeInterval(timeout)
        while Date() < end, !p.isUnavailable {
            if let f = p.picture(at: t) { return f }
            usleep(2_000)
        }
        return nil
    }

    /// Whether process `pid` is gone (stopped and reaped), waiting up to `timeout` seconds.
    func gone(_ pid: Int32, timeout: Double = 3) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            usleep(5_000)
        }
        return false
    }

    @Test("A local video's previews come from a confined worker, byte for byte the pictures decoded here")
    func sameAsInProcess() throws {
        let clips = [try Fixtures.colourSeconds(),
                     try Fixtures.make("psbx-x264-default.mp4", ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=12",
                                                                 "-c:v", "libx264", "-pix_fmt", "yuv420p"])]
        for clip in clips {
            let boxed = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), sandbox: .automatic, wake: {})
            let here = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), sandbox: .off, wake: {})
            defer { boxed.close(); here.close() }
            for t in [0.5, 2.5, 4.6] {
                let asked = Date()
                let a = try #require(picture(boxed, at: t), "\(clip): no preview from the worker at \(t) s")
                let boxedMs = Date().timeIntervalSince(asked) * 1000
                let b = try #require(picture(here, at: t), "\(clip): no preview made here at \(t) s")
                let hereMs = Date().timeIntervalSince(asked) * 1000 - boxedMs
                // The first includes the worker's start, or the opening of the file here.
                print("track preview \(clip.split(separator: "/").last ?? "") at \(t) s: worker \(Int(boxedMs)) ms, in-process \(Int(hereMs)) ms")
                #expect(a.pts == b.pts && a.rotation == b.rotation, "\(clip) at \(t) s")
                #expect(PreviewFile.encode(a) == PreviewFile.encode(b), "\(clip) at \(t) s: the pictures differ")
            }
            let pid = try #require(boxed.workerPID, "\(clip): the previews were not made in a worker")
            #expect(here.workerPID == nil)
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"), "the previews' worker is not confined")
            boxed.close()
            #expect(gone(pid), "the previews' worker outlived its previewer")
        }
    }

    @Test("Hovering on before a picture is ready asks the worker to drop it: the newest place shows, from the same worker")
    func newerHoverKeepsTheWorker() throws {
        let clip = try Fixtures.make("psbx-x264-40s.mp4", ["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=25:d=40",
                                                           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let p = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), wake: {})
        defer { p.close() }
        _ = try #require(picture(p, at: 1), "no first preview")
        let pid = try #require(p.workerPID)
        // The pointer sweeps along the track faster than pictures come.
        for t in stride(from: 2.0, to: 38, by: 1.5) { p.request(at: t) }
        let last = try #require(picture(p, at: 38.5), "the newest place got no picture")
        #expect(last.pts <= 38.55)
        #expect(p.workerPID == pid && kill(pid, 0) == 0, "the worker was replaced or killed on the way")
        #expect(!p.isUnavailable)
    }

    @Test("A worker killed mid-session stops only that video's previews, and the next video's come from a new one")
    func killedWorker() throws {
        let clip = try Fixtures.colourSeconds()
        let p = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), wake: {})
        defer { p.close() }
        _ = try #require(picture(p, at: 0.5))
        let pid = try #require(p.workerPID)
        kill(pid, SIGKILL)
        p.request(at: 3.5)
        let end = Date().addingTimeInterval(5)
        while !p.isUnavailable && Date() < end { usleep(2_000) }
        #expect(p.isUnavailable, "previews went on from a killed worker")
        #expect(p.picture(at: 0.5) != nil, "a picture already shown was lost")
        #expect(p.workerPID == nil && gone(pid), "the killed worker was not reaped")

        let next = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), wake: {})
        defer { next.close() }
        #expect(picture(next, at: 3.5) != nil)
        #expect(next.workerPID != nil && next.workerPID != pid)
    }

    @Test("A web video's previews stay in this process, reading ranges as the player does")
    func webStaysHere() throws {
        let (name, _) = try TrackPreviewerTests.servedClip()
        let p = TrackPreviewer(url: try TestEnvironment.http + "/" + name, options: SourceOptions(), wake: {})
        defer { p.close() }
        #expect(picture(p, at: 12) != nil)
        #expect(p.workerPID == nil)
    }

    @Test("Answers a subverted worker could send are refused: a picture wider than asked, a damaged one, times out of order")
    func malformedAnswers() throws {
        let clip = try Fixtures.colourSeconds()
        let here = TrackPreviewer(url: "file:" + clip, options: SourceOptions(), sandbox: .off, wake: {})
        defer { here.close() }
        let frame = try #require(picture(here, at: 0.5))
        let good = try #require(PreviewRequest.answer(frame))
        defer { close(good.fd) }
        #expect(PreviewRequest.picture(in: good, width: 160) != nil)
        #expect(PreviewRequest.picture(in: good, width: 158) == nil, "a picture wider than asked was taken")
        var bytes = try #require(PreviewFile.encode(frame))
        bytes[8] = 0xFF  // a width that is no even number of pixels
        let damaged = try #require(bytes.withUnsafeBytes { SealedBytes.make([$0], name: "test") })
        defer { close(damaged) }
        #expect(PreviewRequest.picture(in: WorkerMessage(kind: .picture, numbers: [Int64(bytes.count)], fd: damaged), width: 160) == nil)
        // A count beyond what the memfd holds.
        #expect(PreviewRequest.picture(in: WorkerMessage(kind: .picture, numbers: [Int64(bytes.count + 64)], fd: good.fd), width: 160) == nil)
        let backwards = try #require(PreviewRequest.index([3, 1, 2]))
        defer { close(backwards.fd) }
        #expect(PreviewRequest.keyframes(in: backwards) == nil)
        let fine = try #require(PreviewRequest.index([-0.08, 1, 2]))
        defer { close(fine.fd) }
        #expect(PreviewRequest.keyframes(in: fine) == [-0.08, 1, 2])
    }
}
