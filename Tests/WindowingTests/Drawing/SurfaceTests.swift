import CX11
import Foundation
import Testing
import TestSupport
@testable import Windowing

/// A real window on the test X server: what is drawn into the surface is what the server
/// shows, through MIT-SHM and through the XPutImage fallback.
@Suite(.serialized)
@MainActor
struct SurfaceTests {
    /// Maps a window at a known place and waits until the server has it on screen.
    func makeWindow(_ d: XDisplay, _ loop: EventLoop, width: Int = 200, height: Int = 120) throws -> (XWindow, Surface) {
        let w = try XWindow(display: d, x: 10, y: 10, width: width, height: height)
        let s = Surface(window: w)
        loop.attach(w, surface: s)
        w.map()
        let deadline = Date().addingTimeInterval(5)
        var mapped = false
        while !mapped && Date() < deadline {
            loop.wait(timeout: 0.1)
            for (_, e) in loop.pendingEvents() { if case .mapped(true) = e { mapped = true } }
        }
        #expect(mapped, "the window was never mapped")
        return (w, s)
    }

    func paint(_ s: Surface, _ color: UInt32) throws {
        let buf = try #require(s.begin())
        buf.clear(color: color)
        s.present()
    }

    @Test("SHM: solid colours drawn into the surface are what the server shows")
    func shmPixels() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try makeWindow(d, loop)
        let probe = try ScreenProbe()
        for color: UInt32 in [0xFF0000, 0x00FF00, 0x0000FF, 0x123456] {
            try paint(s, color)
            d.sync()
            let img = probe.grab(window: w.id, x: 0, y: 0, width: 200, height: 120)
            #expect(img.fraction(matching: color, tolerance: 0) == 1.0, "colour \(String(color, radix: 16))")
        }
        #expect(s.usesShm, "a local Xvfb display supports MIT-SHM")
        #expect(s.presentedCount == 4)
    }

    @Test("Without SHM the XPutImage fallback shows the same pixels")
    func fallbackPixels() throws {
        let d = try XDisplay(allowShm: false)
        let loop = try EventLoop(display: d)
        let (w, s) = try makeWindow(d, loop)
        try paint(s, 0x00FF00)
        #expect(!s.usesShm)
        d.sync()
        let img = try ScreenProbe().grab(window: w.id, x: 0, y: 0, width: 200, height: 120)
        #expect(img.fraction(matching: 0x00FF00, tolerance: 0) == 1.0)
    }

    @Test("A partly drawn buffer: a rectangle lands at the right place")
    func rectangle() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try makeWindow(d, loop)
        let buf = try #require(s.begin())
        buf.clear(color: 0)
        buf.fill(x: 50, y: 20, width: 30, height: 40, color: 0xFFFFFF)
        s.present()
        d.sync()
        let img = try ScreenProbe().grab(window: w.id, x: 0, y: 0, width: 200, height: 120)
        #expect(img.pixel(50, 20) == 0xFFFFFF)
        #expect(img.pixel(79, 59) == 0xFFFFFF)
        #expect(img.pixel(80, 59) == 0)
        #expect(img.pixel(49, 20) == 0)
        #expect(img.fraction(matching: 0xFFFFFF, tolerance: 0) == Double(30 * 40) / Double(200 * 120))
    }

    @Test("Resizing the window reallocates the buffers at the new size")
    func resize() throws {
        let d = try XDisplay()
        let loop = try EventLoop(display: d)
        let (w, s) = try makeWindow(d, loop)
        w.setGeometry(x: 10, y: 10, width: 320, height: 200)
        let buf = try #require(s.begin())
        #expect(buf.width == 320 && buf.height == 200)
        buf.clear(color: 0xFF00FF)
        s.present()
        d.sync()
        let img = try ScreenProbe().grab(window: w.id, x: 0, y: 0, width: 320, height: 200)
        #expect(img.fraction(matching: 0xFF00FF, tolerance: 0) == 1.0)
    }

    @Test("No SHM segment outlives its surface")
    func noLeakedSegments() throws {
        let before = try Self.segmentCount()
        do {
            let d = try XDisplay()
            let loop = try EventLoop(display: d)
            let (_, s) = try makeWindow(d, loop)
            for _ in 0..<5 { try paint(s, 0x808080) }
            #expect(s.usesShm)
            // Marked for removal at once: while attached they are counted as 'dest' only.
            _ = loop
        }
        let after = try Self.segmentCount()
        #expect(after == before, "SHM segments before \(before), after \(after)")
    }

    /// Segments owned by this user that are not yet marked for destruction, plus all of
    /// ours that still exist at all (ipcs lists both).
    static func segmentCount() throws -> Int {
        let r = try Run.process("ipcs", ["-m"], timeout: 10)
        return r.stdout.split(separator: "\n").filter { $0.hasPrefix("0x") }.count
    }
}
