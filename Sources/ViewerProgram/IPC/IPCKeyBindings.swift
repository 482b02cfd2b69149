import Viewer

/// Keys bound by IPC clients (`keybind`, `define-section` + `enable-section`): a press of
/// such a key in the player's window runs the bound command, as mpv's input.conf lines do.
///
/// python-mpv-jsonipc's `bind_key_press` binds a key to `script-message custom-bind NAME`
/// and waits for that `client-message`. It hears the window's keys as a KeyboardSpy agent,
/// so the built-in binding of the same key (if it has one) runs too.
@MainActor
final class IPCKeyBindings: KeyboardSpyAgent {
    /// Bindings from `keybind`, by canonical key name (`x`, `Ctrl+a`).
    private var bound: [String: String] = [:]
    /// Sections from `define-section`, each a key-to-command table.
    private var sections: [String: [String: String]] = [:]
    /// Enabled sections, the last enabled first in line.
    private var enabled: [String] = []
    /// Runs a bound command's text.
    var run: (String) -> Void = { _ in }

    let keyboardEventsToSpyOn: [KeyboardSpyEvent] = [.keyPress]

    init() { KeyboardSpy.spy(on: self) }

    /// Binds `key` to `command` (empty or `ignore` removes the binding).
    func bind(_ key: String, _ command: String) throws(IPCError) {
        guard let name = InputBindings.keyName(key) else { throw .command }
        bound[name] = command.isEmpty || command == "ignore" ? nil : command
    }

    /// Sets a section's bindings from input.conf lines (`KEY COMMAND`).
    func define(_ section: String, _ contents: String) {
        var table: [String: String] = [:]
        for line in contents.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ", maxSplits: 1)
            guard words.count == 2, !words[0].hasPrefix("#"), let name = InputBindings.keyName(String(words[0])) else { continue }
            table[name] = String(words[1])
        }
        sections[section] = table
    }

    func enable(_ section: String) {
        enabled.removeAll { $0 == section }
        enabled.insert(section, at: 0)
    }

    func disable(_ section: String) { enabled.removeAll { $0 == section } }

    /// The command bound to `key`: an enabled section's, else a `keybind`'s.
    func command(for key: String) -> String? {
        for s in enabled { if let c = sections[s]?[key] { return c } }
        return bound[key]
    }

    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) {
        guard !keyboardInfo.isAutoRepeat, let name = keyboardInfo.keyName, let c = command(for: name) else { return }
        run(c)
    }
}
