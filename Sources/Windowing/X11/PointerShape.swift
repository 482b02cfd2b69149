/// What the pointer looks like over a window: what the user can do where it rests.
public enum PointerShape: Sendable, Hashable {
    /// The desktop's own pointer: the window sets none.
    case standard
    /// No pointer, over a playing video or a fullscreen picture while the controls are hidden,
    /// as video players and photo viewers hide it.
    case hidden
    /// An open hand: a drag moves the picture under it.
    case grab
    /// A closed hand: the picture is being dragged.
    case grabbing

    /// The name the desktop's cursor themes and the CSS cursor list give it.
    var themeName: String {
        switch self {
        case .standard: "default"
        case .hidden: "none"
        case .grab: "grab"
        case .grabbing: "grabbing"
        }
    }
}
