import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Thumbnails (a picture or a GIF, from memory, a file or the web) shown before playback
/// and for audio, and the preview GIF shown while the button is held on a video.
///
/// Thumbnail and preview each get a small player of their own, so a GIF thumbnail animates
/// and a web thumbnail loads without blocking, through the same decoding path as the media.
extension MediaView {
    // MARK: The seed's thumbnail variants.

    public func setVideo(url: String, thumbnail: RGBAImage?, previewGIFUrl: String? = nil) {
        setMedia(url, kind: .video, completion: nil)
        thumbnailImage = thumbnail
        previewGIFURL = previewGIFUrl
    }

    public func setVideo(url: String, thumbnailUrl: String, previewGIFUrl: String) {
        setVideo(url: url, thumbnailUrl: thumbnailUrl)
        previewGIFURL = previewGIFUrl
    }

    public func setVideo(url: String, thumbnail: RGBAImage?, previewGIFData: Data) {
        setVideo(url: url, thumbnail: thumbnail)
        previewGIFURL = keepTemporary(previewGIFData)
    }

    public func setVideo(url: String, thumbnailUrl: String, previewGIFData: Data) {
        setVideo(url: url, thumbnailUrl: thumbnailUrl)
        previewGIFURL = keepTemporary(previewGIFData)
    }

    public func setVideo(url: String, thumbnailGIFUrl: String) {
        setVideo(url: url, thumbnailUrl: thumbnailGIFUrl)
    }

    public func setVideo(url: String, thumbnailGIFData: Data) {
        setMedia(url, kind: .video, completion: nil)
        thumbnailURL = keepTemporary(thumbnailGIFData)
    }

    public func setAudio(url: String, thumbnail: RGBAImage?) {
        setMedia(url, kind: .audio, completion: nil)
        thumbnailImage = thumbnail
    }

    public func setAudio(url: String, thumbnailGIFUrl: String) {
        setAudio(url: url, thumbnailUrl: thumbnailGIFUrl)
    }

    public func setAudio(url: String, thumbnailGIFData: Data) {
        setMedia(url, kind: .audio, completion: nil)
        thumbnailURL = keepTemporary(thumbnailGIFData)
    }

    /// Whether a preview GIF is set.
    public var hasPreview: Bool { previewGIFURL != nil }

    private func keepTemporary(_ data: Data) -> String? {
        guard let path = MediaView.writeTemporary(data, suffix: ".gif") else { return nil }
        tempFiles.append(path)
        return path
    }

    // MARK: Players for the small pictures.

    func resetThumbnails() {
        closeSmallPlayers()
        thumbnailImage = nil
        previewGIFURL = nil
        isPreviewing = false
        hasStartedPlaying = false
    }

    /// Stops the thumbnail's and the preview's players; they open again when next needed.
    func closeSmallPlayers() {
        thumbPlayer?.close()
        previewPlayer?.close()
        thumbPlayer = nil
        previewPlayer = nil
        thumbFrame = nil
        previewFrame = nil
    }

    /// Opens the thumbnail's and the preview's players, paused.
    func prepareThumbnails() {
        if thumbPlayer == nil, let u = thumbnailURL { thumbPlayer = auxiliaryPlayer(u) }
        if previewPlayer == nil, let u = previewGIFURL { previewPlayer = auxiliaryPlayer(u) }
    }

    private func auxiliaryPlayer(_ url: String) -> Player? {
        guard case .success(let resolved) = MediaView.resolve(url) else { return nil }
        var o = PlayerOptions()
        o.audio = false
        o.startPaused = true
        o.source = playerOptions.source
        let w = wake
        return Player(url: resolved, options: o, wake: { w() })
    }

    /// The thumbnail shows until playback starts, and stays for audio without cover art.
    var showsThumbnail: Bool {
        guard thumbFrame != nil || thumbnailImage != nil else { return false }
        if info?.kind == .audio { return !(info?.hasCoverArt ?? false) || !hasStartedPlaying }
        return !hasStartedPlaying
    }

    /// Follows the small players; returns whether something new is to be drawn and when to
    /// look again.
    func tickThumbnails(presented: Bool) -> (redraw: Bool, deadline: Double?) {
        prepareThumbnails()
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

    /// Shows the preview GIF (the button is being held on a video that is not playing).
    func startPreview() -> Bool {
        guard previewPlayer != nil, info?.kind == .video, !isPlaying else { return false }
        isPreviewing = true
        return true
    }

    /// Back to the thumbnail or the paused frame.
    func stopPreview() {
        isPreviewing = false
        previewPlayer?.seek(to: 0)
    }

    /// The picture to draw now: preview, thumbnail frame, or the media's own frame.
    var pictureToShow: VideoFrame? {
        if isPreviewing, let f = previewFrame { return f }
        if showsThumbnail, let f = thumbFrame { return f }
        return lastFrame
    }
}
