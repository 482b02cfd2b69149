/// What a `MediaView` tells its owner, with the seed's names.
///
/// Every method has a default that does nothing, so an adopter implements only what it
/// needs (the MetovaBase rule: optional handlers). All calls arrive on the main thread.
@MainActor
public protocol MediaViewDelegate: AnyObject {
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double)
    func didPlayMedia(for mediaView: MediaView)
    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError)
    func didPauseMedia(for mediaView: MediaView)
    func willPresent(mediaView: MediaView)
    func didPresent(mediaView: MediaView)
    func willDismiss(mediaView: MediaView)
    func didDismiss(mediaView: MediaView)
    func didFinishPlayableMedia(for mediaView: MediaView, withLoop didLoop: Bool)
    func willChangeMinimization(for mediaView: MediaView)
    func didChangeMinimization(for mediaView: MediaView)
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool)
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool)
    func willChangeDismissing(for mediaView: MediaView)
    func didChangeDismissing(for mediaView: MediaView)
    func willEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool)
    func didEndDismissing(for mediaView: MediaView, withDismissal didDismiss: Bool)
    func mediaView(_ mediaView: MediaView, didSetImage size: (width: Int, height: Int))
    func mediaView(_ mediaView: MediaView, didDownloadImage path: String)
    func mediaView(_ mediaView: MediaView, didDownloadVideo path: String)
    func mediaView(_ mediaView: MediaView, didDownloadAudio path: String)
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String)
    func mediaViewWillRotate(_ mediaView: MediaView)
    func mediaViewDidRotate(_ mediaView: MediaView)
    func handleTitleSelection(in mediaView: MediaView)
    func handleDetailsSelection(in mediaView: MediaView)
}

public extension MediaViewDelegate {
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double) {}
    func didPlayMedia(for mediaView: MediaView) {}
    func didFailToPlayMedia(for mediaView: MediaView, error: MediaError) {}
    func didPauseMedia(for mediaView: MediaView) {}
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
    func mediaView(_ mediaView: MediaView, didDownloadGif path: String) {}
    func mediaViewWillRotate(_ mediaView: MediaView) {}
    func mediaViewDidRotate(_ mediaView: MediaView) {}
    func handleTitleSelection(in mediaView: MediaView) {}
    func handleDetailsSelection(in mediaView: MediaView) {}
}

/// Why a view could not show its media: one line a user understands.
public struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
