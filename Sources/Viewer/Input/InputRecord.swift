/// One key or mouse button event as the viewer handled it: what came in, on which window,
/// and what took it or why nothing did. An app logs these (`presentation.onInput`) so a key
/// that did nothing can be told from a key that never arrived.
public struct InputRecord: Sendable, Equatable {
    /// A key of the keyboard or a button of the mouse (the wheel is buttons 4 to 7).
    public enum Device: String, Sendable {
        case key
        case button
    }

    /// Keyboard or mouse.
    public var device: Device
    /// The binding name (`q`, `Ctrl+RIGHT`, `MBTN_LEFT`, `WHEEL_UP`); nil for a bare
    /// modifier key or a button with no name.
    public var name: String?
    /// A press (or wheel step) rather than a release.
    public var isPress: Bool
    /// The X window the event came to.
    public var window: UInt
    /// Sent by another program (`XSendEvent`) rather than typed or clicked.
    public var isSynthetic: Bool
    /// The keyboard's repeat of a held key.
    public var isAutoRepeat: Bool
    /// What took the event, or why nothing did.
    public var outcome: InputOutcome

    /// A record of these facts.
    public init(device: Device, name: String?, isPress: Bool, window: UInt, isSynthetic: Bool = false,
                isAutoRepeat: Bool = false, outcome: InputOutcome) {
        self.device = device
        self.name = name
        self.isPress = isPress
        self.window = window
        self.isSynthetic = isSynthetic
        self.isAutoRepeat = isAutoRepeat
        self.outcome = outcome
    }
}

/// What became of a key or button event.
public enum InputOutcome: Sendable, Equatable {
    /// A bound command ran.
    case taken(PlayerCommand)
    /// Nothing is bound to the name.
    case unbound
    /// The keyboard's repeat of a held key whose command acts once per press (a pin, a
    /// dismissal, the next item, quit): dropped.
    case heldRepeat(PlayerCommand)
    /// A release: commands act on presses.
    case release
    /// A bare modifier or a button with no name: nothing can be bound to it.
    case unnamed
    /// The left button: it clicks, drags, scrubs and holds rather than running a binding
    /// by itself.
    case gesture
    /// Ctrl and the wheel on the thumbnail: it grows or shrinks.
    case thumbnailResize
    /// The wheel over the thumbnail's speaker or volume slider: the sound goes up or down.
    case thumbnailVolume
    /// The gallery showed and has no binding for it: it takes the event so nothing acts
    /// behind the grid.
    case galleryConsumed

    /// Whether a command ran.
    public var isTaken: Bool {
        if case .taken = self { return true }
        return false
    }
}
