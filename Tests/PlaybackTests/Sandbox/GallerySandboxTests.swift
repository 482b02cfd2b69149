import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import ThumbnailCache

/// A gallery's thumbnails made in the confined workers: the same pictures as the viewer's
/// own decode, every one of them from a worker (none decoded in this process), cached ones
/// read back through a worker too, and a worker killed mid-folder failing only its file.
@Suite(.serialized) struct GallerySandboxTests {
    init() { FFmpegLog.quiet }

    /// A camera photo (its embedded thumbnail serves), a photo without one, a PNG, a GIF,
    /// an x264 video, a sideways phone photo and an SVG with text (a drawings worker's):
    /// every way a thumbnail is made.
    static func files() throws -> [String] {
        [
            try Fixtures.cameraJPEG(),
            try Fixtures.make("gsbx-photo.jpg", ["-f", "lavfi", "-i", "testsrc2=s=1200x800", "-frames:v", "1"]),
            try JPEGStillTests.quadrantPNG(width: 320, height: 240),
            try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50),
            try Fixtures.colourSeconds(),
            try JPEGOrientationTests.photo(orientation: 6),
            try Fixtures.bytes("gsbx-text.svg", Data(StillFormatSandboxTests.svgWithText.utf8)),
        ]
    }

    /// The thumbnails of `paths` made by a gallery worker in `mode`, by path, with its events.
    private func make(_ paths: [String], mode: SandboxMode, store: ThumbnailStore? = nil, threads: Int = 2)
        -> (worker: ThumbnailWorker, events: [ThumbnailWorker.Event]) {
        let news = ThumbnailNews()
        let worker = ThumbnailWorker(store: store, size: .normal, threads: threads, sandbox: mode, wake: news.wake)
        worker.want(paths)
        return (worker, news.events(of: worker, count: paths.count))
    }

    @Test("A gallery opened over a shown photo takes the warm worker that decoded it, and gives it back when closed")
    func aGalleryBorrowsTheWarmWorkerOfThePictures() throws {
        let pool = DecodeWorkers.shared
        pool.stopAll()
        defer { pool.stopAll() }
        pool.prestart(.photos)
        let warm = pool.idlePIDs
        #expect(warm.count == 1, "the pictures' pool holds one warm worker")
        let (worker, events) = make([try Fixtures.cameraJPEG()], mode: .automatic, threads: 1)
        #expect(events.count == 1 && events.first?.source == .made, "\(events.map { ($0.path, $0.reason) })")
        #expect(worker.thumbnailsFromWorkers == 1)
        #expect(worker.workerPIDs == warm, "the thumbnail came from a new worker, not the warm one")
        #expect(pool.idlePIDs.isEmpty, "the warm worker is the gallery's while it shows")
        worker.close()
        #expect(pool.idlePIDs == warm, "closing the gallery gives the warm worker back")
        #expect(kill(warm[0], 0) == 0, "the worker given back still runs")
    }

    @Test("JPEG, PNG, GIF, SVG and video thumbnails from the workers are the viewer's own, to the byte, all decoded there")
    func workerThumbnailsEqualTheInProcessOnes() throws {
        let paths = try Self.files()
        let (worker, events) = make(paths, mode: .automatic)
        defer { worker.close() }
        #expect(events.count == paths.count)
        #expect(events.allSatisfy { $0.source == .made && $0.reason == nil }, "\(events.map { ($0.path, $0.reason) })")
        // Every picture came from a worker: one made here would leave the count short.
        #expect(worker.thumbnailsFromWorkers == paths.count)
        #expect(!worker.workerPIDs.isEmpty && !worker.workerPIDs.contains(getpid()))
        for path in paths {
            guard case .picture(let sandboxed, let length)? = worker.outcome(for: path) else {
                Issue.record("\(path): no thumbnail")
                continue
            }
            let here = try ThumbnailMaker.thumbnail(path: path, size: 128)
            #expect(sandboxed.width == here.picture.width && sandboxed.height == here.picture.height, "\(path)")
            #expect(sandboxed.pixels == here.picture.pixels, "\(path): the worker's thumbnail differs")
            #expect(length == here.length, "\(path)")
        }
        let video = try Fixtures.colourSeconds()
        guard case .picture(_, let length)? = worker.outcome(for: video) else { return }
        #expect(abs((length ?? 0) - 6) < 0.1, "the video's length: \(String(describing: length))")
    }

    @Test("With the sandbox off the thumbnails are made in the viewer, none by a worker")
    func sandboxOffMakesThemInProcess() throws {
        let paths = try Self.files()
        let (worker, events) = make(paths, mode: .off)
        defer { worker.close() }
        #expect(events.count == paths.count && events.allSatisfy { $0.source == .made })
        #expect(worker.thumbnailsFromWorkers == 0 && worker.workerPIDs.isEmpty)
    }

    @Test("A cached thumbnail is read back through a worker: a second gallery shows it from the cache, decoded there")
    func cachedThumbnailsAreDecodedInTheWorker() throws {
        let dir = NSTemporaryDirectory() + "gallery-sandbox-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ThumbnailStore(directory: dir + "/cache", application: "mediaview-test")
        let paths = try Self.files()
        let first = make(paths, mode: .automatic, store: store)
        first.worker.close()
        #expect(first.events.allSatisfy { $0.source == .made })
        let (again, events) = make(paths, mode: .automatic, store: store)
        defer { again.close() }
        #expect(events.count == paths.count && events.allSatisfy { $0.source == .cache }, "\(events.map(\.source))")
        #expect(again.thumbnailsFromWorkers == paths.count)
        for path in paths {
            guard case .picture(let cached, _)? = again.outcome(for: path),
                  case .picture(let made, _)? = first.worker.outcome(for: path) else {
                Issue.record("\(path): no thumbnail")
                continue
            }
            #expect(cached.width == made.width && cached.height == made.height, "\(path)")
        }
    }

    @Test("A worker killed in the middle of a folder fails only the file it was on; the rest get thumbnails")
    func aKilledWorkerFailsOnlyItsFile() throws {
        let photo = try Fixtures.make("gsbx-kill.jpg", ["-f", "lavfi", "-i", "testsrc2=s=3000x2000", "-frames:v", "1"])
        let dir = NSTemporaryDirectory() + "gallery-kill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = try (0..<12).map { i in
            let p = dir + "/photo-\(i).jpg"
            try FileManager.default.copyItem(atPath: photo, toPath: p)
            return p
        }
        let news = ThumbnailNews()
        let worker = ThumbnailWorker(store: nil, size: .normal, threads: 1, sandbox: .automatic, wake: news.wake)
        defer { worker.close() }
        worker.want(paths)
        var events = news.events(of: worker, count: 1)
        let victim = try #require(worker.workerPIDs.first)
        #expect(kill(victim, SIGKILL) == 0)
        events += news.events(of: worker, count: paths.count - events.count)
        #expect(events.count == paths.count)
        let failed = events.filter { $0.source == .failed }
        #expect(failed.count == 1, "\(failed.map { ($0.path, $0.reason) })")
        #expect(failed.allSatisfy { ($0.reason ?? "").hasSuffix("the decoder stopped: killed (SIGKILL)") }, "\(failed.map(\.reason))")
        #expect(failed.allSatisfy { !($0.reason ?? "").contains("\n") })
        #expect(events.filter { $0.source == .made }.count == paths.count - 1)
        // A fresh worker took the rest.
        #expect(worker.workerPIDs.count == 1 && worker.workerPIDs.first != victim)
        #expect(worker.thumbnailsFromWorkers == paths.count - 1)
    }

    @Test("Strict with no worker to be had refuses each thumbnail in one line; auto makes it here, the same picture")
    func strictRefusesAndAutoFallsBack() throws {
        let png = try JPEGStillTests.quadrantPNG(width: 320, height: 240)
        let missing = "/nonexistent/mediaview-worker"
        for strict in [ThumbnailSandbox(mode: .strict, program: missing), ThumbnailSandbox(mode: .strict, program: nil)] {
            for _ in 0..<2 {
                guard case .broken(let why) = strict.thumbnail(path: png, size: 128, maxPixels: 100_000_000) else {
                    Issue.record("strict made a thumbnail without a sandbox")
                    continue
                }
                #expect(why.hasPrefix("jpeg-quad-320x240.png: ") && why.hasSuffix("(--sandbox=strict)") && !why.contains("\n"), "\(why)")
            }
            #expect(strict.cached(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: png))), name: "x.png", size: 128) == nil)
            #expect(strict.decoded.load(ordering: .relaxed) == 0 && strict.pids.withLock { $0.isEmpty })
        }
        let auto = ThumbnailSandbox(mode: .automatic, program: missing)
        guard case .picture(let made) = auto.thumbnail(path: png, size: 128, maxPixels: 100_000_000) else {
            Issue.record("auto made no thumbnail without a worker")
            return
        }
        #expect(made.picture.pixels == (try ThumbnailMaker.thumbnail(path: png, size: 128)).picture.pixels)
        #expect(auto.decoded.load(ordering: .relaxed) == 0 && auto.pids.withLock { $0.isEmpty })
    }
}
