import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// Track previews of a local or web video made in a confined worker of their own: the same
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

    @Test("A web video's previews come from a confined worker that reads through the viewer: the same pictures as decoded here, and the worker holds no socket but its channel")
    func webInWorker() throws {
        let (name, _) = try TrackPreviewerTests.servedClip()
        let url = try TestEnvironment.http + "/" + name
        let boxed = TrackPreviewer(url: url, options: SourceOptions(), wake: {})
        let here = TrackPreviewer(url: url, options: SourceOptions(), sandbox: .off, wake: {})
        defer { boxed.close(); here.close() }
        for t in [12.0, 31.0, 49.0] {
            let a = try #require(picture(boxed, at: t), "no preview from the worker at \(t) s")
            let b = try #require(picture(here, at: t), "no preview made here at \(t) s")
            #expect(a.pts == b.pts, "at \(t) s")
            #expect(PreviewFile.encode(a) == PreviewFile.encode(b), "at \(t) s: the pictures differ")
        }
        let pid = try #require(boxed.workerPID, "the web video's previews were not made in a worker")
        #expect(here.workerPID == nil)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"), "the previews' worker is not confined")
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        let sockets = fds.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "").hasPrefix("socket:") }
        #expect(sockets == ["0"], "the worker holds sockets \(sockets), not only its channel")
    }

    @Test("A server that stalls under a web preview gives that picture up within the step's bound, and the worker is kept")
    func stalledServer() throws {
        let (name, _) = try TrackPreviewerTests.servedClip()
        // Each answer stops after 20 kB: the container's header and its index at the end
        // come whole, a keyframe (25-37 kB here) does not.
        var options = SourceOptions()
        options.networkTimeout = 5
        let p = TrackPreviewer(url: try TestEnvironment.http + "/stall/20000/" + name, options: options, wake: {})
        defer { p.close() }
        let asked = Date()
        p.request(at: 12)
        let end = Date().addingTimeInterval(20)
        while (p.isBusy || p.workerPID == nil) && !p.isUnavailable && Date() < end { usleep(5_000) }
        let waited = Date().timeIntervalSince(asked)
        #expect(!p.isBusy && !p.isUnavailable, "the stalled picture was never given up, or the previews ended")
        #expect(p.picture(at: 12) == nil, "a picture came from a server that stalled before its keyframe")
        #expect(waited >= TrackPreviewer.Work.stepTimeout && waited < 12, "given up after \(waited) s")
        let pid = try #require(p.workerPID, "a stalled read stopped the worker")
        #expect(kill(pid, 0) == 0)
    }

    @Test("The viewer answers a worker's reads within bounds: a read out of bounds is refused in one line, one past the end says the end")
    func readsWithinBounds() throws {
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let io = try #require(MemoryIO(data: data))
        defer { io.close() }
        let interrupt = Interrupt(timeout: 2)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: ChannelReads.largest)
        defer { buffer.deallocate() }
        let good = ChannelReads.answer(ChannelReads.request(offset: 99_000, count: 4096), from: io, interrupt: interrupt)
        defer { if good.fd >= 0 { close(good.fd) } }
        let n = ChannelReads.bytes(in: good, into: buffer, want: 4096)
        #expect(n == 1000 && Array(UnsafeBufferPointer(start: buffer, count: 1000)) == Array(data[99_000...]))
        let past = ChannelReads.answer(ChannelReads.request(offset: 100_000, count: 10), from: io, interrupt: interrupt)
        #expect(past.kind == .bytes && past.numbers.first == 0 && past.fd < 0)
        #expect(ChannelReads.bytes(in: past, into: buffer, want: 10) == 0)
        for (offset, count) in [(Int64(-1), 10), (0, 0), (0, ChannelReads.largest + 1), (0, -5)] {
            let refused = ChannelReads.answer(ChannelReads.request(offset: offset, count: count), from: io, interrupt: interrupt)
            #expect(refused.kind == .bytes && (refused.numbers.first ?? 0) < 0 && refused.fd < 0, "\(offset), \(count)")
            #expect(!refused.text.isEmpty && !refused.text.contains("\n"))
            #expect(ChannelReads.bytes(in: refused, into: buffer, want: 10) < 0)
        }
        // An answer claiming more than was asked, or more than its memfd holds, is refused.
        #expect(ChannelReads.bytes(in: good, into: buffer, want: 500) < 0)
        #expect(ChannelReads.bytes(in: WorkerMessage(kind: .bytes, numbers: [2000], fd: good.fd), into: buffer, want: 4096) < 0)
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
