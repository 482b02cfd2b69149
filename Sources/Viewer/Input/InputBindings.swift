import Dispatch
import FoundationEssentials
import Glibc
import MediaCore
import Windowing

/// The key binding table: canonical key name to player command, read from input.conf files.
///
/// The format is mpv's: one `KEY command args` a line, `#` starts a comment, blank lines
/// are fine, and `KEY ignore` removes a binding. Key names go through
/// `KeyName.normalize(_:)`, so `ctrl+right` and `Ctrl+RIGHT` are the same key. The
/// bundled defaults load first and the user's file is merged over them; a bad line is
/// reported with its file and line number and everything else still loads, because one
/// typo should not cost a user all their shortcuts.
public struct InputBindings: Equatable, Sendable {
    /// The active bindings, keyed by canonical key name.
    public private(set) var commands: [String: PlayerCommand]
    /// Keys this table explicitly unbinds (`KEY ignore`); applied when merged over another.
    public private(set) var unbound: Set<String>

    /// A table of these bindings; keys both bound and unbound stay bound.
    public init(commands: [String: PlayerCommand] = [:], unbound: Set<String> = []) {
        self.commands = commands
        self.unbound = unbound.subtracting(commands.keys)
    }

    /// The command bound to a canonical key name, as `KeyName` produces them.
    public func command(for keyName: String) -> PlayerCommand? {
        commands[keyName]
    }

    /// The canonical spelling of a key name someone wrote (`ctrl+right` is `Ctrl+RIGHT`), as
    /// the window names the keys it sees; nil when it names no key. Clients of the control
    /// socket write names as mpv accepts them, whose modifier and special names ignore case.
    public static func keyName(_ text: String) -> String? { KeyName.normalize(text) }

    /// The sections a line may start with, as mpv's `{section}`: `{gallery} LEFT ...`
    /// binds LEFT only while the gallery shows, `{still} LEFT ...` while a still picture
    /// (or an item that failed) is presented.
    public static let sections: Set<String> = ["gallery", "still"]

    /// The command bound to a key while `section` is active: the section's own binding,
    /// else the key's usual one (as mpv's sections stack over the default one).
    public func command(for keyName: String, in section: String) -> PlayerCommand? {
        commands["{\(section)} " + keyName] ?? commands[keyName]
    }

    /// Parses input.conf text; `source` names the file in problem messages.
    ///
    /// Each problem reads `source:LINE: what is wrong`. A key bound twice keeps its last
    /// binding, as in mpv, so a file can be appended to.
    public static func parse(_ text: String, source: String) -> (bindings: InputBindings, problems: [String]) {
        var table = InputBindings()
        var problems: [String] = []
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = Substring(rawLine)
            if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }

            let location = "\(source):\(lineNumber)"
            var rest = trimmed
            var section = ""
            // A lone `{` is the brace key (mpv halves the speed with it); a section is a
            // first word that opens with `{` and has more in it.
            let firstWord = rest.prefix(while: { $0 != " " && $0 != "\t" })
            if firstWord.hasPrefix("{"), firstWord.count > 1 {
                guard let close = firstWord.firstIndex(of: "}") else {
                    problems.append("\(location): a section needs a closing '}'")
                    continue
                }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                guard sections.contains(name) else {
                    problems.append("\(location): unknown section '{\(name)}' (known: {gallery}, {still})")
                    continue
                }
                section = "{\(name)} "
                rest = rest[rest.index(after: close)...].trimmingWhitespace()
            }
            let keyEnd = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
            let keyText = String(rest[..<keyEnd])
            let commandText = rest[keyEnd...].trimmingWhitespace()
            guard let normalized = KeyName.normalize(keyText) else {
                problems.append("\(location): unknown key '\(keyText)'")
                continue
            }
            let key = section + normalized
            if commandText.isEmpty {
                problems.append("\(location): no command for key '\(keyText)'")
                continue
            }
            if commandText == "ignore" {
                table.commands[key] = nil
                table.unbound.insert(key)
                continue
            }
            do {
                let command = try PlayerCommand.parse(commandText)
                table.commands[key] = command
                table.unbound.remove(key)
            } catch {
                problems.append("\(location): \(error.description)")
            }
        }
        return (table, problems)
    }

    /// This table with `overrides` laid over it: their bindings win, their `ignore`s unbind.
    public func merging(_ overrides: InputBindings) -> InputBindings {
        var result = self
        for key in overrides.unbound { result.commands[key] = nil }
        result.commands.merge(overrides.commands) { _, new in new }
        result.unbound = []
        return result
    }

    /// The table as aligned `KEY  command` lines, for `--list-bindings`.
    ///
    /// The output is valid input.conf. Keys sort case-insensitively, so `r` and `R` sit
    /// together, with the lower-case one first.
    public func listing() -> String {
        let keys = commands.keys.sorted { a, b in
            let (la, lb) = (a.lowercased(), b.lowercased())
            return la != lb ? la < lb : a > b
        }
        let width = keys.map(\.count).max() ?? 0
        return keys.map { key in
            key + String(repeating: " ", count: width - key.count + 2) + commands[key]!.description
        }.joined(separator: "\n") + (keys.isEmpty ? "" : "\n")
    }

    /// Where the user's input.conf lives: `$XDG_CONFIG_HOME/mediaview/input.conf`, or
    /// `~/.config/mediaview/input.conf` when XDG_CONFIG_HOME is unset or not absolute
    /// (the XDG spec says to ignore relative values). Nil when not even HOME is known.
    public static func userFilePath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/mediaview/input.conf"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home + "/.config/mediaview/input.conf"
        }
        return nil
    }

    /// The built-in bindings, parsed from `defaultText`.
    public static let defaults: InputBindings = {
        // The built-in table has nothing beneath it, so its `ignore` lines have no effect.
        InputBindings(commands: parse(defaultText, source: "built-in bindings").bindings.commands)
    }()

    /// The built-in bindings with the user's file laid over them.
    ///
    /// A missing user file is normal and not a problem; an unreadable one or a bad line is,
    /// and is reported while everything else still loads.
    public static func load(userFile: String?) -> (bindings: InputBindings, problems: [String]) {
        var problems: [String] = []
        var bindings = defaults
        guard let userFile else { return (bindings, problems) }
        switch read(userFile) {
        case .success(let text):
            let parsed = parse(text, source: userFile)
            bindings = bindings.merging(parsed.bindings)
            problems += parsed.problems
        case .failure(let reason) where !reason.missing:
            problems.append("\(userFile): \(reason.message)")
        case .failure:
            break
        }
        return (bindings, problems)
    }

    private struct ReadFailure: Error {
        var message: String
        var missing = false
    }

    private static func read(_ path: String) -> Result<String, ReadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            var st = stat()
            if stat(path, &st) != 0 {
                return .failure(ReadFailure(message: "cannot read: no such file", missing: true))
            }
            return .failure(ReadFailure(message: (st.st_mode & S_IFMT) == S_IFDIR
                ? "cannot read: is a directory" : "cannot read: permission denied"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ReadFailure(message: "cannot read: not UTF-8 text"))
        }
        return .success(text)
    }
}
