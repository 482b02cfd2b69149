import Windowing

/// The previous and next buttons at the left and right edges of a still, as every photo
/// viewer has them: a mouse user browses a folder without learning a key. They show while
/// the controls do (the pointer moved lately) and a click on one steps through the queue,
/// with "First item" / "Last item" at the ends as the keys give.
///
/// The look is deliberately plain (a dark disc with a white chevron); the layout and the
/// hit test are here in one place so the look can change without touching the input.
struct NavigationButtons {
    /// Which way a button steps.
    enum Side: Equatable {
        case previous, next

        /// The queue command a click on it carries out.
        var command: PlayerCommand { self == .previous ? .previous : .next }
    }

    /// The window's bounds the buttons are laid out in.
    let bounds: Rect
    let scale: InterfaceScale
    /// The buttons shown: only those with an item to step to, as eog and Loupe show them.
    var sides: [Side] = [.previous, .next]

    /// The button's disc, vertically centred at its edge.
    func rect(_ side: Side) -> Rect {
        let d = scale.px(48), margin = scale.px(16)
        let x = side == .previous ? margin : bounds.width - margin - d
        return Rect(x: x, y: (bounds.height - d) / 2, width: d, height: d)
    }

    /// The button under a point, counting a margin around each disc so it is easy to hit.
    func hit(x: Int, y: Int) -> Side? {
        let slack = scale.px(10)
        for side in sides {
            let r = rect(side)
            let area = Rect(x: r.x - slack, y: r.y - slack, width: r.width + 2 * slack, height: r.height + 2 * slack)
            if area.contains(x: x, y: y) { return side }
        }
        return nil
    }

    /// Draws the buttons shown.
    func draw(on canvas: Canvas) {
        for side in sides {
            let r = rect(side)
            canvas.fillCircle(in: r, color: Color.black.withAlpha(fraction: 0.55))
            let cx = Double(r.x) + Double(r.width) / 2, cy = Double(r.y) + Double(r.height) / 2
            let arm = Double(r.width) * 0.18
            // The chevron points the way it steps.
            let tipX = side == .previous ? cx - arm / 2 : cx + arm / 2
            let backX = side == .previous ? cx + arm / 2 : cx - arm / 2
            let thick = Double(max(2, scale.px(4)))
            canvas.drawLine(from: (backX, cy - arm), to: (tipX, cy), thickness: thick, color: .white)
            canvas.drawLine(from: (tipX, cy), to: (backX, cy + arm), thickness: thick, color: .white)
        }
    }
}
