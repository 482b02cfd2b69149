import Foundation
import Testing
import TestSupport
@testable import Viewer

/// Browsing a queue from code: many views at once with some already seen, the first and
/// last item, both neighbours kept open, and the trash from the library.
@Suite(.serialized)
@MainActor
struct QueueBrowseTests {
    func views(_ count: Int, color: String = "red") throws -> [MediaView] {
        let still = try Fixtures.solidImage(color, width: 64, height: 48)
        return (0..<count).map { i in
            let v = MediaView()
            v.setImage(url: still)
            v.setTitle("item \(i)")
            return v
        }
    }

    @Test func startingInTheMiddleKeepsBothNeighboursOpen() throws {
        let h = QueueHarness()
        let v = try views(6)
        h.queue.queue(mediaViews: v, startIndex: 3)
        #expect(h.queue.current === v[3])
        h.pump(seconds: 5) { v[2].info != nil && v[4].info != nil && v[3].hasPicture }
        #expect(v[2].info != nil, "the previous item was not opened ahead")
        #expect(v[4].info != nil, "the next item was not opened ahead")
        #expect([0, 1, 5].allSatisfy { !v[$0].isPrepared }, "only neighbours hold sessions")

        h.queue.presentPrevious()
        #expect(h.queue.current === v[2])
        h.queue.presentLastItem()
        #expect(h.queue.current === v[5])
        h.queue.presentFirstItem()
        #expect(h.queue.current === v[0])
        // And forward again from the start visits every item in order.
        var seen = [0]
        while h.queue.views.count > 1 {
            h.queue.presentNext()
            seen.append(v.firstIndex { $0 === h.queue.current } ?? -1)
        }
        #expect(seen == [0, 1, 2, 3, 4, 5])
        let holding = v.filter { $0.isPrepared }.count
        #expect(holding <= 2, "sessions held at the end: \(holding)")
        h.queue.shutdown()
    }

    @Test func trashAndUndoFromCode() throws {
        let base = try #require(ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"])
        let dir = base + "/queue-trash-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let still = try Fixtures.solidImage("blue", width: 64, height: 48)
        let paths = (0..<2).map { dir + "/p\($0).png" }
        for p in paths { try FileManager.default.copyItem(atPath: still, toPath: p) }
        let h = QueueHarness()
        h.queue.presentation.trash = Trash(homeTrash: dir + "/Trash")
        let v = paths.map { p -> MediaView in let m = MediaView(); m.setImage(url: p); return m }
        h.queue.queue(mediaViews: v)
        h.queue.trashCurrent()
        #expect(!FileManager.default.fileExists(atPath: paths[0]))
        #expect(FileManager.default.fileExists(atPath: dir + "/Trash/files/p0.png"))
        #expect(h.queue.current === v[1])
        #expect(v[1].messageText == "Moved p0.png to the trash (u brings it back)")
        h.queue.undoTrash()
        #expect(FileManager.default.fileExists(atPath: paths[0]))
        #expect(h.queue.current === v[0])
        #expect(v[0].messageText == "Brought back p0.png")
        h.queue.shutdown()
    }

    /// A refusal is said on screen too: whoever pressed Delete may have no terminal.
    @Test func aRefusalIsShownOnScreen() throws {
        let h = QueueHarness()
        let web = MediaView()
        web.setImage(url: "http://127.0.0.1:9/picture.png")
        h.queue.queue(mediaViews: [web])
        h.queue.trashCurrent()
        #expect(h.queue.current === web)
        #expect(web.messageText == "Not moved to the trash: it is on the web, not a file on this computer")
        h.queue.shutdown()
    }
}
