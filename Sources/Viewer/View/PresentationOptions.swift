import Playback
import ThumbnailCache
import Windowing

/// How the presenting window is made and when the loop ends.
public struct PresentationOptions {
    /// A window of `geometry`'s size instead of fullscreen.
    public var windowed = false
    /// The fullscreen window becomes the thumbnail when another application takes the
    /// focus while a video plays, as browsers open picture-in-picture when the user turns
    /// to another tab. Off unless asked for: a user may want the video to stay behind.
    public var minimizesOnBlur = false
    /// When the pointer hides over a playing video or a fullscreen item.
    public var pointerHiding = PointerHiding.withControls
    /// The windowed size, and its place when given.
    public var geometry: (width: Int, height: Int, x: Int?, y: Int?)?
    /// Embed into this foreign window (an X window id).
    public var parentWindow: UInt?
    /// Quit when the queue is done.
    public var autoExit = false
    /// Keep the window and the loop when nothing is left to show (mpv's `--idle`): a
    /// controlling script loads the next file into it. Off, an empty queue ends `run()`.
    public var idles = false
    /// Move on to the next view when the current one has played or failed, as a media
    /// player does; off, a finished view stays until the user moves on.
    public var advancesAutomatically = false
    /// A slide show: stills and GIFs also move on after their `imageDuration`, and the last
    /// item stays (the bundled demo, which a newcomer watches before touching a key).
    public var advancesStills = false
    /// Quit after this many frames were shown; an item that fails or ends before moves on,
    /// and the run ends when the queue does.
    public var frameLimit: Int?
    /// Where the thumbnail's place and size are remembered between runs (a small text
    /// file); nil remembers them only while the queue runs.
    public var thumbnailMemoryPath: String?
    /// Keys and mouse buttons to commands; the built-in table unless replaced.
    public var bindings = InputBindings.defaults
    /// Where `Delete` moves files: the home trash of the user, unless the app says where
    /// `$XDG_DATA_HOME` puts it.
    public var trash = Trash(homeTrash: Trash.defaultHomeTrash)
    /// Called with a one-line message when the window cannot be made.
    public var onError: ((String) -> Void)?
    /// Called with a one-line message for the user about something they did that could not
    /// be done (a drop with nothing playable in it); the app shows or prints it.
    public var onMessage: ((String) -> Void)?
    /// Makes the view for a dropped or pasted path or URL; unset, a new view takes the
    /// settings of the view on screen.
    public var makeView: ((String) -> MediaView)?
    /// Called with a one-line message when something works less well than asked (a window
    /// manager that would not let the thumbnail be small, say).
    public var onWarning: ((String) -> Void)?
    /// The window's icon in several sizes (`_NET_WM_ICON`); none: the window manager's own.
    public var windowIcons: [RGBAImage] = []
    /// Where the `screenshot` command saves; nil: it says on screen that there is no folder.
    public var screenshotDirectory: String?
    /// The desktop's thumbnail cache the gallery reads and adds to (usually
    /// `ThumbnailStore(directory: "$XDG_CACHE_HOME/thumbnails", application: "app-1.0")`);
    /// nil: thumbnails are made for this run only.
    public var thumbnailStore: ThumbnailStore?
    /// Called with what the gallery did (shown, thumbnails made, an item opened).
    public var onGalleryEvent: ((GalleryEvent) -> Void)?
    /// Called with every key and mouse button event and what became of it (the command that
    /// took it, or why none did), before the command runs.
    public var onInput: ((InputRecord) -> Void)?
    /// The defaults: fullscreen, the built-in bindings.
    public init() {}
}
