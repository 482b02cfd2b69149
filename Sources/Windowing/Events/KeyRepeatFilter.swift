import CX11

/// Tells the keyboard's auto-repeat of a held key from a key pressed again, so a held key
/// repeats what is meant to repeat and a second press of `q` or `n` is never mistaken for
/// a repeat and dropped.
///
/// The X server is asked for detectable auto-repeat (XKB), as mpv does: a held key then
/// sends presses with no releases in between, so a press of a key already down is a
/// repeat. A server without XKB sends a release and a press with the same time for each
/// repeat; that pair is recognised only when it is real (not sent by another program) and
/// in one window. Events another program sent (`XSendEvent`, which `xdotool key --window`
/// uses when the window lacks the focus) all carry time 0 and never come from a held key,
/// so they are never repeats and do not change what is held.
struct KeyRepeatFilter {
    /// The server reports repeats as presses without releases.
    let serverDetects: Bool
    /// Keys down, by keycode, from real presses seen.
    private var held: Set<UInt32> = []
    /// The real release just before, for servers without detectable auto-repeat.
    private var lastRelease: (code: UInt32, time: UInt, window: UInt)?

    /// Asks the server of `display` for detectable auto-repeat for this client.
    init(display: XDisplay) {
        var supported: Int32 = 0
        serverDetects = XkbSetDetectableAutoRepeat(display.raw, 1, &supported) != 0 && supported != 0
    }

    /// A filter with a known server behaviour (for tests of the rules).
    init(serverDetects: Bool) {
        self.serverDetects = serverDetects
    }

    /// Whether this key event is a press that repeats a held key; notes what it changes.
    mutating func isRepeat(press: Bool, code: UInt32, time: UInt, window: UInt, synthetic: Bool) -> Bool {
        guard !synthetic else {
            lastRelease = nil
            return false
        }
        if serverDetects {
            if press { return !held.insert(code).inserted }
            held.remove(code)
            return false
        }
        defer { lastRelease = press ? nil : (code, time, window) }
        guard press, let last = lastRelease else { return false }
        return last.code == code && last.time == time && last.window == window
    }

    /// The keyboard focus moved: releases of keys held now go elsewhere, so nothing is
    /// taken as held any more.
    mutating func forgetHeldKeys() {
        held.removeAll()
        lastRelease = nil
    }

    /// The keys down as the window got the focus or the pointer (the server's KeymapNotify,
    /// one bit a keycode): a key already held then repeats as held, and one pressed later
    /// is a new press.
    mutating func keysDown(_ vector: [UInt8]) {
        held.removeAll()
        for code in 8..<min(256, vector.count * 8) {
            let bit = UInt8(1) << UInt8(code % 8)
            if vector[code / 8] & bit != 0 { held.insert(UInt32(code)) }
        }
    }
}
