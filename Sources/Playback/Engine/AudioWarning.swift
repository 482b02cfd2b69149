import MediaCore

/// Prints a sound warning once per process, however many items play.
enum AudioWarning {
    private static let said = Locked(false)

    static func once(_ message: String) {
        let first = said.withLock { done -> Bool in defer { done = true }; return !done }
        if first { StandardError.write(message) }
    }
}
