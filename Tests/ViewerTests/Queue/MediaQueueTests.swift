import Foundation
import Testing
import TestSupport
@testable import Viewer

/// MediaQueue through the public API, with real media and a real window: the seed's queue
/// semantics.
@Suite(.serialized)
@MainActor
struct MediaQueueTests {
    /// Records the delegate calls of several views, in order.
    final class Recorder: MediaViewDelegate {
        var log: [String] = []
        func willPresent(mediaView: MediaView) { log.append("willPresent \(mediaView.title ?? "")") }
        func didPresent(mediaView: MediaView) { log.append("didPresent \(mediaView.title ?? "")") }
        func willDismiss(mediaView: MediaView) { log.append("willDismiss \(mediaView.title ?? "")") }
        func didDismiss(mediaView: MediaView) { log.append("didDismiss \(mediaView.title ?? "")") }
    }

    func view(_ title: String, color: String) throws -> MediaView {
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage(color, width: 64, height: 48))
        v.setTitle(title)
        return v
    }

    func makeQueue() -> MediaQueue {
        let q = MediaQueue()
        q.presentation.windowed = true
        q.presentation.geometry = (320, 240, 0, 0)
        return q
    }

    @Test("queue presents the first view at once, the rest wait in order")
    func queueOrder() throws {
        let q = makeQueue()
        let r = Recorder()
        let a = try view("a", color: "red"), b = try view("b", color: "green"), c = try view("c", color: "blue")
        for v in [a, b, c] { v.delegate = r; q.queue(mediaView: v) }
        #expect(q.current === a)
        #expect(q.views.map(\.title) == ["a", "b", "c"])
        #expect(r.log == ["willPresent a", "didPresent a"])
        q.presentNext()
        #expect(q.current === b)
        #expect(r.log.suffix(4) == ["willDismiss a", "didDismiss a", "willPresent b", "didPresent b"])
        q.dismissCurrent(animated: false)
        #expect(q.current === c)
        q.dismissCurrent(animated: false)
        #expect(q.current == nil)
        #expect(q.views.isEmpty)
    }

    @Test("present jumps the queue; dequeue removes a waiting view only")
    func jumpAndDequeue() throws {
        let q = makeQueue()
        let a = try view("a", color: "red"), b = try view("b", color: "green"), c = try view("c", color: "blue")
        q.queue(mediaView: a)
        q.queue(mediaView: b)
        q.present(mediaView: c, animated: false)
        #expect(q.current === c)
        #expect(q.views.map(\.title) == ["c", "b"])
        q.dequeue(mediaView: c)
        #expect(q.current === c, "the presented view is not dequeued")
        q.dequeue(mediaView: b)
        #expect(q.views.map(\.title) == ["c"])
        var completed = false
        let started = Date()
        q.dismissCurrent(animated: true) { completed = true }
        #expect(!completed, "an animated dismissal first fades the view out")
        #expect(q.current === c)
        QueueHarness(queue: q).pump(seconds: 10) { completed }
        #expect(completed)
        #expect(Date().timeIntervalSince(started) >= 0.2, "the fade takes a quarter second")
        #expect(q.current == nil)
    }

    @Test("presentPrevious goes back to the view dismissed last")
    func previous() throws {
        let q = makeQueue()
        let a = try view("a", color: "red"), b = try view("b", color: "green")
        q.queue(mediaView: a)
        q.queue(mediaView: b)
        q.presentNext()
        #expect(q.current === b)
        q.presentPrevious()
        #expect(q.current === a)
        #expect(q.views.map(\.title) == ["a", "b"])
    }

    @Test("Queuing the same view twice keeps one entry")
    func noDuplicates() throws {
        let q = makeQueue()
        let a = try view("a", color: "red")
        q.queue(mediaView: a)
        q.queue(mediaView: a)
        #expect(q.views.count == 1)
    }
}
