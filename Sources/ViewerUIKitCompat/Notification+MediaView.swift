import Foundation
import Viewer

/// MediaView's rotation notifications, with their iOS spelling:
/// `Notification.post(.mediaViewWillRotateNotification)`.
public extension Notification.Name {
    /// A view (or the screen) is about to turn.
    static let mediaViewWillRotateNotification = Notification.Name("mediaViewWillRotateNotification")
    /// A view (or the screen) turned.
    static let mediaViewDidRotateNotification = Notification.Name("mediaViewDidRotateNotification")
}

public extension Notification {
    /// Posts `name` on `NotificationCenter.default` and on `MediaNotifications.shared`, where
    /// the views post their own rotations: an observer of `MediaNotifications` hears both.
    @MainActor
    static func post(_ name: Notification.Name) {
        NotificationCenter.default.post(name: name, object: nil)
        MediaNotifications.shared.post(MediaNotifications.Name(name.rawValue))
    }
}
