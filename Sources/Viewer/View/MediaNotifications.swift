/// The view's notifications, as MediaView posts them on `NotificationCenter`: a small
/// centre an app on Linux observes without Foundation.
///
/// `MediaView.rotate(by:)` posts `.mediaViewWillRotateNotification` and
/// `.mediaViewDidRotateNotification` where it tells its delegate, so an app that laid
/// something out around the picture hears it; an app may post them too (as an iOS app does
/// when the device turns), and every observer hears it. A desktop window relays its view
/// by itself when resized, so posting is never needed for the view's own layout.
@MainActor
public final class MediaNotifications {
    /// A notification's name.
    public struct Name: Hashable, Sendable {
        /// The name as text.
        public let rawValue: String
        /// A name of the app's own.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// A view (or the screen) is about to turn.
        public static let mediaViewWillRotateNotification = Name("mediaViewWillRotateNotification")
        /// A view (or the screen) turned.
        public static let mediaViewDidRotateNotification = Name("mediaViewDidRotateNotification")
    }

    /// A registration, to remove an observer.
    public struct Token: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// The centre the views post to.
    public static let shared = MediaNotifications()

    private var observers: [(token: Token, name: Name, body: @MainActor (MediaView?) -> Void)] = []
    private var nextID = 0

    /// A centre of its own.
    public init() {}

    /// Calls `body` whenever `name` is posted, with the view that posted it (nil when the
    /// app posted it).
    @discardableResult
    public func addObserver(for name: Name, using body: @escaping @MainActor (MediaView?) -> Void) -> Token {
        nextID += 1
        let token = Token(id: nextID)
        observers.append((token, name, body))
        return token
    }

    /// Stops calling the observer registered as `token`.
    public func removeObserver(_ token: Token) { observers.removeAll { $0.token == token } }

    /// Tells every observer of `name`.
    public func post(_ name: Name, from view: MediaView? = nil) {
        // A copy: an observer may add or remove observers while called.
        for o in observers where o.name == name { o.body(view) }
    }

    /// Posts `name` on the shared centre: `MediaNotifications.post(.mediaViewWillRotateNotification)`.
    public static func post(_ name: Name) { shared.post(name) }
}
