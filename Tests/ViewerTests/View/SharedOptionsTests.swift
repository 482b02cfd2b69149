import Foundation
import Playback
import Testing
import TestSupport
import Windowing
@testable import Viewer

/// Views made alike (every file of a folder) hold their options once: a change to one view
/// is that view's alone, and a change for the whole queue keeps them shared.
@Suite(.serialized)
@MainActor
struct SharedOptionsTests {
    final class Heard: MediaViewDelegate {
        var presented: [String] = []
        func didPresent(mediaView: MediaView) { presented.append(mediaView.mediaURL ?? "") }
    }

    /// A template with options and an observer, and `count` views made like it.
    func alike(_ count: Int, heard: Heard) -> (template: MediaView, views: [MediaView]) {
        let template = MediaView()
        template.imageDuration = 2
        template.themeColor = Color(r: 10, g: 200, b: 30)
        template.addObserver(heard)
        let views = (0..<count).map { i -> MediaView in
            let v = MediaView(like: template)
            v.setImage(url: "/nonexistent/p\(i).png")
            v.tag = i
            return v
        }
        return (template, views)
    }

    @Test("Views made like a template have its options and observers; one view's change stays its own")
    func ownChange() throws {
        let heard = Heard()
        let (template, views) = alike(3, heard: heard)
        #expect(views.allSatisfy { $0.imageDuration == 2 && $0.themeColor == Color(r: 10, g: 200, b: 30) })
        #expect(views.allSatisfy { $0.sharesSettings(with: template) })
        #expect(views.map(\.tag) == [0, 1, 2])

        views[1].imageDuration = 9
        views[1].isMuted = true
        #expect(views[1].imageDuration == 9 && views[1].isMuted)
        #expect(views[0].imageDuration == 2 && !views[0].isMuted)
        #expect(views[2].imageDuration == 2 && template.imageDuration == 2)
        #expect(!views[1].sharesSettings(with: views[0]))
        #expect(views[0].sharesSettings(with: views[2]))

        // Titles are each view's own too, and clearing one takes nothing from the others.
        views[0].setTitle("first", details: "one")
        #expect(views[0].title == "first" && views[0].details == "one")
        #expect(views[2].title == nil)
        views[0].setTitle(nil)
        #expect(views[0].title == nil && views[0].details == nil)
    }

    @Test("The speed key changes every queued item and they still hold one copy of their options")
    func queueWideChange() throws {
        let heard = Heard()
        let (template, views) = alike(1000, heard: heard)
        let first = try Fixtures.solidImage("red", width: 64, height: 48)
        let shown = MediaView(like: template)
        shown.setImage(url: first)
        let harness = QueueHarness()
        let q = harness.queue
        q.queue(mediaViews: [shown] + views)
        harness.pump(seconds: 5) { shown.hasPicture }
        #expect(heard.presented == [first], "the observer shared from the template hears the presented view")

        q.perform(.speed(.set(1.5)))
        #expect(q.playlist.allSatisfy { $0.playbackSpeed == 1.5 })
        #expect(template.playbackSpeed == 1, "the template is not in the queue")
        // Those not opened share one changed copy; the open ones (shown, the next) may own theirs.
        let closed = views.filter { !$0.isPrepared }
        #expect(closed.count >= 998)
        #expect(closed.allSatisfy { $0.sharesSettings(with: closed[0]) })
        #expect(!closed[0].sharesSettings(with: template))
        q.shutdown()
    }
}
