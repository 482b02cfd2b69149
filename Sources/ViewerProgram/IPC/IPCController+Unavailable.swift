/// mpv's properties that mean something in mpv and have no counterpart here (its filters,
/// its audio output, its cache, its OSD and subtitle styling): they exist, as in mpv, and
/// answer "property unavailable" to reads and writes, as mpv does for a property with no
/// value now. A client that lists `property-list` and reads them gets null, not an error.
extension IPCController {
    static let unavailableProperties = [
        "audio-speed-correction", "video-speed-correction", "display-sync-active", "estimated-frame-count",
        "estimated-frame-number", "current-demuxer", "stream-path", "stream-pos", "stream-end", "avsync",
        "total-avsync-change", "mistimed-frame-count", "vsync-ratio",
        "vo-delayed-frame-count", "audio-pts", "remaining-file-loops", "remaining-ab-loops", "edition",
        "current-edition", "editions", "edition-list", "chapter-metadata", "vf-metadata", "af-metadata", "cache-speed",
        "demuxer-cache-duration", "demuxer-cache-time", "demuxer-cache-idle", "demuxer-cache-state",
        "demuxer-via-network", "demuxer-start-time", "cache-buffering-state", "mixer-active", "ao-volume", "ao-mute",
        "audio-params", "audio-out-params", "hwdec-current", "hwdec-interop", "video-format", "video-dec-params",
        "video-out-params", "video-frame-info", "estimated-vf-fps", "window-scale", "current-window-scale", "focused",
        "display-names", "display-fps", "estimated-display-fps", "vsync-jitter", "display-width", "display-height",
        "display-hidpi-scale", "osd-width", "osd-height", "osd-par", "osd-dimensions", "mouse-pos", "sub-text-ass",
        "secondary-sub-text", "sub-start", "sub-end", "secondary-sub-start", "secondary-sub-end", "af", "vf",
        "playback-abort", "osd-sym-cc", "osd-ass-cc", "vo-configured", "vo-passes", "perf-info", "video-bitrate",
        "audio-bitrate", "sub-bitrate", "packet-video-bitrate", "packet-audio-bitrate", "packet-sub-bitrate",
        "audio-device-list", "audio-device", "current-vo", "current-ao", "user-data", "current-watch-later-dir",
        "protocol-list", "decoder-list", "encoder-list", "demuxer-lavf-list", "input-key-list", "ffmpeg-version",
        "libass-version", "platform", "profile-list", "input-bindings", "clipboard", "menu-data", "window-id",
        "sub-delay", "audio-delay", "sub-scale", "sub-pos", "sub-font-size", "secondary-sid", "window-maximized",
        "ontop", "border", "keep-open", "hwdec", "video-zoom", "video-pan-x", "video-pan-y", "video-rotate", "panscan",
        "brightness", "contrast", "saturation", "gamma", "hue", "ab-loop-a", "ab-loop-b", "ab-loop-count", "start",
        "end", "length", "title", "screenshot-directory", "screenshot-format", "osd-level", "terminal", "msg-level",
        "shuffle", "force-window", "geometry", "autofit", "ytdl", "ytdl-format", "audio-file-auto", "sub-auto",
        "deinterlace", "video-sync", "interpolation", "replaygain", "audio-channels",
        "playlist-start", "watch-later-directory", "save-position-on-quit", "resume-playback", "cache", "demuxer",
    ]

    /// The rows of the unavailable properties.
    static var unavailableRows: [(String, PropertyRow)] {
        unavailableProperties.map { ($0, PropertyRow(get: { _ in throw IPCError.propertyUnavailable },
                                                     set: { _, _ in throw IPCError.propertyUnavailable })) }
    }
}
