import MediaCore
import Playback

extension ViewerApp {
    /// The program's arguments after its name, from the bytes the system passed: a file
    /// name that is not UTF-8 (`caf\xE9.png`) keeps its bytes (see `FileName`), where
    /// `CommandLine.arguments` would have turned them into U+FFFD and lost the file.
    public static var systemArguments: [String] {
        (1..<Int(max(1, CommandLine.argc))).compactMap { CommandLine.unsafeArgv[$0].map { FileName.decode(cString: $0) } }
    }
}
