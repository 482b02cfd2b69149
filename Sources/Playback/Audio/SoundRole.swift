/// How the desktop's mixer files the sound stream while it plays.
///
/// A desktop has no silent switch; what comes closest is how its mixer groups streams by
/// `media.role`. pavucontrol and GNOME's sound settings give `event` streams one shared
/// "System Sounds" volume and mute, which users turn down or off to quiet their desktop,
/// while `video` and `music` streams are media with a volume of their own, which role
/// policies (module-role-cork, module-role-ducking) cork or duck during a call.
public enum SoundRole: Sendable, Equatable {
    /// Media: `video` for a video's sound, `music` for sound alone; plays at its own volume
    /// whatever the system sounds are set to.
    case media
    /// A system sound (`event`): follows the desktop's system sounds volume and mute.
    case systemSound

    /// The `media.role` property for a stream of `kind`.
    public func mediaRole(for kind: MediaInfo.Kind) -> String {
        switch self {
        case .media: kind == .audio ? "music" : "video"
        case .systemSound: "event"
        }
    }
}
