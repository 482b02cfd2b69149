import Playback

/// How a view's sound meets the desktop's mixer while it plays and once it stops.
extension MediaView {
    /// Whether sound plays through the desktop's quieting of system sounds, the desktop's
    /// nearest thing to a phone's silent switch.
    public enum AudioType: Sendable, Equatable {
        /// Sound is a system sound (PulseAudio's `media.role` `event`): it follows the
        /// "System Sounds" volume and mute of pavucontrol and the desktop's sound settings,
        /// as ambient sound follows the silent switch. Stopped, the stream is corked: the
        /// mixer shows it paused and no longer counts it as playing.
        case standard
        /// Sound is media (`media.role` `video`, or `music` for sound alone), with a volume
        /// of its own whatever the system sounds are set to. Stopped, the stream is kept
        /// running silent, so the desktop goes on counting the viewer as playing.
        case playWhenSilent

        /// The stream's role while playing.
        var soundRole: SoundRole { self == .standard ? .systemSound : .media }
        /// What the stream does once playback pauses or ends.
        var pausedStream: PausedStream { self == .standard ? .corked : .running }
    }

    /// How the sound of views opened from now on is filed while it plays: `.playWhenSilent`
    /// (the default) as media, `.standard` as a system sound.
    public static var audioTypeWhenPlay = AudioType.playWhenSilent

    /// What the sound stream of views opened from now on does once playback pauses or ends:
    /// `.standard` (the default) corks it, `.playWhenSilent` keeps it running silent.
    public static var audioTypeWhenStop = AudioType.standard
}
