import Windowing

/// The viewer's windows, to give the keyboard focus back from whichever holds it.
///
/// Held weakly: a window that closed has nothing to give back.
@MainActor
enum KeyboardDismissal {
    private final class Entry {
        weak var window: XWindow?
        init(_ window: XWindow) { self.window = window }
    }
    private static var entries: [Entry] = []

    /// Counts `window` among those `dismissKeyboard()` looks at.
    static func register(_ window: XWindow) {
        entries.removeAll { $0.window == nil }
        entries.append(Entry(window))
    }

    /// Gives the focus back from the window that holds it; false when none of ours does.
    static func dismiss() -> Bool {
        entries.removeAll { $0.window == nil }
        return entries.contains { $0.window?.giveFocusBack() == true }
    }
}

/// Gives the keyboard focus back: the viewer's window that holds it hands it to the window
/// that had it before (or, when there was none or it has gone, to the window under the
/// pointer). The typing is over for this window, as a dismissed keyboard's is, and
/// `KeyboardSpy` reports `willHide` and `didHide` as for any focus that leaves. Does
/// nothing when no viewer window has the focus.
@MainActor
public func dismissKeyboard() {
    _ = KeyboardDismissal.dismiss()
}
