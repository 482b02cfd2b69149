import Playback
import Windowing

/// The gallery's input: keys and the wheel through the `{gallery}` bindings, a click on a
/// cell opens its item. What it does not take (the window's own events, drops) goes on to
/// the stage.
extension Gallery {
    /// Handles `e` if it is the gallery's; false leaves it to the stage.
    func handle(_ e: WindowEvent, on stage: Stage) -> Bool {
        switch e {
        case .key(let k):
            KeyboardSpy.shared.dispatch(k)
            stage.take(k, section: "gallery")
            return true
        case .button(let b) where b.button == 1:
            stage.report(b, window: stage.window.id, .gesture)
            if b.isPress {
                press = (b.x, b.y)
            } else if let p = press {
                press = nil
                // A click, not a drag: the item under it opens.
                guard abs(b.x - p.x) < 6, abs(b.y - p.y) < 6,
                      let i = layout(in: stage.bounds, scale: scale(on: stage)).index(atX: b.x, y: b.y) else { return true }
                select(i, in: layout(in: stage.bounds, scale: scale(on: stage)))
                hide(opening: i, on: stage)
            }
            return true
        case .button(let b):
            stage.take(b, window: stage.window.id, section: "gallery")
            return true
        case .motion(let x, let y, _, _, _, _):
            // Where the pointer rests decides which video cell plays (`turnHover`).
            hover.pointer = (x, y)
            return true
        case .pointerInside(false):
            hover.pointer = nil
            // The stage follows the pointer too, for when the grid is left.
            return false
        default:
            return false
        }
    }
}
