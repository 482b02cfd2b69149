import Playback
import Web

extension MediaError {
    /// The message with the file named as the user typed it, folder and all, where the
    /// player named it by its last component only: "holiday/IMG_0001.jpg: not a picture"
    /// tells which of several same-named files failed. Web addresses keep their redacted
    /// form, since their secrets must not reach a terminal.
    func namingFile(asTyped typed: String?) -> MediaError {
        guard let typed, !SourceOptions.isNetwork(typed) else { return self }
        let short = MediaView.displayName(typed)
        guard short != typed, message.hasPrefix(short + ": ") else { return self }
        return MediaError(typed + message.dropFirst(short.count))
    }
}
