import Playback
import Web
import Windowing

/// The small players of a session: the thumbnail (a picture or GIF shown before playback and
/// for audio) and the preview GIF shown while the button is held on a video.
///
/// Each gets a player of its own, so a GIF thumbnail animates and a web thumbnail loads
/// without blocking, through the same decoding path as the media.
struct SmallPictures {
    var thumbPlayer: Player?
    var thumbFrame: VideoFrame?
    var previewPlayer: Player?
    var previewFrame: VideoFrame?
    /// The preview GIF is showing (button held).
    var isPreviewing = false

    /// Opens the players that are wanted and not open yet, paused.
    mutating func open(thumbnail: String?, preview: String?, source: SourceOptions, wake: @escaping @Sendable () -> Void) {
        if thumbPlayer == nil, let u = thumbnail { thumbPlayer = SmallPictures.player(u, source: source, wake: wake) }
        if previewPlayer == nil, let u = preview { previewPlayer = SmallPictures.player(u, source: source, wake: wake) }
    }

    private static func player(_ url: String, source: SourceOptions, wake: @escaping @Sendable () -> Void) -> Player? {
        guard case .success(let resolved) = MediaView.resolve(url) else { return nil }
        var o = PlayerOptions()
        o.audio = false
        o.startPaused = true
        o.source = source
        return Player(url: resolved, options: o, wake: { wake() })
    }

    /// Stops both players; they open again when next needed.
    mutating func close() {
        thumbPlayer?.close()
        previewPlayer?.close()
        self = SmallPictures()
    }

    /// Follows both players; whether something new is to be drawn and when to look again.
    mutating func tick(presented: Bool, showsThumbnail: Bool) -> (redraw: Bool, deadline: Double?) {
        var redraw = false
        var deadline: Double?
        func follow(_ p: Player?, into frame: inout VideoFrame?, running: Bool) {
            guard let p else { return }
            if running && p.isPaused { p.setPaused(false) } else if !running && !p.isPaused { p.setPaused(true) }
            switch p.nextFrame() {
            case .show(let f): frame = f; redraw = true
            case .wait(let d): deadline = min(deadline ?? d, d)
            case .finished: if p.info?.kind == .animated { p.seek(to: 0); deadline = 0 }
            case .idle: break
            }
        }
        follow(thumbPlayer, into: &thumbFrame, running: presented && showsThumbnail)
        follow(previewPlayer, into: &previewFrame, running: presented && isPreviewing)
        return (redraw, deadline)
    }
}

extension MediaSession {
    /// Shows the preview GIF (the button is being held on a video that is not playing).
    func startPreview() -> Bool {
        guard small.previewPlayer != nil, info?.kind == .video, !isPlaying else { return false }
        small.isPreviewing = true
        return true
    }

    /// Back to the thumbnail or the paused frame.
    func stopPreview() {
        small.isPreviewing = false
        small.previewPlayer?.seek(to: 0)
    }

    /// Opens the thumbnail's and preview's players if the view has them.
    func openSmallPictures() {
        small.open(thumbnail: content.thumbnailURL, preview: content.previewGIFURL,
                   source: settings.playerOptions.source, wake: wake)
    }
}
