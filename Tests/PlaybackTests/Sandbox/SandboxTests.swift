import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// The decode worker as a user's safety depends on it: confined (every forbidden thing
/// fails inside it), recovering (a killed, aborted or hung worker fails one item and is
/// replaced), and showing the same pixels as the viewer decoding in its own process.
@Suite(.serialized) struct SandboxTests {
    /// A pool whose workers take probes; hangs are cut after 2 s.
    let pool = DecodeWorkers(timeout: 2, testing: true)

    /// Expects a worker of `kind` to have every confinement step, and to be refused the
    /// user's files, a TCP connection and `execve`.
    static func expectConfined(_ pool: DecodeWorkers, _ kind: WorkerKind, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(pool.confinement(kind)?.missing == [], sourceLocation: sourceLocation)
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        #expect(refused(pool.probe("open:/etc/passwd", kind: kind)), sourceLocation: sourceLocation)
        #expect(refused(pool.probe("open:" + home, kind: kind)), sourceLocation: sourceLocation)
        #expect(pool.probe("tcp:9", kind: kind) == .stopped("killed by the sandbox (SIGSYS)"), sourceLocation: sourceLocation)
        #expect(pool.probe("exec:/bin/true", kind: kind) == .stopped("killed by the sandbox (SIGSYS)"), sourceLocation: sourceLocation)
    }

    /// What a refused probe may come to: an errno inside the worker, or its death by seccomp.
    static func refused(_ o: DecodeWorkers.ProbeOutcome) -> Bool {
        switch o {
        case .answered(let line): return line.hasPrefix("refused: EACCES") || line.hasPrefix("refused: EPERM")
        case .stopped(let why): return why == "killed by the sandbox (SIGSYS)"
        }
    }

    @Test func workerAppliesEveryStepOnThisKernel() throws {
        defer { pool.stopAll() }
        let c = try #require(pool.confinement())
        #expect(c.missing == [])
    }

    @Test func filesAreRefusedWithEACCES() throws {
        defer { pool.stopAll() }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        #expect(pool.probe("open:/etc/passwd") == .answered("refused: EACCES"))
        #expect(pool.probe("open:" + home) == .answered("refused: EACCES"))
    }

    @Test func networkDisplayAndBusKillTheWorker() throws {
        defer { pool.stopAll() }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) } }
        #expect(listen(listener, 1) == 0)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
        let port = UInt16(bigEndian: a.sin_port)
        let display = try TestEnvironment.display.split(separator: ":").last.map { $0.split(separator: ".")[0] } ?? "0"
        let bus = try TestEnvironment.require("DBUS_SESSION_BUS_ADDRESS")
        let busPath = bus.split(separator: ",").first { $0.contains("path=") }.map { String($0.split(separator: "=")[1]) }
        #expect(pool.probe("tcp:\(port)") == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("unix:/tmp/.X11-unix/X\(display)") == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("unix:" + (busPath ?? "/run/dbus/system_bus_socket")) == .stopped("killed by the sandbox (SIGSYS)"))
        #expect(pool.probe("exec:/bin/true") == .stopped("killed by the sandbox (SIGSYS)"))
    }

    @Test func jpegAndPNGGiveTheSamePixelsAsInProcess() throws {
        defer { pool.stopAll() }
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        let jpeg = try JPEGStillTests.quadrantJPEG("yuvj420p")
        for path in [png, jpeg] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var o = PlayerOptions()
            o.targetSize = (100, 80)
            let worker = try pool.decodePixels(bytes, name: "still", options: o)
            let here = try StillWork.decode(bytes, name: "still", target: (100, 80), maxPixels: o.source.maxPixels,
                                            displayProfile: nil).pixels
            #expect(worker == here)
            #expect(worker.width > 0 && worker.bytes.count == worker.width * worker.height * 4)
        }
    }

    /// A worker killed, aborted or hung while a picture waits: that item fails with one
    /// line, the next picture decodes, and no fd or process is left behind.
    @Test func stoppedWorkersFailOneItemAndAreReplaced() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try JPEGStillTests.quadrantPNG(width: 320, height: 240))))
        let fdsBefore = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        let good = try pool.decodePixels(png, name: "still.png", options: PlayerOptions())
        #expect(pool.probe("abort") == .stopped("crashed (SIGABRT)"))
        #expect(try pool.decodePixels(png, name: "still.png", options: PlayerOptions()) == good)
        // The hang is cut at the pool's timeout (2 s here), and a replacement decodes the next
        // picture within 3 s of that: the margins leave room for a busy machine.
        let started = Date()
        #expect(pool.probe("hang") == .stopped("took too long"))
        #expect(Date().timeIntervalSince(started) < pool.timeout + 2)
        let cut = Date()
        #expect(try pool.decodePixels(png, name: "still.png", options: PlayerOptions()) == good)
        #expect(Date().timeIntervalSince(cut) < 3)
        // SIGKILL from outside while the worker is busy.
        let victim = try #require(pool.idlePIDs.first)
        let killer = Thread { usleep(300_000); kill(victim, SIGKILL) }
        killer.start()
        #expect(pool.probe("hang", timeout: 5) == .stopped("killed (SIGKILL)"))
        let replaced = Date()
        #expect(try pool.decodePixels(png, name: "still.png", options: PlayerOptions()) == good)
        #expect(Date().timeIntervalSince(replaced) < 3)
        let live = pool.idlePIDs
        pool.stopAll()
        for pid in live + [victim] { #expect(kill(pid, 0) != 0) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count == fdsBefore)
    }

    @Test func aCutJPEGFailsWithTheTruncationLine() throws {
        defer { pool.stopAll() }
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try JPEGStillTests.quadrantJPEG("yuvj420p"))))
        do {
            _ = try pool.decodePixels(Array(data.prefix(data.count / 3)), name: "cut.jpg", options: PlayerOptions())
            Issue.record("a cut JPEG decoded")
        } catch {
            #expect(error.message.hasPrefix("cut.jpg: truncated JPEG") && !error.message.contains("\n"), "\(error.message)")
        }
    }

    @Test func aBrokenPictureFailsWithOneLineAndTheWorkerStays() throws {
        defer { pool.stopAll() }
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]
        #expect(throws: AVError.self) { try pool.decodePixels(bytes, name: "broken.jpg", options: PlayerOptions()) }
        // libjpeg cannot read it, so the JPEG worker handed it to a photos worker, whose
        // FFmpeg could not either; both stay for the next picture.
        #expect(pool.idle.withLock { $0.map(\.kind.rawValue).sorted() } == ["jpegs", "photos"])
    }

    /// A JPEG libjpeg declines (CMYK here) is handed back by the JPEG worker, which has no
    /// FFmpeg, and shown by a photos worker: blue, as in the player.
    @Test func aCMYKJPEGIsShownByAPhotosWorker() throws {
        defer { pool.stopAll() }
        let path = try Fixtures.tool("cmyk-blue-64x48.jpg", "convert") { out in
            ["-size", "64x48", "xc:blue", "-colorspace", "CMYK", "-quality", "95", "JPEG:" + out]
        }
        let pixels = try pool.decodePixels([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: "cmyk.jpg",
                                           options: PlayerOptions())
        #expect((pixels.width, pixels.height) == (64, 48))
        let i = (24 * pixels.width + 32) * 4
        let (r, g, b) = pixels.format == .rgba ? (pixels.bytes[i], pixels.bytes[i + 1], pixels.bytes[i + 2])
            : (pixels.bytes[i + 2], pixels.bytes[i + 1], pixels.bytes[i])
        #expect(b > 200 && r < 60 && g < 60, "not blue: \(r),\(g),\(b)")
        #expect(pool.idle.withLock { $0.map(\.kind.rawValue).sorted() } == ["jpegs", "photos"])
    }

    /// The JPEG worker is confined as every worker is, and takes nothing but stills: a
    /// request it has no library for is refused in one line, and it goes on.
    @Test func theJPEGWorkerIsConfinedAndTakesOnlyStills() throws {
        defer { pool.stopAll() }
        Self.expectConfined(pool, .jpegs)
        let worker = try #require(try pool.confinedWorker(.jpegs, name: "clip", options: PlayerOptions()))
        defer { worker.stop() }
        guard case .answer(let m) = worker.exchange(WorkerMessage(kind: .thumbnail, text: "clip.mp4"), timeout: 5) else {
            Issue.record("the JPEG worker did not answer")
            return
        }
        #expect(m.kind == .failure && m.text == "the decoder was asked for something it does not do")
        #expect(worker.isAlive)
    }
}
