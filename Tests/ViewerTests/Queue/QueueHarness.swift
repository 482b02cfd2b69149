import Foundation
import MediaCore
import Playback
import TestSupport
@testable import Viewer
@testable import Windowing

/// Runs a queue's main loop in steps from a test, in a small window, so a test can act
/// between turns and look at what was drawn.
@MainActor
struct QueueHarness {
    let queue: MediaQueue

    init(queue: MediaQueue? = nil) {
        if let queue {
            self.queue = queue
        } else {
            self.queue = MediaQueue()
            self.queue.presentation.windowed = true
            self.queue.presentation.geometry = (320, 240, 0, 0)
        }
    }

    /// Turns the real loop until `done` holds, the loop stops, or `seconds` pass.
    func pump(seconds: Double, until done: () -> Bool = { false }) {
        let end = Date().addingTimeInterval(seconds)
        guard let s = queue.screenOrNil() else { return }
        while !done() && Date() < end {
            guard case .wait(let d) = queue.turn() else { return }
            s.loop.wait(timeout: min(d ?? 0.02, 0.02))
        }
    }

    /// Draws `v` into a fresh buffer and returns the picture's colour (0xRRGGBB).
    func centreColour(_ v: MediaView, width: Int = 160, height: Int = 120) -> UInt32 {
        var pixels = [UInt32](repeating: 0, count: width * height)
        return pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            v.render(into: buf, state: MediaSession.RenderState(now: 0, showControls: false))
            // Left of centre: the play indicator covers the centre of a paused video.
            return buf.pixel(x: width / 4, y: height / 2) & 0xFFFFFF
        }
    }

    /// A press or release of the left button, at the window's centre unless told.
    func button(press: Bool, x: Int = 160, y: Int = 120) {
        guard let p = queue.screenOrNil()?.stage else { return }
        p.controls.pointer = (x, y)
        p.handle(.button(ButtonEvent(isPress: press, button: 1, x: x, y: y, rootX: x, rootY: y,
                                     modifiers: 0, time: UInt(MonotonicClock.nanos() / 1_000_000))), from: p.window.id)
    }

    /// A click (press and release without movement) at a point of the window.
    func click(x: Int, y: Int) {
        button(press: true, x: x, y: y)
        button(press: false, x: x, y: y)
        pump(seconds: 0.05)
    }

    /// The presented window's pixels, read back from the X server.
    func grab() throws -> Image {
        guard let p = queue.screenOrNil()?.stage else { throw FixtureError("no window") }
        return try ScreenProbe().grab(window: p.window.id, x: 0, y: 0, width: p.window.width, height: p.window.height)
    }
}

/// Whether two colours are within `tolerance` per channel.
func near(_ a: UInt32, _ b: UInt32, _ tolerance: Int = 30) -> Bool {
    [16, 8, 0].allSatisfy { abs(Int((a >> UInt32($0)) & 0xFF) - Int((b >> UInt32($0)) & 0xFF)) <= tolerance }
}
