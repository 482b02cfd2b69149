import CX11
import Foundation
import Testing
import TestSupport
@testable import Windowing

/// Frames that say where they drew: each repaints and sends only what can have changed,
/// and the window still shows exactly the frame, over both buffers and after exposure.
@Suite(.serialized)
@MainActor
struct SurfaceInkTests {
    /// A picture-like square on black: blackens what the buffer's earlier frames left
    /// outside it, then marks and paints it, as the viewer draws a letterboxed still.
    func frame(_ s: Surface, square r: Rect, color: UInt32) throws {
        let buf = try #require(s.begin(trackingInk: true))
        buf.blacken(outside: r)
        buf.mark(r)
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { buf.row(y)[x] = color } }
        s.present()
    }

    func grab(_ d: XDisplay, _ w: XWindow) throws -> Image {
        d.sync()
        return try ScreenProbe().grab(window: w.id, x: 0, y: 0, width: 200, height: 120)
    }

    @Test("A square moving over black: the window shows only the newest one, sent in part")
    func movingSquare() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try SurfaceTests().makeWindow(d, loop)
        // A first frame of another colour everywhere, untracked: the tracked ones must clear it.
        try SurfaceTests().paint(s, 0x3366FF)
        try SurfaceTests().paint(s, 0x3366FF)
        let places = [Rect(x: 10, y: 10, width: 20, height: 20), Rect(x: 150, y: 80, width: 30, height: 30),
                      Rect(x: 60, y: 40, width: 10, height: 10), Rect(x: 0, y: 0, width: 5, height: 5)]
        for (i, r) in places.enumerated() {
            let color: UInt32 = i % 2 == 0 ? 0xFFFFFF : 0x00FF00
            try frame(s, square: r, color: color)
            let img = try grab(d, w)
            #expect(img.fraction(matching: color, tolerance: 0) == Double(r.width * r.height) / Double(200 * 120),
                    "frame \(i): only the square has its colour")
            #expect(img.fraction(matching: 0, tolerance: 0) == 1 - Double(r.width * r.height) / Double(200 * 120),
                    "frame \(i): everything else is black, no square or colour left from before")
        }
        // The first tracked frame knows nothing of the window and sends all of it.
        #expect(s.partialPuts == places.count - 1)
    }

    /// A launch waiting for its first picture draws black frames: the window shows its
    /// own black background already, so none is sent until one draws, and the server
    /// copies nothing. Once something was shown, a black frame is sent and clears it.
    @Test("Black frames on a window that was only ever black are not sent")
    func blackBeforeAnythingIsNotSent() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try SurfaceTests().makeWindow(d, loop)
        for _ in 0..<3 {
            let buf = try #require(s.begin(trackingInk: true))
            if s.usesShm { #expect(buf.earlierInk.isEmpty, "a new shared-memory buffer is known black") }
            buf.blacken(outside: nil)
            s.present()
        }
        #expect(s.framesSent == 0 && s.presentedCount == 3)
        #expect(try grab(d, w).fraction(matching: 0, tolerance: 0) == 1)
        try frame(s, square: Rect(x: 10, y: 10, width: 20, height: 20), color: 0xFFFFFF)
        #expect(s.framesSent == 1)
        #expect(try grab(d, w).pixel(15, 15) == 0xFFFFFF)
        let buf = try #require(s.begin(trackingInk: true))
        buf.blacken(outside: nil)
        s.present()
        #expect(s.framesSent == 2)
        #expect(try grab(d, w).fraction(matching: 0, tolerance: 0) == 1, "the square stayed on a black frame")
    }

    @Test("After the window is exposed the next frame is sent whole")
    func exposedSendsAll() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try SurfaceTests().makeWindow(d, loop)
        try frame(s, square: Rect(x: 10, y: 10, width: 20, height: 20), color: 0xFFFFFF)
        try frame(s, square: Rect(x: 10, y: 10, width: 20, height: 20), color: 0xFFFFFF)
        let before = s.partialPuts
        // What an Expose means: the server no longer holds the window's pixels.
        XClearArea(d.raw, w.id, 0, 0, 200, 120, 0)
        s.invalidate()
        try frame(s, square: Rect(x: 10, y: 10, width: 20, height: 20), color: 0xFFFFFF)
        #expect(s.partialPuts == before)
        let img = try grab(d, w)
        #expect(img.pixel(15, 15) == 0xFFFFFF)
        #expect(img.pixel(100, 100) == 0)
    }

    @Test("Blackening outside a picture touches only what an earlier frame left")
    func blackenOnlyEarlierInk() {
        var memory = [UInt32](repeating: 0xABCDEF, count: 40 * 30)
        memory.withUnsafeMutableBytes { raw in
            var buf = PixelBuffer(base: raw.baseAddress!, width: 40, height: 30, stride: 160)
            buf.earlierInk = Rect(x: 0, y: 0, width: 20, height: 30)
            buf.blacken(outside: Rect(x: 5, y: 5, width: 10, height: 10))
            #expect(buf.pixel(x: 0, y: 0) == 0, "earlier ink outside the picture is blackened")
            #expect(buf.pixel(x: 7, y: 7) == 0xABCDEF, "the picture's place is left to the picture")
            #expect(buf.pixel(x: 19, y: 29) == 0)
            #expect(buf.pixel(x: 20, y: 0) == 0xABCDEF, "nothing beyond the earlier ink is written")
            let ink = Ink()
            buf.ink = ink
            buf.fill(x: 30, y: 2, width: 4, height: 3, color: 0)
            #expect(ink.bounds.isEmpty, "black marks nothing")
            buf.fill(x: 30, y: 2, width: 4, height: 3, color: 0x10)
            Canvas(buffer: buf).fillRect(Rect(x: -5, y: 20, width: 8, height: 100), color: .white)
            #expect(ink.bounds == Rect(x: 0, y: 2, width: 34, height: 28), "bounds of both, clipped to the buffer")
        }
    }
}
