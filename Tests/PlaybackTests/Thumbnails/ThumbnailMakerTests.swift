import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import ThumbnailCache

/// Thumbnails made from what users keep: photos scaled while decoding and turned upright,
/// a video's frame a tenth of the way in, bad files refused in one line, and the worker
/// within its memory budget.
@Suite struct ThumbnailMakerTests {
    init() { FFmpegLog.quiet }

    @Test func badFilesGiveOneLineAndSoundWithoutCoverIsNoPicture() throws {
        let garbage = try Fixtures.bytes("thumb-garbage.png", Data("not a picture".utf8))
        #expect(throws: ThumbnailMaker.Failure.self) { try ThumbnailMaker.make(path: garbage, size: 128) }
        do {
            _ = try ThumbnailMaker.make(path: "/nonexistent/x.jpg", size: 128)
            Issue.record("a missing file made a thumbnail")
        } catch {
            guard case .broken(let why) = error else { Issue.record("\(error)"); return }
            #expect(!why.contains("\n") && why.contains("x.jpg"), "\(why)")
        }
        let tone = try Fixtures.tone(440, seconds: 1)
        #expect(throws: ThumbnailMaker.Failure.noPicture) { try ThumbnailMaker.make(path: tone, size: 128) }
    }

    @Test func aBigJPEGIsScaledWhileDecodingAndFitsTheSize() throws {
        let jpg = try Fixtures.make("thumb-big.jpg", ["-f", "lavfi", "-i", "color=c=red:s=3000x2000", "-frames:v", "1"])
        let p = try ThumbnailMaker.make(path: jpg, size: 256)
        #expect(p.width == 256 && p.height == 171)
        #expect(p.pixels[0] > 200 && p.pixels[1] < 60 && p.pixels[3] == 255)
    }

    @Test func aVideoShowsAFrameATenthOfTheWayInAndAnAnimationItsFirst() throws {
        // Black for the first half second (what many videos open with), lime after it.
        let video = try Fixtures.make("thumb-black-then-lime.mp4", [
            "-f", "lavfi", "-i", "color=c=black:s=320x240:r=25:d=0.5", "-f", "lavfi", "-i", "color=c=lime:s=320x240:r=25:d=9.5",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]", "-map", "[v]",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p"])
        let v = try ThumbnailMaker.make(path: video, size: 128)
        #expect(v.width == 128 && v.height == 96)
        let mid = (v.height / 2 * v.width + v.width / 2) * 4
        #expect(v.pixels[mid] < 60 && v.pixels[mid + 1] > 200, "not the frame a tenth of the way in: \(v.pixels[mid..<(mid + 3)])")
        let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50)
        let g = try ThumbnailMaker.make(path: gif, size: 128)
        let gm = (g.height / 2 * g.width + g.width / 2) * 4
        #expect(g.pixels[gm] > 200 && g.pixels[gm + 2] < 60, "not the first frame")
        // An animated WebP, which FFmpeg here cannot decode, through libwebp.
        let webp = try Fixtures.make("thumb-anim-br.webp", [
            "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=5:d=0.2", "-f", "lavfi", "-i", "color=c=red:s=64x48:r=5:d=0.2",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1", "-c:v", "libwebp_anim", "-loop", "0", "-lossless", "1"])
        let w = try ThumbnailMaker.make(path: webp, size: 128)
        #expect(w.width == 64 && w.pixels[2] > 200 && w.pixels[0] < 60, "not the first frame of the animated WebP")
    }

    @Test func aPhotoTakenSidewaysIsTurnedUpright() throws {
        // 96x48, red left and blue right, that EXIF orientation 6 turns a quarter clockwise.
        let jpg = try JPEGOrientationTests.photo(orientation: 6)
        let p = try ThumbnailMaker.make(path: jpg, size: 128)
        #expect(p.width == 48 && p.height == 96, "\(p.width)x\(p.height)")
        let top = (10 * p.width + 24) * 4, bottom = (85 * p.width + 24) * 4
        #expect(p.pixels[top] > 200 && p.pixels[top + 2] < 60, "red is not on top")
        #expect(p.pixels[bottom + 2] > 200 && p.pixels[bottom] < 60, "blue is not below")
    }

    @Test func aVideoStoredSidewaysIsTurnedUpright() throws {
        // Stored 160x240, red over blue, tagged to be shown a quarter turned (240x160).
        let video = try RotationTests.tagged(90)
        let p = try ThumbnailMaker.make(path: video, size: 128)
        #expect(p.width == 128 && p.height == 85, "\(p.width)x\(p.height)")
        // Red on the side ffmpeg itself shows it on.
        let side = try RotationTests.ffmpegRedSide(video)
        let left = (42 * p.width + 10) * 4, right = (42 * p.width + 117) * 4
        let redLeft = p.pixels[left] > 200 && p.pixels[left + 2] < 60, redRight = p.pixels[right] > 200 && p.pixels[right + 2] < 60
        #expect(side == "left" ? redLeft && !redRight : redRight && !redLeft, "red not on the \(side)")
    }

    @Test func theWorkerHoldsNoMoreThanItsBudgetAndMakesWhatIsWantedFirst() throws {
        let dir = NSTemporaryDirectory() + "thumbworker-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let red = try Fixtures.solidImage("red", width: 160, height: 120)
        let paths = (0..<40).map { dir + "/p\($0).png" }
        for p in paths { try FileManager.default.linkItem(atPath: red, toPath: p) }
        let news = ThumbnailNews()
        // Room for about five 128x96 thumbnails.
        let worker = ThumbnailWorker(store: nil, size: .normal, memoryBudget: 5 * 128 * 96 * 4 + 400,
                                     threads: 1, wake: news.wake)
        defer { worker.close() }
        worker.want(paths)
        let done = news.events(of: worker, count: paths.count)
        #expect(done.count == paths.count)
        #expect(done.allSatisfy { $0.source == .made })
        #expect(worker.memoryInUse <= 5 * 128 * 96 * 4 + 400)
        // Made in the order wanted (one thread, so the order done is the order started).
        #expect(done.map(\.path) == paths)
        // The newest are kept, the oldest let go.
        #expect(worker.outcome(for: paths.last!) != nil)
        #expect(worker.outcome(for: paths.first!) == nil)
    }
}
