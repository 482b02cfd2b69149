import MediaCore
import Playback
import Viewer

/// Lets go of the code the program ran only to start, once the first picture is on screen.
///
/// The dynamic linker, the option parser, the window's and the fonts' set-up and the Swift
/// runtime's first use touch about 9 MiB of the program's and its libraries' code and
/// constants that playback never runs again; the process would keep them mapped for its
/// whole life. What playback does run comes back on its first touch, about 4 MiB.
@MainActor
final class StartupPages: MediaViewDelegate {
    private var released = false

    func didShowFirstFrame(for mediaView: MediaView) {
        guard !released else { return }
        released = true
        // Off the main thread: the next item may be asked for at once (about 1.5 ms).
        NamedThread.start(name: "let-go") { ReadOnlyPages.letGo() }
    }
}
