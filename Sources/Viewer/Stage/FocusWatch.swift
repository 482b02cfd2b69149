/// Whether a stage's window has the keyboard focus, for the option that turns a playing
/// video into the thumbnail when the user turns to another application.
struct FocusWatch {
    /// The option is on.
    let minimizesOnBlur: Bool
    /// The focus left the window and has not come back; counts from this time.
    var lostAt: Double?

    /// How long the focus must stay away before the window shrinks: a window manager's
    /// own grab (Alt+drag, a menu) takes the focus for a moment and gives it back.
    static let settle = 0.3
}
