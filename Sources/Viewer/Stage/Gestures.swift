import Windowing

/// What the left button is doing on a stage: a press that may become a click, a scrub of
/// the track, a drag that pans a zoomed picture, or one that minimizes or throws the view away.
struct Gestures {
    /// X's mask for "left button held" in a motion event's state.
    static let leftButtonHeld: UInt32 = 1 << 8

    /// Where and when the button went down.
    struct Press {
        var x: Int, y: Int, rootX: Int, rootY: Int
        var time: Double
        /// X's modifier mask at the press (Alt moves a thumbnail).
        var modifiers: UInt32
    }

    /// What a left-button drag is doing.
    enum Drag {
        case minimize(startedMinimized: Bool, progress: Double)
        case thumbnailAway(dx: Int)
        case dismissDown(dy: Int)
        /// Alt+drag of the thumbnail: it follows the pointer from where it was.
        case move(start: Rect)
        /// A drag that began on the thumbnail's border: it resizes from there.
        case resize(start: Rect, edges: ThumbnailSnap.Edges)
        /// A drag over a picture zoomed past the window moves the picture with the pointer,
        /// as in every image viewer; `undrawn`: it moved since the last frame.
        case pan(lastX: Int, lastY: Int, undrawn: Bool)
    }

    /// X's mask for Alt (Mod1), the X11 convention for moving a window by dragging it.
    static let altHeld: UInt32 = 1 << 3
    /// X's mask for Ctrl.
    static let ctrlHeld: UInt32 = 1 << 2

    var press: Press?
    /// The press began on the track: motion scrubs instead of dragging the view.
    var scrubbing = false
    var drag: Drag?
    /// The frame the drag started from.
    var dragStart: Rect?
    /// `didChange...` was told for this drag.
    var notifiedChange = false
    /// Recent pointer heights, for the speed of a throw.
    var samples: [(y: Int, t: Double)] = []
    /// The last click, to recognise a double click.
    var lastClick: (time: UInt, x: Int, y: Int)?

    mutating func pressed(at b: ButtonEvent, now: Double, onTrack: Bool) {
        press = Press(x: b.x, y: b.y, rootX: b.rootX, rootY: b.rootY, time: now, modifiers: b.modifiers)
        scrubbing = onTrack
        samples = [(b.rootY, now)]
    }

    mutating func released() {
        press = nil
        scrubbing = false
    }

    mutating func sample(y: Int, now: Double) {
        samples.append((y, now))
        if samples.count > 8 { samples.removeFirst() }
    }

    /// Whether a click at this place and time is the second of a double click (the first
    /// is remembered otherwise).
    mutating func isDoubleClick(x: Int, y: Int, time: UInt) -> Bool {
        if let last = lastClick, time &- last.time < 400, abs(last.x - x) < 8, abs(last.y - y) < 8 {
            lastClick = nil
            return true
        }
        lastClick = (time, x, y)
        return false
    }

    /// Pixels per second of the pointer's recent downward motion.
    var downwardVelocity: Double {
        guard let first = samples.first, let last = samples.last, last.t > first.t else { return 0 }
        return Double(last.y - first.y) / (last.t - first.t)
    }
}

/// The window moving between two frames (snap, slide out, grow from a rectangle), advanced
/// by the main loop at the display's pace.
struct StageAnimation {
    var from: Rect
    var to: Rect
    var start: Double
    var duration: Double
    var fade: (from: Double, to: Double)
    /// Reports the progress (0...1) of the frame just set, for `didChangeOffset`.
    var offset: ((Double) -> Void)?
    var done: @MainActor () -> Void
}
