/// An X event translated into what the viewer cares about, so Viewer never sees Xlib.
public enum WindowEvent: Sendable {
    case key(KeyEvent)
    case button(ButtonEvent)
    case motion(x: Int, y: Int, rootX: Int, rootY: Int, state: UInt32, time: UInt)
    /// The window's size or position changed.
    case configured(x: Int, y: Int, width: Int, height: Int)
    /// Part of the window must be drawn again.
    case exposed
    /// The user or the window manager asked the window to close.
    case closeRequested
    case focus(isIn: Bool, window: UInt)
    case mapped(Bool)
    case pointerInside(Bool)
    /// The screen changed size (RandR, or a change of the root window).
    case screenChanged(width: Int, height: Int)
    /// Files, links or text were dropped on the window (XDND).
    case dropped(Drop)
    /// A drop was begun but did not arrive, and why (for one line to the user).
    case dropFailed(String)
    /// The clipboard's text, read for a paste; `isURIList` when it came as `text/uri-list`.
    case pasted(text: String, isURIList: Bool)
    /// A paste found nothing to read, and why.
    case pasteFailed(String)
}

/// A key press or release, with everything KeyboardSpy agents may want.
public struct KeyEvent: Sendable, Equatable {
    public var isPress: Bool
    /// The X keysym after the layout was applied.
    public var keysym: UInt
    /// mpv-style name with modifiers (`Ctrl+RIGHT`, `a`, `SPACE`), nil for bare modifiers.
    public var name: String?
    /// The text the key types in the current layout, UTF-8; empty for function keys.
    public var text: String
    /// X modifier state bits (`KeyName.Modifier`).
    public var modifiers: UInt32
    /// Whether this press repeats a held key.
    public var isAutoRepeat: Bool
    /// Server time in milliseconds.
    public var time: UInt
    /// The X window it was sent to.
    public var window: UInt
    /// Sent by another program (`XSendEvent`) rather than typed on the keyboard.
    public var isSynthetic = false
}

/// A mouse button press or release.
public struct ButtonEvent: Sendable, Equatable {
    public var isPress: Bool
    /// 1 left, 2 middle, 3 right, 4/5 wheel.
    public var button: UInt32
    public var x: Int
    public var y: Int
    public var rootX: Int
    public var rootY: Int
    public var modifiers: UInt32
    public var time: UInt
}

/// What was dropped on a window: the text a file manager or browser sent, and how.
public struct Drop: Sendable, Equatable {
    /// The data as sent: a `text/uri-list` (one URI a line, `#` comments) or plain text.
    public var text: String
    /// Whether it came as `text/uri-list` rather than plain text.
    public var isURIList: Bool
    /// The action the user chose: copy is a plain drag; move or link (a modifier held in most
    /// file managers) is anything else.
    public var isCopy: Bool
}
