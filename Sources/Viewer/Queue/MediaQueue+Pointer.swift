/// When the pointer hides, changed while the queue runs.
extension MediaQueue {
    /// When the pointer hides over the queue's window: `presentation.pointerHiding`, and
    /// once the window is up the window at once, so a script that sets it (mpv's
    /// `cursor-autohide`) sees the pointer follow on the loop's next turn.
    public var pointerHiding: PointerHiding {
        get { presentation.pointerHiding }
        set {
            presentation.pointerHiding = newValue
            screen?.stage.controls.pointerHiding = newValue
        }
    }
}
