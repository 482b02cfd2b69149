import Foundation
import Testing
import TestSupport
@testable import Viewer

/// The queue as a photo viewer's folder: its ends say so and keep the item, its position
/// reads "2 / 3", and the fit choice holds for every item.
@Suite(.serialized)
@MainActor
struct QueueEndsTests {
    func stills(_ count: Int) throws -> [MediaView] {
        let still = try Fixtures.solidImage("red", width: 64, height: 48)
        return (0..<count).map { _ in
            let v = MediaView()
            v.setImage(url: still)
            return v
        }
    }

    @Test func theEndsSaySoAndKeepTheItem() throws {
        let h = QueueHarness()
        let v = try stills(3)
        h.queue.queue(mediaViews: v)
        h.pump(seconds: 5) { v[0].hasPicture }
        #expect(h.queue.position == MediaQueue.Position(number: 1, count: 3))
        h.queue.execute(.previous)
        #expect(h.queue.current === v[0] && v[0].messageText == "First item")
        h.queue.execute(.last)
        #expect(h.queue.position?.text == "3 / 3")
        h.queue.execute(.next)
        #expect(h.queue.current === v[2], "next on the last item left it")
        #expect(v[2].messageText == "Last item")
        h.pump(seconds: 0.2)
        #expect(h.queue.current === v[2], "the queue ended after next on the last item")
        h.queue.execute(.previous)
        #expect(h.queue.position?.text == "2 / 3")
        h.queue.shutdown()
    }

    @Test func withAutoExitNextOnTheLastItemEndsTheQueue() throws {
        let h = QueueHarness()
        h.queue.presentation.autoExit = true
        let v = try stills(1)
        h.queue.queue(mediaViews: v)
        h.pump(seconds: 5) { v[0].hasPicture }
        h.queue.execute(.next)
        #expect(h.queue.current == nil && h.queue.position == nil)
        h.queue.shutdown()
    }

    @Test func theNameIsTheTitleElseTheFile() throws {
        let v = try stills(1)[0]
        #expect(v.displayName == "solid-red-64x48.png", "\(v.displayName)")
        v.setTitle("Holiday")
        #expect(v.displayName == "Holiday")
    }

    @Test func fitHoldsForTheWholeQueue() throws {
        let h = QueueHarness()
        let v = try stills(3)
        h.queue.queue(mediaViews: v)
        h.pump(seconds: 5) { v[0].hasPicture }
        #expect(v.allSatisfy { $0.pictureFit == .small })
        // 64x48 at 100 % in the 320x240 window: the corner is black.
        #expect(try h.grab().matches(5, 120, 0x000000))
        h.queue.execute(.toggleFit)
        #expect(v.allSatisfy { $0.pictureFit == .always })
        h.pump(seconds: 0.3)
        #expect(try h.grab().matches(5, 120, 0xFF0000, tolerance: 40), "F did not enlarge the picture")
        h.queue.shutdown()
    }
}
