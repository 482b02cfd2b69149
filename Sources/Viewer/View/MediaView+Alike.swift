/// Many views configured alike: a folder of a million pictures is a million views with the
/// same options and the same observers. Those are held once for all of them, and a view
/// gets its own copy only when one of its options changes on its own.
extension MediaView {
    /// A view with no media and the options and observers of `template`, shared with it
    /// until either changes an option: what a viewer makes for each file of a folder.
    public convenience init(like template: MediaView) {
        self.init()
        sharedSettings = template.sharedSettings
        // An array shares its storage until written, so the observers cost nothing per view.
        observers = template.observers
    }

    /// Changes an option of every view in `views` with `set`, a choice for the whole queue
    /// (speed, volume, fit). Views that shared their options before share the changed ones
    /// after, instead of each making its own copy. `set` must do the same to every view.
    public static func changeAll(_ views: some Sequence<MediaView>, _ set: (MediaView) -> Void) {
        var changed: [ObjectIdentifier: (before: SharedSettings, after: SharedSettings)] = [:]
        for v in views {
            let before = v.sharedSettings
            // An open view also hears the change (its player's volume, speed): it goes
            // through `set` itself.
            if let done = changed[ObjectIdentifier(before)], v.session == nil {
                v.sharedSettings = done.after
                continue
            }
            set(v)
            changed[ObjectIdentifier(before)] = (before, v.sharedSettings)
        }
    }

    /// Whether two views hold one copy of their options.
    public func sharesSettings(with other: MediaView) -> Bool { sharedSettings === other.sharedSettings }
}

/// The options of one or more views, in one place.
@MainActor
final class SharedSettings {
    var value: MediaView.Settings

    init(_ value: MediaView.Settings) { self.value = value }

    /// The defaults, shared by every view until it changes one.
    static let defaults = SharedSettings(MediaView.Settings())
}
