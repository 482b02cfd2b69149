import Foundation
import Testing
import TestSupport
import Playback
@testable import Windowing
@testable import Viewer

/// Chapters from the container: marks on the track, the title under the pointer, and
/// PgUp/PgDn jumping between them.
@Suite(.serialized)
@MainActor
struct ChapterTests {
    @Test("The container's chapters reach the view with their starts and titles")
    func chaptersRead() throws {
        let h = QueueHarness()
        let v = MediaView()
        v.setVideo(url: try Fixtures.chapteredVideo())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.info != nil }
        let chapters = try #require(v.info?.chapters)
        #expect(chapters.map(\.title) == ["Red", "Green", "Blue"])
        #expect(chapters.map { ($0.start * 10).rounded() / 10 } == [0, 2, 4])
        h.queue.shutdown()
    }

    /// The chaptered video on screen, paused on its first picture, without sound.
    func shownPaused() throws -> (QueueHarness, MediaView) {
        let h = QueueHarness()
        let v = MediaView()
        v.shouldAutoPlayAfterPresentation = false
        v.playerOptions.audio = false
        v.setVideo(url: try Fixtures.chapteredVideo())
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        return (h, v)
    }

    @Test("PgUp jumps to the next chapter's start and PgDn back, as the bindings say")
    func jumps() throws {
        let (h, v) = try shownPaused()
        let bindings = h.queue.presentation.bindings
        #expect(bindings.command(for: "PGUP") == .chapter(delta: 1) && bindings.command(for: "PGDWN") == .chapter(delta: -1))
        func press(_ key: String, expect start: Double, colour: UInt32) {
            if let c = bindings.command(for: key) { v.perform(c) }
            h.pump(seconds: 3) { abs(v.position - start) < 0.05 && near(h.centreColour(v), colour) }
            #expect(abs(v.position - start) < 0.05, "after \(key): \(v.position)")
            #expect(near(h.centreColour(v), colour), "after \(key): \(String(h.centreColour(v), radix: 16))")
            #expect(v.currentChapter.map { v.info?.chapters[$0].start } == start)
        }
        press("PGUP", expect: 2, colour: 0x008000)
        press("PGUP", expect: 4, colour: 0x0000FF)
        press("PGDWN", expect: 2, colour: 0x008000)
        h.queue.shutdown()
    }

    @Test("Marks on the track at each chapter's start, and the hovered chapter's title above it")
    func marksAndTitle() throws {
        let (h, v) = try shownPaused()
        let (width, height) = (640, 360)
        var pixels = [UInt32](repeating: 0, count: width * height)
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        let s = try #require(v.session)
        let layout = try #require(s.trackLayout(in: bounds))
        let bar = Indicators.progressTrackBar(in: layout.bar, hover: false)
        let markX = bar.x + Int((Double(bar.width) / 3).rounded())
        var mark: UInt32 = 0, beside: UInt32 = 0
        pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            s.render(into: buf, state: MediaSession.RenderState(now: 0, showControls: true))
            // Above the bar's own pixels, where only the tick reaches.
            mark = buf.pixel(x: markX, y: bar.y - 3) & 0xFFFFFF
            beside = buf.pixel(x: markX + 8, y: bar.y - 3) & 0xFFFFFF
        }
        #expect(near(mark, 0xFFFFFF, 40), "a white tick at the second chapter: \(String(mark, radix: 16))")
        #expect(!near(beside, 0xFFFFFF, 80), "no tick beside it: \(String(beside, radix: 16))")
        #expect(s.hoverLabel(atFraction: 0.4) == "0:02 · Green")
        #expect(s.hoverLabel(atFraction: 0.1) == "0:00 · Red")
        h.queue.shutdown()
    }

    @Test("Chapter steps parse as mpv writes them; zero, huge and non-numbers are refused in one line")
    func chapterCommands() throws {
        #expect(try PlayerCommand.parse("add chapter 1") == .chapter(delta: 1))
        #expect(try PlayerCommand.parse("add chapter -2").description == "add chapter -2")
        for bad in ["add chapter 0", "add chapter x", "add chapter 99999", "add chapter", "add chapter 1 2", "add frobs 1"] {
            #expect(throws: PlayerCommand.ParseError.self, "\(bad)") { try PlayerCommand.parse(bad) }
        }
        // A file with no chapters: the keys do nothing, and nothing breaks.
        let v = MediaView()
        v.jumpChapter(by: 1)
        #expect(v.currentChapter == nil)
    }
}
