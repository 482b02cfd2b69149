/// Something a key or button binding asks the player to do.
///
/// Commands are written as mpv-like text in input.conf (`cycle pause`, `seek -60`,
/// `add volume 2`) and parsed with `parse(_:)`; `description` writes them back in the
/// same canonical form, so `--list-bindings` output is itself a valid input.conf.
/// `ignore`, which unbinds a key, is not a command: the binding table handles it.
public enum PlayerCommand: Equatable, Sendable, CustomStringConvertible {
    /// Play when paused, pause when playing.
    case togglePause
    /// Relative seek; negative goes back.
    case seek(seconds: Double)
    /// Seek to a percentage (0-100) of the duration.
    case seekAbsolutePercent(Double)
    /// Seek to this many seconds from the start.
    case seekAbsolute(seconds: Double)
    /// Change the volume by this many percentage points.
    case volume(delta: Int)
    /// Jump this many chapters forward (negative: back).
    case chapter(delta: Int)
    /// Mute or unmute.
    case toggleMute
    /// Present the next item.
    case next
    /// Go back to the item before.
    case previous
    /// Go to the first item of the queue.
    case first
    /// Go to the last item of the queue.
    case last
    /// Move the current file to the trash.
    case trash
    /// Bring back the file trashed last.
    case undoTrash
    /// Show or hide the panel that says what the file is.
    case toggleInfo
    /// Dismiss the current item, as the close button does.
    case dismiss
    /// Fullscreen or windowed.
    case toggleFullscreen
    /// Loop or not.
    case toggleLoop
    /// Rotate the media clockwise by a multiple of 90 degrees (negative: anticlockwise).
    case rotate(degrees: Int)
    /// Show or hide the progress track.
    case toggleTrack
    /// Show or hide the title and details.
    case toggleDetails
    /// Change the zoom factor by this much (0.1 is ten percent of the fitted size).
    case zoom(delta: Double)
    /// Back to fit-to-window with no pan.
    case zoomReset
    /// Small pictures at their own size, or enlarged to fit the window: for the whole queue.
    case toggleFit
    /// Move a zoomed image by this many pixels.
    case pan(dx: Int, dy: Int)
    /// Shrink into the corner thumbnail.
    case minimize
    /// Back from the thumbnail to fullscreen.
    case restore
    /// Keep the current item playing in a thumbnail of its own and move on.
    case pin
    /// End the program (the queue's loop).
    case quit
    /// Play the paths or links on the clipboard.
    case paste
    /// Put the picture on screen (full size, PNG) and its source on the clipboard.
    case copy
    /// Save the picture on screen, at the media's resolution, as a PNG file.
    case screenshot
    /// Show the queue as a grid of thumbnails, or leave it for the item that was showing.
    case toggleGallery
    /// In the gallery: move the highlight this many cells across and rows down.
    case galleryMove(columns: Int, rows: Int)
    /// In the gallery: move the highlight this many screens down (negative: up).
    case galleryPage(Int)
    /// In the gallery: scroll this many rows down (negative: up), the highlight staying.
    case galleryScroll(rows: Int)
    /// In the gallery: highlight the first item.
    case galleryFirst
    /// In the gallery: highlight the last item.
    case galleryLast
    /// In the gallery: leave it and present the highlighted item.
    case galleryOpen
    /// Play faster or slower (the sound keeps its pitch).
    case speed(SpeedChange)
    /// Pause and show the next frame (`forward`) or the one before.
    case frameStep(forward: Bool)
    /// Show or hide the subtitles.
    case toggleSubtitles
    /// Choose the next subtitle track, then none.
    case cycleSubtitles
    /// Choose the next sound track.
    case cycleAudio

    /// Why a command's text could not be parsed; the message fits after `file:line: `.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, to follow `file:line: `.
        public let description: String
    }

    /// The canonical command text, which `parse(_:)` reads back to the same value.
    public var description: String {
        switch self {
        case .togglePause: "cycle pause"
        case .seek(let seconds): "seek \(Self.format(seconds))"
        case .seekAbsolutePercent(let percent): "seek \(Self.format(percent)) absolute-percent"
        case .seekAbsolute(let seconds): "seek \(Self.format(seconds)) absolute"
        case .volume(let delta): "add volume \(delta)"
        case .chapter(let delta): "add chapter \(delta)"
        case .toggleMute: "cycle mute"
        case .next: "playlist-next"
        case .previous: "playlist-prev"
        case .first: "playlist-first"
        case .last: "playlist-last"
        case .trash: "trash"
        case .undoTrash: "undo-trash"
        case .toggleInfo: "cycle info"
        case .dismiss: "dismiss"
        case .toggleFullscreen: "cycle fullscreen"
        case .toggleLoop: "cycle loop"
        case .rotate(let degrees): "rotate \(degrees)"
        case .toggleTrack: "cycle track"
        case .toggleDetails: "cycle details"
        case .zoom(let delta): "zoom \(Self.format(delta))"
        case .zoomReset: "zoom-reset"
        case .toggleFit: "cycle fit"
        case .pan(let dx, let dy): "pan \(dx) \(dy)"
        case .minimize: "minimize"
        case .restore: "restore"
        case .pin: "pin"
        case .quit: "quit"
        case .paste: "paste"
        case .copy: "copy"
        case .screenshot: "screenshot"
        case .toggleGallery: "gallery"
        case .galleryMove(let dx, let dy): "gallery-move \(dx) \(dy)"
        case .galleryPage(let n): "gallery-page \(n)"
        case .galleryScroll(let n): "gallery-scroll \(n)"
        case .galleryFirst: "gallery-first"
        case .galleryLast: "gallery-last"
        case .galleryOpen: "gallery-open"
        case .speed(let change): change.commandText
        case .frameStep(let forward): forward ? "frame-step" : "frame-back-step"
        case .toggleSubtitles: "cycle sub-visibility"
        case .cycleSubtitles: "cycle sub"
        case .cycleAudio: "cycle audio"
        }
    }

    /// Whole numbers print without ".0" so listings read like hand-written input.conf.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
