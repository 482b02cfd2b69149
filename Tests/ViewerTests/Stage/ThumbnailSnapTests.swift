import Foundation
import Testing
import TestSupport
@testable import Viewer

/// Where a moved or resized thumbnail rests, and what is remembered of it: arithmetic and a
/// small file, including files a user or a crash damaged.
@Suite struct ThumbnailSnapTests {
    let free = Rect(x: 0, y: 0, width: 1280, height: 720)

    @Test("Within 24 px of a corner or an edge's middle it snaps there; farther away it stays, pulled inside")
    func snapping() {
        let near = ThumbnailSnap.settle(Rect(x: 30, y: 20, width: 400, height: 225), in: free, top: 0, bottom: 0)
        #expect(near == Rect(x: 12, y: 12, width: 400, height: 225))
        let edge = ThumbnailSnap.settle(Rect(x: 450, y: 455, width: 400, height: 225), in: free, top: 0, bottom: 40)
        #expect(edge == Rect(x: 440, y: 720 - 12 - 40 - 225, width: 400, height: 225), "bottom middle, above the buffer")
        let free2 = ThumbnailSnap.settle(Rect(x: 300, y: 200, width: 400, height: 225), in: free, top: 0, bottom: 0)
        #expect(free2 == Rect(x: 300, y: 200, width: 400, height: 225))
        let outside = ThumbnailSnap.settle(Rect(x: 1200, y: -300, width: 400, height: 225), in: free, top: 0, bottom: 0)
        #expect(outside == Rect(x: 880, y: 0, width: 400, height: 225))
    }

    @Test("Resizing keeps the aspect and the nearest corner, between 160 px and half the monitor; bad factors change nothing")
    func resizing() {
        let corner = Rect(x: 1280 - 12 - 427, y: 720 - 12 - 240, width: 427, height: 240)
        let grown = ThumbnailSnap.resized(corner, by: 100, aspect: 9.0 / 16, monitor: free)
        #expect(grown == Rect(x: 1268 - 640, y: 708 - 360, width: 640, height: 360))
        let shrunk = ThumbnailSnap.resized(corner, by: 0.001, aspect: 9.0 / 16, monitor: free)
        #expect(shrunk == Rect(x: 1268 - 160, y: 708 - 90, width: 160, height: 90))
        for bad in [Double.nan, .infinity, 0, -2] {
            #expect(ThumbnailSnap.resized(corner, by: bad, aspect: 9.0 / 16, monitor: free) == corner)
        }
    }

    @Test("Remembered per monitor layout; junk, short, huge and other layouts' lines are not used")
    func memory() throws {
        let path = Fixtures.directory + "/thumbmem-\(UInt32.random(in: 0...UInt32.max))/state/mediaview/thumbnail-places"
        let m = ThumbnailMemory(path: path)
        let one = ThumbnailMemory.key([free])
        let two = ThumbnailMemory.key([free, Rect(x: 1280, y: 0, width: 1024, height: 768)])
        #expect(m.frame(for: one) == nil, "nothing remembered yet")
        m.remember(Rect(x: 12, y: 12, width: 400, height: 225), for: one)
        #expect(m.frame(for: one) == Rect(x: 12, y: 12, width: 400, height: 225))
        #expect(m.frame(for: two) == nil, "another layout's place is not used")
        try "\u{0}\u{1}garbage\n\(two) 1 2\n\(two) 1 2 99999999 5\n\(two) a b c d\n".write(toFile: path, atomically: true,
                                                                                            encoding: .utf8)
        #expect(m.frame(for: two) == nil)
        for i in 0..<40 { m.remember(Rect(x: i, y: 0, width: 200, height: 100), for: "layout\(i)") }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == ThumbnailMemory.capacity, "bounded: \(lines.count) lines")
        #expect(m.frame(for: "layout39") == Rect(x: 39, y: 0, width: 200, height: 100))
    }

    @Test("Pulling an edge or a corner resizes with the aspect kept and the opposite side still")
    func edgePulls() {
        let t = Rect(x: 841, y: 468, width: 427, height: 240)
        #expect(ThumbnailSnap.edges(atX: 2, y: 3, width: 427, height: 240) == .init(left: true, top: true))
        #expect(ThumbnailSnap.edges(atX: 200, y: 100, width: 427, height: 240).isEmpty)
        let corner = ThumbnailSnap.resized(t, pulling: .init(left: true, top: true), dx: -100, dy: -20, aspect: 9.0 / 16, monitor: free)
        #expect(corner == Rect(x: 1268 - 527, y: 708 - 296, width: 527, height: 296), "\(corner)")
        let right = ThumbnailSnap.resized(t, pulling: .init(right: true), dx: -1000, dy: 0, aspect: 9.0 / 16, monitor: free)
        #expect(right == Rect(x: 841, y: 468, width: 160, height: 90), "\(right)")
        let bottom = ThumbnailSnap.resized(t, pulling: .init(bottom: true), dx: 0, dy: 5000, aspect: 9.0 / 16, monitor: free)
        #expect(bottom.width == 640 && bottom.x == 841 && bottom.y == 468)
    }
}
