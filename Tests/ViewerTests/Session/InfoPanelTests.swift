import Foundation
import Playback
import Testing
import TestSupport
@testable import Viewer
@testable import Windowing

/// The info panel: what it says for a photo (from its EXIF) and for a video with sound,
/// and that it is drawn over the picture when toggled.
@Suite(.serialized)
@MainActor
struct InfoPanelTests {
    /// A red JPEG made by ffmpeg with an EXIF block (Make, Model, DateTime in IFD0) spliced
    /// in after its start marker.
    static func photoWithExif() throws -> String {
        let plain = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.solidImage("red", ext: "jpg")))
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }
        let make = ascii("Canon"), model = ascii("Canon EOS R5"), date = ascii("2024:06:01 12:34:56")
        let dataStart = 8 + 2 + 3 * 12 + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 3]
        var blob: [UInt8] = []
        for (tag, value) in [(0x010F, make), (0x0110, model), (0x0132, date)] {
            let offset = dataStart + blob.count
            tiff += [UInt8(tag >> 8), UInt8(tag & 0xFF), 0, 2, 0, 0, 0, UInt8(value.count),
                     0, 0, UInt8(offset >> 8), UInt8(offset & 0xFF)]
            blob += value
        }
        tiff += [0, 0, 0, 0] + blob
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let segment = [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        return try Fixtures.bytes("info-exif.jpg", Data(plain.prefix(2)) + Data(segment) + Data(plain.dropFirst(2)))
    }

    func presented(_ url: String) throws -> (QueueHarness, MediaView) {
        let h = QueueHarness()
        let v = MediaView()
        v.playerOptions.audio = false
        v.setMedia(url: url)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        try #require(v.info != nil, "the media did not open: \(String(describing: v.failure))")
        return (h, v)
    }

    @Test func aPhotoSaysWhatTheCameraRecorded() throws {
        let (h, v) = try presented(try Self.photoWithExif())
        let lines = Dictionary(uniqueKeysWithValues: InfoPanel.describe(v).map { ($0.label, $0.value) })
        #expect(lines["File"] == "info-exif.jpg")
        #expect(lines["Format"] == "JPEG")
        #expect(lines["Dimensions"] == "320 × 240")
        #expect(lines["Camera"] == "Canon EOS R5")
        // Written as the user's LC_TIME writes dates (the tests run in the C locale).
        #expect(lines["Taken"] == "Sat Jun  1 12:34:56 2024")
        #expect(lines["Size"]?.hasSuffix("bytes") == true || lines["Size"]?.hasSuffix("KiB") == true)
        h.queue.shutdown()
    }

    @Test func aVideoSaysItsContainerCodecsAndRates() throws {
        let clip = try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 2, tone: 440)
        let (h, v) = try presented(clip)
        let lines = Dictionary(uniqueKeysWithValues: InfoPanel.describe(v).map { ($0.label, $0.value) })
        #expect(lines["Container"] == "QuickTime / MOV")
        #expect(lines["Video"] == "h264, 320 × 240")
        #expect(lines["Frame rate"] == "25.00 fps")
        #expect(lines["Audio"] == "aac")
        #expect(lines["Sample rate"] == "48000 Hz")
        #expect(lines["Channels"] == "1 (mono)")
        #expect(lines["Duration"] == "0:02")
        #expect(lines["Bit rate"] != nil && lines["Audio rate"] != nil)
        h.queue.shutdown()
    }

    @Test func theKeyDrawsThePanelOverThePicture() throws {
        let (h, v) = try presented(try Fixtures.solidImage("red", width: 320, height: 240))
        let stage = try #require(h.queue.screen?.stage)
        #expect(try h.grab().matches(40, 40, 0xFF0000, tolerance: 40), "red before the panel")
        stage.router.execute(try PlayerCommand.parse("cycle info"), on: stage)
        h.pump(seconds: 0.3)
        let img = try h.grab()
        // The panel's dark box over the top left, with light text in it; red beside it.
        #expect(img.fraction(matching: 0x400000, x: 20, y: 20, width: 20, height: 20, tolerance: 40) > 0.5,
                "no dark panel at the top left")
        #expect(img.fraction(matching: 0xFFFFFF, x: 16, y: 16, width: 200, height: 60, tolerance: 60) > 0.01,
                "no text in the panel")
        #expect(img.matches(300, 220, 0xFF0000, tolerance: 40))
        stage.router.execute(.toggleInfo, on: stage)
        h.pump(seconds: 0.3)
        #expect(try h.grab().matches(40, 40, 0xFF0000, tolerance: 40), "the panel went away again")
        _ = v
        h.queue.shutdown()
    }

    /// A phone's photo: the date in the user's way, the lens, the exposure as a
    /// photographer writes it and the place in degrees.
    @Test func aCameraPhotoSaysLensExposureAndPlace() throws {
        let (h, v) = try presented(try Fixtures.cameraPhoto())
        let lines = Dictionary(uniqueKeysWithValues: InfoPanel.describe(v).map { ($0.label, $0.value) })
        #expect(lines["Taken"] == "Sun Jul 14 18:22:05 2024", "\(lines)")
        #expect(lines["Camera"] == "Canon EOS R5")
        #expect(lines["Lens"] == "RF35mm F1.8 MACRO IS STM")
        #expect(lines["Exposure"] == "f/1.8, 1/250 s, ISO 100, 35 mm", "\(lines)")
        #expect(lines["Place"] == "48.8584° N, 2.2945° E", "\(lines)")
        h.queue.shutdown()
    }

    /// A song's tags become its title and details, and its name; `i` with nothing to
    /// caption shows the panel instead of nothing.
    @Test func aSongIsCaptionedFromItsTags() throws {
        let (h, v) = try presented(try Fixtures.taggedSong())
        #expect(v.captionTitle == "Morning Light")
        #expect(v.captionDetails == "The Test Band — Fixtures")
        #expect(v.displayName == "Morning Light")
        #expect(v.info?.album == "Fixtures")
        v.setTitle("Given title")
        #expect(v.captionTitle == "Given title" && v.captionDetails == nil, "the app's title wins")
        h.queue.shutdown()
    }

    @Test func detailsKeyWithNoTitleShowsThePanel() throws {
        let (h, v) = try presented(try Fixtures.solidImage("red", width: 320, height: 240))
        let stage = try #require(h.queue.screen?.stage)
        #expect(v.captionTitle == nil)
        stage.router.execute(.toggleDetails, on: stage)
        h.pump(seconds: 0.3)
        #expect(try h.grab().fraction(matching: 0x400000, x: 20, y: 20, width: 20, height: 20, tolerance: 40) > 0.5,
                "i on a picture with no title showed no panel")
        h.queue.shutdown()
    }
}
