import Testing
@testable import Viewer
import Windowing

/// The overlay layout at each interface scale: the boxes a frame shows (title, close
/// button, track, its hover label, the name line, the side buttons, stacked messages and
/// the info panel) never intersect, and subtitles stay above the controls while they show.
@Suite
struct OverlayLayoutTests {
    static let scales: [InterfaceScale] = [.one, .oneAndHalf, .two]
    static let windows = [Rect(x: 0, y: 0, width: 1280, height: 720), Rect(x: 0, y: 0, width: 1920, height: 1080),
                          Rect(x: 0, y: 0, width: 800, height: 600), Rect(x: 0, y: 0, width: 640, height: 480)]

    /// Every pair of named boxes that intersect.
    func overlaps(_ boxes: [(name: String, rect: Rect)]) -> [String] {
        var found: [String] = []
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].rect.intersects(boxes[j].rect) {
                found.append("\(boxes[i].name) \(boxes[i].rect) / \(boxes[j].name) \(boxes[j].rect)")
            }
        }
        return found
    }

    /// The layout with every overlay showing: two title lines, the controls, side buttons,
    /// three messages and a ten-line info panel, scaled as the real ones are.
    func everything(_ b: Rect, _ sc: InterfaceScale, topBuffer: Int = 0) -> [(name: String, rect: Rect)] {
        let l = OverlayLayout(bounds: b, scale: sc, topBuffer: topBuffer,
                              content: .init(titleLines: 2, controls: true, track: true, closeButton: true, navigation: true))
        let messages = [(sc.px(140), sc.px(36)), (sc.px(420), sc.px(36)), (sc.px(3000), sc.px(36))]
        let placed = l.place(messages: messages.map { (width: $0.0, height: $0.1) }, panel: (sc.px(420), sc.px(250)))
        var boxes = l.fixedBoxes
        for (i, m) in placed.messages.enumerated() { if let m { boxes.append(("message \(i)", m)) } }
        if let p = placed.panel { boxes.append(("info panel", p)) }
        return boxes
    }

    @Test("No two overlay boxes intersect at 1x, 1.5x and 2x", arguments: scales)
    func noOverlap(scale: InterfaceScale) {
        for b in Self.windows {
            let boxes = everything(b, scale)
            // The fixed boxes and the first message always find room; later ones may give way.
            #expect(boxes.count >= 8 && boxes.contains { $0.name == "message 0" }, "\(b) at \(scale): \(boxes.map(\.name))")
            #expect(overlaps(boxes).isEmpty, "\(b) at \(scale): \(overlaps(boxes))")
            for box in boxes {
                #expect(b.intersection(box.rect) == box.rect, "\(box.name) \(box.rect) inside \(b) at \(scale)")
            }
        }
    }

    @Test("A top buffer moves the title, close button and messages down, clear of each other", arguments: scales)
    func topBuffer(scale: InterfaceScale) throws {
        let b = Rect(x: 0, y: 0, width: 1280, height: 720)
        let boxes = everything(b, scale, topBuffer: 40)
        #expect(overlaps(boxes).isEmpty, "\(overlaps(boxes))")
        #expect(boxes.allSatisfy { $0.rect.y >= 40 }, "nothing in the buffer: \(boxes)")
    }

    @Test("Messages stack below the title, the newest lowest, and do not move when one is added")
    func messagesStack() throws {
        let l = OverlayLayout(bounds: Rect(x: 0, y: 0, width: 1280, height: 720), scale: .one,
                              content: .init(titleLines: 1, controls: true, track: true, closeButton: true))
        let one = l.place(messages: [(200, 36)], panel: nil).messages
        let two = l.place(messages: [(200, 36), (300, 36)], panel: nil).messages
        let first = try #require(one[0]), second = try #require(two[1])
        #expect(two[0] == first)
        #expect(second.y >= first.maxY)
        let title = try #require(l.title)
        #expect(first.y >= title.maxY, "below the title")
    }

    @Test("Subtitles lift above the track, its label and the name line while the controls show", arguments: scales)
    func subtitlesLift(scale: InterfaceScale) throws {
        let b = Rect(x: 0, y: 0, width: 1280, height: 720)
        let shown = OverlayLayout(bounds: b, scale: scale, content: .init(titleLines: 1, controls: true, track: true))
        let hidden = OverlayLayout(bounds: b, scale: scale, content: .init(titleLines: 1, controls: false, track: true))
        #expect(hidden.subtitleFloor == b.height, "nothing to avoid when the controls hide")
        let top = try #require([shown.track, shown.hoverRow, shown.nameLine].compactMap { $0 }.map(\.y).min())
        #expect(shown.subtitleFloor <= top)
        #expect(hidden.track == nil && hidden.title == nil && hidden.closeButton == nil)
    }

    @Test("In a narrow window the info panel goes under the messages instead of beside them")
    func narrowPanel() throws {
        let l = OverlayLayout(bounds: Rect(x: 0, y: 0, width: 480, height: 640), scale: .one,
                              content: .init(titleLines: 1, controls: true, track: true))
        let placed = l.place(messages: [(300, 36)], panel: (300, 200))
        let m = try #require(placed.messages[0]), p = try #require(placed.panel)
        #expect(!m.intersects(p) && p.y >= m.maxY, "\(m) \(p)")
    }

    @Test("The track band is 44 px at 1x and scales with the interface", arguments: scales)
    func trackBand(scale: InterfaceScale) {
        let band = OverlayLayout.trackBand(in: Rect(x: 0, y: 0, width: 1280, height: 720), scale: scale)
        #expect(band.height == scale.px(44) && band.maxY == 720 - scale.px(8))
    }
}
