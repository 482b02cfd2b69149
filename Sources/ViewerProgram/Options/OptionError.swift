/// A command-line mistake, described in one line that starts with `mediaview: `.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    /// The message without the program name.
    public let message: String

    /// A mistake described by `message`, kept on one line.
    public init(_ message: String) {
        // Messages quote what the user typed; a newline in it must not break the one line.
        self.message = String(message.map { $0.isNewline ? " " : $0 })
    }

    /// An unknown `--option`, with the closest real one suggested when there is one.
    init(unknownOption name: String) {
        if let suggestion = ProgramOptions.closestOption(to: name) {
            self.init("unknown option '\(name)' (did you mean \(suggestion)?)")
        } else {
            // The program adds "(see --help)" to every usage error.
            self.init("unknown option '\(name)'")
        }
    }

    /// The message as printed: `mediaview: ` and the message.
    public var description: String { "mediaview: " + message }
}
