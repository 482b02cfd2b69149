/// mpv-style names for keys and mouse buttons, from X11 input and from what users write.
///
/// The X11 side turns a keysym (or a button number) plus the event's modifier state into
/// the name a binding table is keyed by: `a`, `A`, `?`, `SPACE`, `Ctrl+RIGHT`,
/// `Shift+WHEEL_UP`, `MBTN_LEFT_DBL`. The user side, `normalize(_:)`, turns whatever
/// spelling a person wrote in input.conf (`ctrl+Right`, `space`, `Esc`) into that same
/// canonical name, so one dictionary lookup connects the two.
///
/// Canonical form: modifiers in the order `Ctrl+`, `Alt+`, `Shift+`, `Meta+`; special keys
/// in upper case; character keys as the character itself. Shift never prefixes a character
/// key, because the character already carries it (`A`, `?`); for the same reason `#`,
/// which would start a comment in input.conf, is called `SHARP` as in mpv.
/// The keysym values are copied from X11/keysym.h so this file needs no X import.
public enum KeyName {
    /// Modifier bits of an X event's `state` field (X.h).
    public enum Modifier {
        public static let shift: UInt32 = 1 << 0
        public static let lock: UInt32 = 1 << 1
        public static let control: UInt32 = 1 << 2
        public static let alt: UInt32 = 1 << 3      // Mod1
        public static let meta: UInt32 = 1 << 6     // Mod4, the Super/Windows key
    }

    /// Name of a key press, or nil for keys that have no name here (bare modifiers, dead
    /// keys) and so can never be bound.
    public static func name(keysym: UInt, state: UInt32) -> String? {
        if let special = specialKeys[keysym] {
            return prefix(state, includeShift: true) + special
        }
        guard let scalar = characterScalar(keysym) else { return nil }
        var character = Character(scalar)
        if character.isLetter {
            // Shift decides the case. An upper-case keysym without Shift is taken at its
            // word unless Caps Lock is on: then it came from Caps Lock, which should not
            // turn `f` (fullscreen) into `F` behind the user's back.
            let upper = state & Modifier.shift != 0
                || (character.isUppercase && state & Modifier.lock == 0)
            character = Character(upper ? String(character).uppercased() : String(character).lowercased())
        }
        return prefix(state, includeShift: false) + characterName(character)
    }

    /// Name of a mouse button press: X buttons 1-3 are the buttons, 4-7 the wheel,
    /// 8-9 back/forward. `doubleClick` only changes the left button's name.
    public static func name(button: UInt32, state: UInt32, doubleClick: Bool = false) -> String? {
        let base: String
        switch button {
        case 1: base = doubleClick ? "MBTN_LEFT_DBL" : "MBTN_LEFT"
        case 2: base = "MBTN_MID"
        case 3: base = "MBTN_RIGHT"
        case 4: base = "WHEEL_UP"
        case 5: base = "WHEEL_DOWN"
        case 6: base = "WHEEL_LEFT"
        case 7: base = "WHEEL_RIGHT"
        case 8: base = "MBTN_BACK"
        case 9: base = "MBTN_FORWARD"
        default: return nil
        }
        return prefix(state, includeShift: true) + base
    }

    /// The canonical spelling of a key name a person wrote, or nil if it names no key.
    ///
    /// Modifier and special names are case-insensitive (`ctrl+right` is `Ctrl+RIGHT`);
    /// a single character keeps its case, since `a` and `A` are different keys.
    /// `Shift+a` becomes `A`, and Shift on any other character is dropped.
    public static func normalize(_ text: String) -> String? {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // "Ctrl++" and "+" name the plus key: the split leaves two empty strings at the end.
        if parts.count >= 2, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("+")
        }
        guard let keyPart = parts.popLast(), !keyPart.isEmpty else { return nil }
        var state: UInt32 = 0
        for part in parts {
            guard let bit = modifierNames[part.lowercased()] else { return nil }
            state |= bit
        }
        if keyPart.count == 1, let character = keyPart.first {
            guard !character.isWhitespace, !character.unicodeScalars.contains(where: isControl) else {
                return nil
            }
            var key = character
            if state & Modifier.shift != 0, key.isLetter {
                key = Character(String(key).uppercased())
            }
            return prefix(state, includeShift: false) + characterName(key)
        }
        let upper = keyPart.uppercased()
        if upper == "SHARP" { return prefix(state, includeShift: false) + "SHARP" }
        guard let canonical = specialNameAliases[upper] ?? (specialNames.contains(upper) ? upper : nil) else {
            return nil
        }
        return prefix(state, includeShift: true) + canonical
    }

    private static func prefix(_ state: UInt32, includeShift: Bool) -> String {
        var result = ""
        if state & Modifier.control != 0 { result += "Ctrl+" }
        if state & Modifier.alt != 0 { result += "Alt+" }
        if includeShift, state & Modifier.shift != 0 { result += "Shift+" }
        if state & Modifier.meta != 0 { result += "Meta+" }
        return result
    }

    private static func characterName(_ character: Character) -> String {
        character == "#" ? "SHARP" : String(character)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The character a keysym types: Latin-1 keysyms equal their code point, and
    /// keysyms 0x0100_0000 + U are Unicode code point U (keysym.h's own convention).
    private static func characterScalar(_ keysym: UInt) -> Unicode.Scalar? {
        let code: UInt
        switch keysym {
        case 0x21...0x7E, 0xA1...0xFF: code = keysym
        case 0x0100_00A0...0x0110_FFFF: code = keysym - 0x0100_0000
        default:
            if let operatorCharacter = keypadOperators[keysym] { return operatorCharacter }
            return nil
        }
        guard let scalar = Unicode.Scalar(UInt32(code)), !isControl(scalar) else { return nil }
        return scalar
    }

    /// Keypad operators type the same characters as their main-keyboard twins, as in mpv,
    /// so `+` zooms whichever `+` is pressed.
    private static let keypadOperators: [UInt: Unicode.Scalar] = [
        0xFFAA: "*", 0xFFAB: "+", 0xFFAC: ",", 0xFFAD: "-", 0xFFAE: ".", 0xFFAF: "/", 0xFFBD: "=",
    ]

    private static let specialKeys: [UInt: String] = {
        var table: [UInt: String] = [
            0x0020: "SPACE", 0xFF80: "SPACE",                  // space, KP_Space
            0xFF0D: "ENTER", 0xFF8D: "ENTER",                  // Return, KP_Enter
            0xFF1B: "ESC",
            0xFF09: "TAB", 0xFE20: "TAB", 0xFF89: "TAB",       // Tab, ISO_Left_Tab, KP_Tab
            0xFF08: "BS",
            0xFFFF: "DEL", 0xFF9F: "DEL",                      // Delete, KP_Delete
            0xFF63: "INS",
            0xFF50: "HOME", 0xFF57: "END",
            0xFF55: "PGUP", 0xFF56: "PGDWN",                   // Prior, Next
            0xFF51: "LEFT", 0xFF52: "UP", 0xFF53: "RIGHT", 0xFF54: "DOWN",
            // The keyboard's media keys (XF86keysym.h), with mpv's names, so the play and
            // next keys work while the window has the focus.
            0x1008FF14: "PLAY", 0x1008FF31: "PAUSE", 0x1008FF15: "STOP",
            0x1008FF16: "PREV", 0x1008FF17: "NEXT",
            0x1008FF12: "MUTE", 0x1008FF11: "VOLUME_DOWN", 0x1008FF13: "VOLUME_UP",
        ]
        for n in 0..<24 { table[0xFFBE + UInt(n)] = "F\(n + 1)" }
        for n in 0...9 { table[0xFFB0 + UInt(n)] = "KP\(n)" }
        // With Num Lock off the keypad sends navigation keysyms; they are still the
        // keypad's digit keys, so a binding on KP4 works either way.
        let keypadNavigation: [(UInt, Int)] = [
            (0xFF9E, 0), (0xFF9C, 1), (0xFF99, 2), (0xFF9B, 3), (0xFF96, 4),
            (0xFF9D, 5), (0xFF98, 6), (0xFF95, 7), (0xFF97, 8), (0xFF9A, 9),
        ]
        for (keysym, digit) in keypadNavigation { table[keysym] = "KP\(digit)" }
        return table
    }()

    private static let specialNames: Set<String> = Set(specialKeys.values).union([
        "MBTN_LEFT", "MBTN_RIGHT", "MBTN_MID", "MBTN_LEFT_DBL", "MBTN_BACK", "MBTN_FORWARD",
        "WHEEL_UP", "WHEEL_DOWN", "WHEEL_LEFT", "WHEEL_RIGHT",
    ])

    /// Other spellings people use, mostly X11's and mpv's own older ones.
    private static let specialNameAliases: [String: String] = [
        "RETURN": "ENTER", "KP_ENTER": "ENTER", "ESCAPE": "ESC", "BACKSPACE": "BS",
        "DELETE": "DEL", "INSERT": "INS", "PGDN": "PGDWN", "PAGEUP": "PGUP",
        "PAGEDOWN": "PGDWN", "PRIOR": "PGUP",
        // NEXT is mpv's media key, not X11's name for Page Down.
        "XF86AUDIOPLAY": "PLAY", "XF86AUDIOPAUSE": "PAUSE", "XF86AUDIOSTOP": "STOP",
        "XF86AUDIOPREV": "PREV", "XF86AUDIONEXT": "NEXT", "XF86AUDIOMUTE": "MUTE",
        "XF86AUDIOLOWERVOLUME": "VOLUME_DOWN", "XF86AUDIORAISEVOLUME": "VOLUME_UP",
        "MOUSE_BTN0": "MBTN_LEFT", "MOUSE_BTN1": "MBTN_MID", "MOUSE_BTN2": "MBTN_RIGHT",
        "MOUSE_BTN3": "WHEEL_UP", "MOUSE_BTN4": "WHEEL_DOWN", "MOUSE_BTN0_DBL": "MBTN_LEFT_DBL",
    ]

    private static let modifierNames: [String: UInt32] = [
        "ctrl": Modifier.control, "control": Modifier.control, "alt": Modifier.alt,
        "shift": Modifier.shift, "meta": Modifier.meta, "super": Modifier.meta,
    ]
}
