import Foundation
import Testing
import TestSupport
@testable import Viewer
@testable import Windowing

/// Thumbnails before playback and for audio, and the preview GIF on press-and-hold.
@Suite(.serialized)
@MainActor
struct ThumbnailTests {
    /// A queued 2 s green video that waits paused, with a blue thumbnail and an optional
    /// preview GIF.
    func pausedVideo(preview: String? = nil) throws -> (QueueHarness, MediaView) {
        let h = QueueHarness()
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        let video = try Fixtures.solidVideo("green", width: 160, height: 120, seconds: 2)
        let thumb = try Fixtures.solidImage("blue", width: 160, height: 120)
        if let preview {
            v.setVideo(url: video, thumbnailUrl: thumb, previewGIFUrl: preview)
        } else {
            v.setVideo(url: video, thumbnailUrl: thumb)
        }
        h.queue.queue(mediaView: v)
        return (h, v)
    }

    @Test("A video's thumbnail shows until it plays, then the video's own picture")
    func videoThumbnail() throws {
        let (h, v) = try pausedVideo()
        h.pump(seconds: 5) { v.session?.small.thumbFrame != nil && v.hasPicture }
        #expect(near(h.centreColour(v), 0x0000FF), "thumbnail (blue) before playing")
        v.play()
        h.pump(seconds: 1)
        #expect(near(h.centreColour(v), 0x008000), "the video (green) once it plays")
    }

    @Test("Thumbnail and preview GIF can come from the web")
    func webThumbnailAndPreview() throws {
        let root = try TestEnvironment.httpRoot
        for (name, path) in [("thumb-yellow.png", try Fixtures.solidImage("yellow", width: 160, height: 120)),
                             ("preview-red.gif", try Fixtures.gif(colors: ["red", "red"], delayCentiseconds: 10))] {
            _ = try? FileManager.default.removeItem(atPath: root + "/" + name)
            try FileManager.default.copyItem(atPath: path, toPath: root + "/" + name)
        }
        let web = try TestEnvironment.http
        let h = QueueHarness()
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        v.setVideo(url: try Fixtures.solidVideo("green", width: 160, height: 120, seconds: 2),
                   thumbnailUrl: web + "/thumb-yellow.png", previewGIFUrl: web + "/preview-red.gif")
        h.queue.queue(mediaView: v)
        h.pump(seconds: 8) { v.session?.small.thumbFrame != nil && v.info != nil }
        #expect(near(h.centreColour(v), 0xFFFF00), "the web thumbnail (yellow) shows")
        h.button(press: true)
        h.pump(seconds: 3) { v.isPreviewing && v.session?.small.previewFrame != nil }
        #expect(near(h.centreColour(v), 0xFF0000), "the web preview GIF (red) shows while held")
        h.button(press: false)
    }

    @Test("Audio shows its thumbnail (an image in memory) instead of the music indicator")
    func audioThumbnail() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.playerOptions.audio = false
        let red = RGBAImage(width: 4, height: 4, color: Color(rgb: 0xFF0000))
        v.setAudio(url: try Fixtures.tone(440, seconds: 1), thumbnail: red)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 3) { v.info != nil }
        #expect(near(h.centreColour(v), 0xFF0000))
    }

    @Test("Holding the button 0.25 s on a paused video shows the preview GIF; release restores the thumbnail")
    func previewOnHold() throws {
        let (h, v) = try pausedVideo(preview: try Fixtures.gif(colors: ["red", "red"], delayCentiseconds: 10))
        h.pump(seconds: 5) { v.session?.small.thumbFrame != nil && v.info != nil }
        h.button(press: true)
        h.pump(seconds: 0.15)
        #expect(!v.isPreviewing, "not before 0.25 s")
        h.pump(seconds: 1) { v.isPreviewing && v.session?.small.previewFrame != nil }
        #expect(v.isPreviewing)
        #expect(near(h.centreColour(v), 0xFF0000), "the preview GIF (red) shows while held")
        h.button(press: false)
        h.pump(seconds: 0.1)
        #expect(!v.isPreviewing)
        #expect(!v.isPlaying, "a held press is not a click: the video did not start")
        #expect(near(h.centreColour(v), 0x0000FF), "the thumbnail is back")
    }
}
