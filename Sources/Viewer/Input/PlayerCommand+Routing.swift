import Playback
import Windowing

extension PlayerCommand {
    /// Whether a held key goes on doing it, as mpv's repeatable commands do.
    var repeatsWhileHeld: Bool {
        switch self {
        case .seek, .volume, .zoom, .pan, .chapter, .galleryMove, .galleryPage, .galleryScroll, .speed, .frameStep: return true
        default: return false
        }
    }

    /// What the command acts on.
    var target: CommandRouter.Target {
        switch self {
        case .togglePause, .seek, .seekAbsolutePercent, .seekAbsolute, .volume, .chapter, .toggleMute, .toggleLoop, .rotate, .toggleTrack,
             .zoom, .zoomReset, .pan, .frameStep, .cycleSubtitles, .cycleAudio:
            return .media
        case .dismiss, .toggleFullscreen, .toggleDetails, .minimize, .restore, .paste, .copy:
            return .window
        case .toggleInfo:
            return .window
        // The speed is the queue's, as mpv's is the player's: the next item plays at it too.
        case .next, .previous, .first, .last, .trash, .undoTrash, .quit, .screenshot, .pin, .speed, .toggleSubtitles, .toggleFit:
            return .queue
        case .toggleGallery, .galleryMove, .galleryPage, .galleryScroll, .galleryFirst, .galleryLast, .galleryOpen:
            return .gallery
        }
    }
}
