import Foundation
import Playback
import Testing
import TestSupport
@testable import Viewer

/// Stepping through camera photos paints at once: the photo's own small picture (its EXIF
/// thumbnail, blue with a lime corner in these fixtures, where the photo is red) shows the
/// moment the user steps onto it, and the sharp photo replaces it; the photo before stays
/// decoded, so going back needs no decode at all.
@Suite(.serialized)
@MainActor
struct QueueFirstLookTests {
    /// What reached the screen, in order, and the window as it was when the small picture came.
    final class Screenings: MediaViewDelegate {
        var events: [String] = []
        func didShowFirstLook(for mediaView: MediaView) { events.append("look") }
        func didShowFirstFrame(for mediaView: MediaView) { events.append("frame") }
    }

    static let red: UInt32 = 0xFF0000, blue: UInt32 = 0x0000FF, lime: UInt32 = 0x00FF00

    /// A window of 800x600, where a 4000x3000 photo is decoded at a quarter (its full decode
    /// takes a good fraction of a second when grainy), and a small green picture before it.
    func harness() throws -> (QueueHarness, MediaView) {
        let h = QueueHarness()
        h.queue.presentation.geometry = (800, 600, 0, 0)
        let before = MediaView()
        before.setImage(url: try Fixtures.solidImage("green", width: 64, height: 48))
        return (h, before)
    }

    func photo(_ thumbnail: Fixtures.ExifThumbnail, sandbox: SandboxMode = .automatic,
               width: Int = 4000, height: Int = 3000) throws -> (MediaView, Screenings) {
        let v = MediaView()
        v.setImage(url: try Fixtures.cameraJPEG(thumbnail: thumbnail, width: width, height: height, grainy: true))
        v.playerOptions.sandbox = sandbox
        let s = Screenings()
        v.delegate = s
        return (v, s)
    }

    /// Right onto a photo still decoding: its thumbnail first, filling the photo's place
    /// (the lime corner top left), then the photo.
    @Test(arguments: [SandboxMode.automatic, .off])
    func steppingOntoACameraPhotoShowsItsThumbnailThenThePhoto(sandbox: SandboxMode) throws {
        let (h, before) = try harness()
        let (v, seen) = try photo(.good, sandbox: sandbox)
        defer { h.queue.shutdown() }
        let worker = DecodeWorkers.shared.firstLooksDecoded
        h.queue.queue(mediaViews: [before, v])
        h.queue.execute(.next)
        #expect(h.queue.current === v)
        h.pump(seconds: 10) { seen.events.contains("look") }
        #expect(seen.events == ["look"], "the thumbnail did not come first: \(seen.events)")
        let look = try h.grab()
        #expect(look.matches(600, 450, Self.blue, tolerance: 40), "not the thumbnail: \(String(look.pixel(600, 450), radix: 16))")
        #expect(look.matches(200, 150, Self.lime, tolerance: 40), "the thumbnail is not where the photo goes")
        h.pump(seconds: 20) { seen.events.contains("frame") }
        #expect(seen.events == ["look", "frame"])
        h.pump(seconds: 0.1)
        let sharp = try h.grab()
        #expect(sharp.matches(600, 450, Self.red, tolerance: 60) && sharp.matches(200, 150, Self.red, tolerance: 60),
                "the photo did not replace its thumbnail")
        // Decoded behind the sandbox's walls unless the sandbox is off.
        let inWorker = DecodeWorkers.shared.firstLooksDecoded - worker
        #expect(inWorker == (sandbox == .off ? 0 : 1))
    }

    /// A photo whose EXIF names no usable thumbnail never flashes another picture: the
    /// screen goes from the loading indicator to the photo.
    @Test func aPhotoWithoutAThumbnailGoesStraightToThePhoto() throws {
        let (h, before) = try harness()
        let (v, seen) = try photo(.notAJPEG)
        defer { h.queue.shutdown() }
        h.queue.queue(mediaViews: [before, v])
        h.queue.execute(.next)
        var sawBlue = false
        h.pump(seconds: 20) {
            if let g = try? h.grab(), g.matches(600, 450, Self.blue, tolerance: 60) { sawBlue = true }
            return seen.events.contains("frame")
        }
        #expect(!sawBlue)
        #expect(seen.events == ["frame"], "opened ahead, a photo without a thumbnail gets no stand-in: \(seen.events)")
        h.pump(seconds: 0.1)
        #expect(try h.grab().matches(600, 450, Self.red, tolerance: 60))
    }

    /// The window showing the small green picture, then `photo` jumped to (not opened
    /// ahead), pumped until its first look or its picture reached the screen.
    func jump(to photo: (MediaView, Screenings)) throws -> (QueueHarness, Screenings) {
        let (h, before) = try harness()
        let (v, seen) = photo
        h.queue.queue(mediaView: before)
        h.pump(seconds: 5) { before.hasPicture }
        h.queue.present(mediaView: v, animated: false)
        h.pump(seconds: 20) { seen.events.contains("look") || seen.events.contains("frame") }
        return (h, seen)
    }

    /// A photo the user jumps to, not opened ahead, without a thumbnail, and decoded at its
    /// full size (under twice the window's size): an eighth-size decode of the photo itself
    /// (red, blurred) shows before the sharp one.
    @Test func aPhotoJumpedToWithoutAThumbnailShowsAnEighthFirst() throws {
        let (h, seen) = try jump(to: try photo(.notAJPEG, width: 1592, height: 1192))
        defer { h.queue.shutdown() }
        #expect(seen.events == ["look"])
        #expect(try h.grab().matches(600, 450, Self.red, tolerance: 60))
        h.pump(seconds: 20) { seen.events.contains("frame") }
        #expect(seen.events == ["look", "frame"])
    }

    /// The same photo four times the size is decoded at a quarter, which costs little more
    /// than the eighth: it goes straight to the sharp picture, with no blurred one first.
    @Test func aPhotoDecodedReducedGetsNoEighth() throws {
        let looks = DecodeWorkers.shared.firstLooksDecoded
        let (h, seen) = try jump(to: try photo(.notAJPEG))
        defer { h.queue.shutdown() }
        #expect(seen.events == ["frame"])
        #expect(try h.grab().matches(600, 450, Self.red, tolerance: 60))
        #expect(DecodeWorkers.shared.firstLooksDecoded == looks)
    }

    /// Right then Left: the photo before is still decoded and shows in the same turn,
    /// without the worker decoding anything; at most three photos hold pictures.
    @Test func leftAfterRightShowsThePreviousPhotoWithoutADecode() throws {
        let h = QueueHarness()
        let path = try Fixtures.cameraJPEG()
        let v = (0..<4).map { _ -> MediaView in let m = MediaView(); m.setImage(url: path); return m }
        defer { h.queue.shutdown() }
        let start = DecodeWorkers.shared.picturesDecoded
        h.queue.queue(mediaViews: v)
        h.pump(seconds: 10) { v[0].hasPicture && v[1].info != nil }
        h.queue.execute(.next)
        h.pump(seconds: 10) { v[1].hasPicture && v[2].info != nil }
        let decoded = DecodeWorkers.shared.picturesDecoded
        #expect(decoded - start >= 3, "the photos were not decoded by the worker")
        #expect(v.filter(\.isPrepared).count == 3, "previous, current and next hold their pictures")
        h.queue.execute(.previous)
        #expect(h.queue.current === v[0])
        h.pump(seconds: 0.2)
        #expect(v[0].hasPicture)
        #expect(near(h.centreColour(v[0]), Self.red))
        #expect(DecodeWorkers.shared.picturesDecoded == decoded, "going back decoded the photo again")
        #expect(v.filter(\.isPrepared).count <= 3)
    }
}
