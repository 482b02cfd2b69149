import Testing
@testable import Windowing

/// Key names from X11 keysyms and buttons, and the canonical form of names users write.
@Suite struct KeyNameTests {
    let shift = KeyName.Modifier.shift
    let lock = KeyName.Modifier.lock
    let ctrl = KeyName.Modifier.control
    let alt = KeyName.Modifier.alt
    let meta = KeyName.Modifier.meta

    @Test func charactersAreThemselves() {
        #expect(KeyName.name(keysym: 0x61, state: 0) == "a")          // XK_a
        #expect(KeyName.name(keysym: 0x31, state: 0) == "1")          // XK_1
        #expect(KeyName.name(keysym: 0x2F, state: 0) == "/")          // XK_slash
        #expect(KeyName.name(keysym: 0xE9, state: 0) == "é")          // XK_eacute
        #expect(KeyName.name(keysym: 0x0100_044F, state: 0) == "я")   // Unicode keysym
    }

    @Test func shiftIsCarriedByTheCharacter() {
        #expect(KeyName.name(keysym: 0x61, state: shift) == "A")      // lower keysym, Shift held
        #expect(KeyName.name(keysym: 0x41, state: shift) == "A")      // XLookupString style
        #expect(KeyName.name(keysym: 0x3F, state: shift) == "?")      // no "Shift+?"
        #expect(KeyName.name(keysym: 0x61, state: ctrl | shift) == "Ctrl+A")
    }

    @Test func capsLockDoesNotChangeBindings() {
        #expect(KeyName.name(keysym: 0x41, state: lock) == "a")
        #expect(KeyName.name(keysym: 0x61, state: lock) == "a")
        #expect(KeyName.name(keysym: 0x61, state: lock | shift) == "A")
    }

    @Test func specialKeys() {
        let cases: [(UInt, String)] = [
            (0x20, "SPACE"), (0xFF0D, "ENTER"), (0xFF8D, "ENTER"), (0xFF1B, "ESC"), (0xFF09, "TAB"),
            (0xFF08, "BS"), (0xFFFF, "DEL"), (0xFF63, "INS"), (0xFF50, "HOME"), (0xFF57, "END"),
            (0xFF55, "PGUP"), (0xFF56, "PGDWN"), (0xFF51, "LEFT"), (0xFF53, "RIGHT"),
            (0xFF52, "UP"), (0xFF54, "DOWN"), (0xFFBE, "F1"), (0xFFC9, "F12"),
            (0xFFB0, "KP0"), (0xFFB9, "KP9"), (0xFF96, "KP4"),  // KP_Left with Num Lock off
            (0x23, "SHARP"), (0xFFAB, "+"),                      // '#' and KP_Add
        ]
        for (keysym, name) in cases {
            #expect(KeyName.name(keysym: keysym, state: 0) == name, "keysym 0x\(String(keysym, radix: 16))")
        }
    }

    @Test func modifiersComeInFixedOrder() {
        #expect(KeyName.name(keysym: 0xFF53, state: meta | shift | alt | ctrl) == "Ctrl+Alt+Shift+Meta+RIGHT")
        #expect(KeyName.name(keysym: 0xFF54, state: ctrl) == "Ctrl+DOWN")
        #expect(KeyName.name(keysym: 0xFE20, state: shift) == "Shift+TAB")   // ISO_Left_Tab
        #expect(KeyName.name(keysym: 0x71, state: alt | meta) == "Alt+Meta+q")
    }

    @Test func unrelatedStateBitsAreIgnored() {
        // Num Lock (Mod2) and held mouse buttons (Button1Mask...) must not change the name.
        #expect(KeyName.name(keysym: 0x20, state: 0x10 | 0x100) == "SPACE")
        #expect(KeyName.name(button: 4, state: 0x10 | 0x200) == "WHEEL_UP")
    }

    @Test func keysWithoutNames() {
        #expect(KeyName.name(keysym: 0xFFE1, state: 0) == nil)   // Shift_L on its own
        #expect(KeyName.name(keysym: 0x1008FF41, state: 0) == nil) // XF86Launch1
        #expect(KeyName.name(keysym: 0, state: 0) == nil)
    }

    @Test func mediaKeysHaveMpvsNames() {
        #expect(KeyName.name(keysym: 0x1008FF14, state: 0) == "PLAY")   // XF86AudioPlay
        #expect(KeyName.name(keysym: 0x1008FF31, state: 0) == "PAUSE")
        #expect(KeyName.name(keysym: 0x1008FF17, state: 0) == "NEXT")
        #expect(KeyName.name(keysym: 0x1008FF16, state: 0) == "PREV")
        #expect(KeyName.name(keysym: 0x1008FF15, state: 0) == "STOP")
        #expect(KeyName.normalize("XF86AudioPlay") == "PLAY")
        #expect(KeyName.normalize("next") == "NEXT")
    }

    @Test func mouseButtons() {
        #expect(KeyName.name(button: 1, state: 0) == "MBTN_LEFT")
        #expect(KeyName.name(button: 1, state: 0, doubleClick: true) == "MBTN_LEFT_DBL")
        #expect(KeyName.name(button: 2, state: 0) == "MBTN_MID")
        #expect(KeyName.name(button: 3, state: 0) == "MBTN_RIGHT")
        #expect(KeyName.name(button: 5, state: 0) == "WHEEL_DOWN")
        #expect(KeyName.name(button: 4, state: shift | ctrl) == "Ctrl+Shift+WHEEL_UP")
        #expect(KeyName.name(button: 42, state: 0) == nil)
    }

    @Test func normalizeCanonicalises() {
        let cases: [(String, String)] = [
            ("ctrl+Right", "Ctrl+RIGHT"), ("space", "SPACE"), ("Esc", "ESC"), ("escape", "ESC"),
            ("return", "ENTER"), ("kp_enter", "ENTER"), ("f5", "F5"), ("kp7", "KP7"),
            ("Shift+ctrl+alt+meta+up", "Ctrl+Alt+Shift+Meta+UP"), ("shift+a", "A"), ("Shift+?", "?"),
            ("a", "a"), ("A", "A"), ("Ctrl++", "Ctrl++"), ("+", "+"), ("sharp", "SHARP"), ("#", "SHARP"),
            ("mbtn_left_dbl", "MBTN_LEFT_DBL"), ("wheel_up", "WHEEL_UP"), ("pgdn", "PGDWN"),
            ("Super+x", "Meta+x"),
        ]
        for (written, canonical) in cases {
            #expect(KeyName.normalize(written) == canonical, "\(written)")
        }
    }

    @Test func normalizeRejectsUnknownNames() {
        for bad in ["", "Ctrl+Foo", "Ctrl+", "Hyper+a", "F99", "ab", "a+b", "KP10", "SPACEBAR", "\t", " "] {
            #expect(KeyName.normalize(bad) == nil, "'\(bad)'")
        }
    }

    @Test func everyProducedNameNormalizesToItself() {
        // The binding table is keyed by normalized names and looked up by produced names:
        // the two must agree for every key, or some binding can never fire.
        let keysyms: [UInt] = Array(0x20...0x7E) + Array(0xFF08...0xFFFF) + [0xFE20]
        for state in [0, shift, ctrl, alt | shift, ctrl | alt | shift | meta] {
            for keysym in keysyms {
                guard let name = KeyName.name(keysym: keysym, state: state) else { continue }
                #expect(KeyName.normalize(name) == name, "keysym 0x\(String(keysym, radix: 16))")
            }
            for button in UInt32(1)...9 {
                let name = KeyName.name(button: button, state: state)!
                #expect(KeyName.normalize(name) == name)
            }
        }
    }
}
