import CFFmpeg
import Glibc
@testable import MediaCore
@testable import Playback
import Testing

/// The threading primitives the pipeline stands on, and how many decoder threads it asks
/// libavcodec for.
@Suite("Threading")
struct ThreadingTests {
    @Test("a pipeline thread shows its name, cut to Linux's 15 bytes, as top -H shows it")
    func threadNames() {
        let seen = Condition()
        nonisolated(unsafe) var name = ""
        NamedThread.start(name: "mv-a-rather-long-name") {
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            var buf = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buf, 64)
            close(fd)
            seen.withLock { name = String(decoding: buf[..<max(0, n)], as: UTF8.self) }
            seen.lock(); seen.broadcast(); seen.unlock()
        }
        seen.lock()
        while name.isEmpty { if !seen.wait(seconds: 5) { break } }
        let got = name
        seen.unlock()
        #expect(got == "mv-a-rather-lon\n")
    }

    @Test("a timed wait with nobody signalling returns false after about its time")
    func timedWaitTimesOut() {
        let c = Condition()
        let t0 = MonotonicClock.seconds()
        c.lock()
        let signalled = c.wait(seconds: 0.2)
        c.unlock()
        let waited = MonotonicClock.seconds() - t0
        #expect(!signalled)
        #expect(waited >= 0.19 && waited < 2)
    }

    @Test("a broadcast from another thread ends a long wait early")
    func signalWakes() {
        let c = Condition()
        nonisolated(unsafe) var ready = false
        NamedThread.start(name: "mv-signaller") {
            usleep(50_000)
            c.withLock { ready = true }
            c.lock(); c.broadcast(); c.unlock()
        }
        let t0 = MonotonicClock.seconds()
        c.lock()
        while !ready { if !c.wait(seconds: 10) { break } }
        let woke = ready
        c.unlock()
        #expect(woke)
        #expect(MonotonicClock.seconds() - t0 < 5)
    }

    @Test("real-time playback asks for as few decoder threads as the pixel rate needs",
          arguments: [
              (1280, 720, 30.0, AV_CODEC_ID_H264, 1),
              (640, 360, 60.0, AV_CODEC_ID_H264, 1),
              (1920, 1080, 30.0, AV_CODEC_ID_H264, 2),
              (1920, 1080, 60.0, AV_CODEC_ID_H264, 0),
              (3840, 2160, 30.0, AV_CODEC_ID_H264, 0),
              (1280, 720, 30.0, AV_CODEC_ID_HEVC, 2),
              (1920, 1080, 30.0, AV_CODEC_ID_VP9, 0),
              // An unknown or absurd rate counts as 30 frames a second.
              (1280, 720, 0.0, AV_CODEC_ID_H264, 1),
              (1920, 1080, 90_000.0, AV_CODEC_ID_H264, 2),
          ])
    func decoderThreads(width: Int, height: Int, fps: Double, codec: AVCodecID, expected: Int) {
        #expect(Decoder.realTimeThreads(width: width, height: height, fps: fps, codec: codec) == expected)
    }

    @Test("a thumbnail-sized picture is scaled on the calling thread alone")
    func scalerThreads() {
        #expect(Scaler.threads(forOutput: 640 * 360) == 1)
        #expect(Scaler.threads(forOutput: 1920 * 1080) == Scaler.threads)
    }
}
