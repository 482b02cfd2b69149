import Foundation
import Playback
@testable import Windowing
@testable import Viewer

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

    /// Turns the loop until `done` holds or `seconds` pass.
    func pump(seconds: Double, until done: () -> Bool = { false }) {
        let end = Date().addingTimeInterval(seconds)
        guard let p = queue.presenterOrNil() else { return }
        while !done() && Date() < end {
            for (_, e) in p.loop.pendingEvents() { p.handle(e) }
            let now = MonotonicClock.seconds()
            if let v = queue.current {
                let t = v.tick(presented: true, now: now)
                _ = p.checkHold(now: now)
                if t.redraw || p.needsRedraw { p.draw(now: now) }
            }
            p.loop.wait(timeout: 0.01)
        }
    }

    /// Draws `v` into a fresh buffer and returns the picture's colour (0xRRGGBB).
    func centreColour(_ v: MediaView, width: Int = 160, height: Int = 120) -> UInt32 {
        var pixels = [UInt32](repeating: 0, count: width * height)
        return pixels.withUnsafeMutableBytes { raw in
            let buf = PixelBuffer(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            v.render(into: buf, state: MediaView.RenderState(now: 0, showControls: false))
            // Left of centre: the play indicator covers the centre of a paused video.
            return buf.pixel(x: width / 4, y: height / 2) & 0xFFFFFF
        }
    }

    /// A press or release of the left button at the window's centre.
    func button(press: Bool) {
        guard let p = queue.presenterOrNil() else { return }
        p.handle(.button(ButtonEvent(isPress: press, button: 1, x: 160, y: 120, rootX: 160, rootY: 120,
                                     modifiers: 0, time: UInt(MonotonicClock.nanos() / 1_000_000))))
    }
}

/// Whether two colours are within `tolerance` per channel.
func near(_ a: UInt32, _ b: UInt32, _ tolerance: Int = 30) -> Bool {
    [16, 8, 0].allSatisfy { abs(Int((a >> UInt32($0)) & 0xFF) - Int((b >> UInt32($0)) & 0xFF)) <= tolerance }
}
