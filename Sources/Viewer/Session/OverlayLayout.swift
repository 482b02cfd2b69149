import Windowing

/// Where every overlay over the media goes in one frame: the title band and close button
/// at the top, messages below the title, the info panel at the top right, the previous
/// and next buttons at the sides, and at the bottom the track, the time label that
/// follows the pointer above it, the name/position line, and the floor the subtitles stay
/// above. One value decides it all from the window's size and the interface scale, so no
/// two of them are ever drawn over each other, at 1x, 1.5x or 2x.
struct OverlayLayout: Equatable {
    /// What the frame shows, which decides what needs room.
    struct Content: Equatable {
        /// Lines of title text: 0 (none), 1 (a title or details) or 2 (both).
        var titleLines = 0
        /// The controls (title, close button, track) show now.
        var controls = true
        /// The media plays in time, so it has a track.
        var track = true
        /// The close button shows.
        var closeButton = true
        /// The previous and next buttons show.
        var navigation = false
    }

    let bounds: Rect
    let scale: InterfaceScale
    /// The shaded band behind the title and close button; nil when controls are hidden.
    let topShade: Rect?
    /// The title's lines, left of the close button.
    let title: Rect?
    let closeButton: Rect?
    /// The shaded band behind the track, its label and the name line.
    let bottomShade: Rect?
    /// The band that holds the track and its time labels.
    let track: Rect?
    /// The row above the track where the time under the pointer shows.
    let hoverRow: Rect?
    /// The row above that for the item's name and place in the queue.
    let nameLine: Rect?
    let previousButton: Rect?
    let nextButton: Rect?
    /// Subtitles end above this row, so the controls never cover them.
    let subtitleFloor: Int
    /// Where messages and the info panel may start: below the title band or the top buffer.
    let contentTop: Int

    /// The gap between neighbouring overlays and from the window's edges.
    var margin: Int { scale.px(16) }

    init(bounds: Rect, scale: InterfaceScale, topBuffer: Int = 0, content c: Content) {
        self.bounds = bounds
        self.scale = scale
        let m = scale.px(16)
        let top = max(0, topBuffer)
        let controls = c.controls
        closeButton = controls && c.closeButton
            ? Rect(x: bounds.width - scale.px(52), y: top + scale.px(12), width: scale.px(40), height: scale.px(40)) : nil
        let titleHeight = c.titleLines == 0 ? 0 : c.titleLines == 1 ? scale.px(30) : scale.px(54)
        title = controls && c.titleLines > 0
            ? Rect(x: m, y: top + scale.px(14), width: max(0, bounds.width - m - scale.px(68)), height: titleHeight) : nil
        let topContent = max(title?.maxY ?? top, closeButton?.maxY ?? top)
        topShade = controls ? Rect(x: 0, y: top, width: bounds.width, height: topContent - top + scale.px(36)) : nil
        contentTop = controls ? topContent + scale.px(12) : top + m
        if controls && c.track {
            let t = Self.trackBand(in: bounds, scale: scale)
            let hover = Rect(x: m, y: t.y - scale.px(30), width: t.width, height: scale.px(26))
            let name = Rect(x: m, y: hover.y - scale.px(26), width: t.width, height: scale.px(24))
            track = t
            hoverRow = hover
            nameLine = name
            // The shade fades out above the name line, but never reaches the picture's middle:
            // in a small window the subject keeps its true colours under the controls.
            let shadeTop = max(name.y - scale.px(40), bounds.height / 2 + scale.px(8))
            bottomShade = Rect(x: 0, y: shadeTop, width: bounds.width, height: bounds.height - shadeTop)
            subtitleFloor = name.y - scale.px(8)
        } else {
            track = nil
            hoverRow = nil
            nameLine = nil
            bottomShade = controls ? Rect(x: 0, y: bounds.height - scale.px(80), width: bounds.width, height: scale.px(80)) : nil
            subtitleFloor = bounds.height
        }
        if controls && c.navigation {
            let side = scale.px(48)
            let y = (contentTop + (nameLine?.y ?? bounds.height - m)) / 2 - side / 2
            previousButton = Rect(x: m, y: y, width: side, height: side)
            nextButton = Rect(x: bounds.width - m - side, y: y, width: side, height: side)
        } else {
            previousButton = nil
            nextButton = nil
        }
    }

    /// The band along the bottom that holds the track and its time labels.
    static func trackBand(in bounds: Rect, scale: InterfaceScale) -> Rect {
        let m = scale.px(16)
        return Rect(x: m, y: bounds.height - scale.px(52), width: max(0, bounds.width - 2 * m), height: scale.px(44))
    }

    /// The lowest row an overlay at the top may reach: above the bottom controls (and the
    /// side buttons' row), so a long info panel is cut rather than drawn over the track.
    var contentBottom: Int { (nameLine?.y ?? bounds.height) - scale.px(8) }

    /// The lowest row the info panel may reach: above where subtitles usually sit (a fifth
    /// of the window above their floor), but never less than half the room under the title.
    var panelBottom: Int {
        max(subtitleFloor - max(scale.px(72), bounds.height / 5), contentTop + (contentBottom - contentTop) / 2)
    }

    /// The columns messages and the info panel may use: between the side buttons, or the
    /// window less its margins.
    var noticeColumns: (left: Int, right: Int) {
        let gap = scale.px(8)
        return (previousButton.map { $0.maxX + gap } ?? margin, nextButton.map { $0.x - gap } ?? bounds.width - margin)
    }

    /// The widest a message may be.
    var messageWidth: Int { max(scale.px(40), noticeColumns.right - noticeColumns.left) }

    /// Where messages of these sizes go, oldest first and each below the one before, at the
    /// left below the title; and the info panel of `panel` size at the right, or below the
    /// messages when the window is too narrow for both side by side. Boxes that would reach
    /// past `contentBottom` are left out (nil) rather than drawn over the controls.
    func place(messages: [(width: Int, height: Int)], panel: (width: Int, height: Int)?) -> (messages: [Rect?], panel: Rect?) {
        let gap = scale.px(8)
        let (left, right) = noticeColumns
        var y = contentTop
        var boxes: [Rect?] = []
        var widest = 0
        for m in messages {
            let box = Rect(x: left, y: y, width: min(m.width, messageWidth), height: m.height)
            if box.maxY > contentBottom { boxes.append(nil); continue }
            boxes.append(box)
            widest = max(widest, box.maxX)
            y = box.maxY + gap
        }
        guard let p = panel else { return (boxes, nil) }
        let beside = Rect(x: right - p.width, y: contentTop, width: p.width, height: p.height)
        var box = beside
        if widest > 0 && beside.x < widest + margin {
            // Too narrow for both: the panel goes under the messages.
            box = Rect(x: left, y: y, width: min(p.width, right - left), height: p.height)
        }
        box.x = max(left, box.x)
        box.width = min(box.width, right - box.x)
        box.height = min(box.height, panelBottom - box.y)
        return (boxes, box.height > 0 && box.width > 0 ? box : nil)
    }

    /// Every box the frame shows, named, for checking that none overlaps another.
    var fixedBoxes: [(name: String, rect: Rect)] {
        let named: [(String, Rect?)] = [("title", title), ("close", closeButton), ("track", track), ("hover", hoverRow),
                                        ("name", nameLine), ("previous", previousButton), ("next", nextButton)]
        return named.compactMap { n in n.1.map { (n.0, $0) } }
    }
}
