@_exported import Viewer
import Foundation

/// `MediaViewDelegate` with MediaView's `CGFloat` spelling of the offset callback, for an
/// app that imports Foundation.
///
/// It refines `Viewer.MediaViewDelegate` and shadows its name for an app that writes
/// `import ViewerUIKitCompat`: such an app's `func mediaView(_:didChangeOffset:
/// CGFloat)` is a real requirement, called on every frame of a drag or motion, as the
/// library's `Double` form is. Viewer itself stays free of Foundation (CGFloat lives in
/// Foundation on Linux), so the program does not carry it.
@MainActor
public protocol MediaViewDelegate: Viewer.MediaViewDelegate {
    /// How far the view is along a minimize or dismiss motion, 0...1, as `CGFloat`.
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: CGFloat)
}

/// The `CGFloat` form does nothing unless implemented; the library's `Double` form is
/// passed on to it, so an adopter implements whichever spelling it likes.
public extension MediaViewDelegate {
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: CGFloat) {}
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: Double) {
        self.mediaView(mediaView, didChangeOffset: CGFloat(offsetPercentage))
    }
}
