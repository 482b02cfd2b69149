import FoundationEssentials

/// What a `MediaView` tells its owner, with MediaView's names.
///
/// Every method has a default that does nothing, so an adopter implements only what it
/// needs. All calls arrive on the main actor.
@MainActor
public protocol MediaViewDelegate: AnyObject {
    /// How far the view is along a minimize or dismiss motion, 0...1: every frame of a drag
    /// and of every animation, ending at exactly 0 or 1.
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double)
    /// Playback started or resumed.
    func didPlayMedia(for mediaView: MediaView)
    /// The media cannot be shown; `failure` on the view says why.
    func didFailToPlayMedia(for mediaView: MediaView)
    /// The media cannot be shown, and why (called right after `didFailToPlayMedia(for:)`).
    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError)
    /// The first picture of a presented view reached the screen (for sound, the indicator).
    func didShowFirstFrame(for mediaView: MediaView)
    /// A photo's small picture (its camera thumbnail, or an eighth-size decode) reached the
    /// screen while the photo itself still decodes; `didShowFirstFrame` follows with the photo.
    func didShowFirstLook(for mediaView: MediaView)
    /// Playback paused.
    func didPauseMedia(for mediaView: MediaView)
    /// The position jumped (a key, the track, code, a script) to `position` seconds.
    func mediaView(_ mediaView: MediaView, didSeekTo position: Double)
    /// The view is about to be put on screen.
    func willPresent(mediaView: MediaView)
    /// The view is on screen.
    func didPresent(mediaView: MediaView)
    /// The view is about to leave the screen.
    func willDismiss(mediaView: MediaView)
    /// The view left the screen.
    func didDismiss(mediaView: MediaView)
    /// Video or audio played to its end; `didLoop` says it starts again.
    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool)
    /// A minimize or restore motion is about to start.
    func willChangeMinimization(for mediaView: MediaView)
    /// A minimize or restore motion moved the view for the first time.
    func didChangeMinimization(for mediaView: MediaView)
    /// The motion is about to settle, minimized or not.
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool)
    /// The motion settled, minimized or not.
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool)
    /// A dismissing drag is about to start.
    func willChangeDismissing(for mediaView: MediaView)
    /// A dismissing drag moved the view for the first time.
    func didChangeDismissing(for mediaView: MediaView)
    /// The dismissing drag is about to settle: thrown away or back.
    func willEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool)
    /// The dismissing drag settled: thrown away or back.
    func didEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool)
    /// The media opened and has a picture of this size.
    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int))
    /// A web image is complete in the cache, at `path`.
    func mediaView(_ mediaView: MediaView, didDownloadImage path: String)
    /// A web video is complete in the cache, at `path`.
    func mediaView(_ mediaView: MediaView, didDownloadVideo path: String)
    /// Web audio is complete in the cache, at `path`.
    func mediaView(_ mediaView: MediaView, didDownloadAudio path: String)
    /// A web video is complete in the cache: MediaView's spelling, as a `file://` URL of
    /// the cached copy, called right after the `String` form.
    func mediaView(_ mediaView: MediaView, didDownloadVideo video: URL)
    /// Web audio is complete in the cache, as a `file://` URL, right after the `String` form.
    func mediaView(_ mediaView: MediaView, didDownloadAudio audio: URL)
    /// A web GIF is complete in the cache, at `path`.
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String)
    /// The screen or the media is about to turn.
    func mediaViewWillRotate(_ mediaView: MediaView)
    /// The screen or the media turned.
    func mediaViewDidRotate(_ mediaView: MediaView)
    /// The picture on screen was saved as a PNG file at `path` (the `screenshot` command).
    func mediaView(_ mediaView: MediaView, didSaveScreenshot path: String)
    /// The pointer came to a time on the track (`position` seconds) whose preview picture
    /// is not on screen yet: a wait for a preview starts (once per wait, not per motion).
    func mediaView(_ mediaView: MediaView, didHoverTrackAt position: Double)
    /// The preview picture of a hovered time reached the screen, `waited` seconds after the
    /// pointer came there.
    func mediaView(_ mediaView: MediaView, didShowTrackPreviewAt position: Double, waited: Double)
    /// A picture too large to hold whole, zoomed in, shows sharp detail everywhere on
    /// screen, `waited` seconds after the view last moved (until then it showed the fitted
    /// picture blown up).
    func mediaView(_ mediaView: MediaView, didShowDetailAfter waited: Double)
    /// A zoomed picture dragged by the pointer was drawn at its new place: the pace of
    /// panning, one call per frame.
    func mediaViewDidPan(_ mediaView: MediaView)
    /// The user clicked the title.
    func handleTitleSelection(in mediaView: MediaView)
    /// The user clicked the details.
    func handleDetailsSelection(in mediaView: MediaView)
    /// The view's file was moved to the trash (the view left the queue).
    func mediaView(_ mediaView: MediaView, didMoveToTrash item: Trash.Item)
    /// The view's file came back from the trash (the view is presented again).
    func mediaView(_ mediaView: MediaView, didRestoreFromTrash item: Trash.Item)
    /// The view's media was not moved to the trash, or not brought back, and why.
    func mediaView(_ mediaView: MediaView, didRefuseTrash reason: String)
}

/// Every callback does nothing unless the delegate implements it.
public extension MediaViewDelegate {
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double) {}
    func didPlayMedia(for mediaView: MediaView) {}
    func didFailToPlayMedia(for mediaView: MediaView) {}
    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError) {}
    func didShowFirstFrame(for mediaView: MediaView) {}
    func didShowFirstLook(for mediaView: MediaView) {}
    func didPauseMedia(for mediaView: MediaView) {}
    func mediaView(_ mediaView: MediaView, didSeekTo position: Double) {}
    func willPresent(mediaView: MediaView) {}
    func didPresent(mediaView: MediaView) {}
    func willDismiss(mediaView: MediaView) {}
    func didDismiss(mediaView: MediaView) {}
    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool) {}
    func willChangeMinimization(for mediaView: MediaView) {}
    func didChangeMinimization(for mediaView: MediaView) {}
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {}
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {}
    func willChangeDismissing(for mediaView: MediaView) {}
    func didChangeDismissing(for mediaView: MediaView) {}
    func willEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {}
    func didEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool) {}
    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int)) {}
    func mediaView(_ mediaView: MediaView, didDownloadImage path: String) {}
    func mediaView(_ mediaView: MediaView, didDownloadVideo path: String) {}
    func mediaView(_ mediaView: MediaView, didDownloadAudio path: String) {}
    func mediaView(_ mediaView: MediaView, didDownloadVideo video: URL) {}
    func mediaView(_ mediaView: MediaView, didDownloadAudio audio: URL) {}
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String) {}
    func mediaViewWillRotate(_ mediaView: MediaView) {}
    func mediaViewDidRotate(_ mediaView: MediaView) {}
    func mediaView(_ mediaView: MediaView, didSaveScreenshot path: String) {}
    func mediaView(_ mediaView: MediaView, didHoverTrackAt position: Double) {}
    func mediaView(_ mediaView: MediaView, didShowTrackPreviewAt position: Double, waited: Double) {}
    func mediaView(_ mediaView: MediaView, didShowDetailAfter waited: Double) {}
    func mediaViewDidPan(_ mediaView: MediaView) {}
    func handleTitleSelection(in mediaView: MediaView) {}
    func handleDetailsSelection(in mediaView: MediaView) {}
    func mediaView(_ mediaView: MediaView, didMoveToTrash item: Trash.Item) {}
    func mediaView(_ mediaView: MediaView, didRestoreFromTrash item: Trash.Item) {}
    func mediaView(_ mediaView: MediaView, didRefuseTrash reason: String) {}
}

/// Why a view could not show its media: one line a user understands.
public struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The reason, as one line.
    public let message: String
    /// An error with this reason.
    public init(_ message: String) { self.message = message }
    /// The reason.
    public var description: String { message }
}
