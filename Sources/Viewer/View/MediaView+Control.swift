import Playback
import Windowing

/// Playing, seeking, sound, zoom and the thumbnail, from code; and the one place where what
/// happened to the session becomes delegate calls.
extension MediaView {
    /// Starts or resumes playback (opening the media first if needed).
    public func play() {
        if session == nil { prepare() }
        report(session?.play())
    }

    /// Pauses playback.
    public func pause() {
        report(session?.pause())
    }

    /// Plays when paused, pauses when playing.
    public func togglePlay() {
        if isPlaying { pause() } else { play() }
    }

    /// Seeks by `seconds` from the current position (negative goes back), exactly there.
    public func seek(by seconds: Double) {
        guard let s = session, seconds.isFinite else { return }
        seek(to: s.position + seconds)
    }

    /// Seeks to `fraction` (0...1) of the duration, exactly there.
    public func seek(toFraction fraction: Double) {
        guard let s = session, let d = s.info?.duration, fraction.isFinite else { return }
        seek(to: max(0, min(1, fraction)) * d)
    }

    /// Seeks to `seconds` from the start (kept within the media), exactly there; the
    /// delegate hears where.
    public func seek(to seconds: Double) {
        guard let s = session, s.info?.isPlayable == true, seconds.isFinite else { return }
        let target = max(0, min(seconds, s.info?.duration ?? seconds))
        s.seek(to: target)
        notify { $0.mediaView(self, didSeekTo: target) }
    }

    /// The chapter the playback position is in (its index in `info.chapters`), if any.
    public var currentChapter: Int? {
        guard let chapters = info?.chapters, !chapters.isEmpty else { return nil }
        // A little ahead, so a jump that landed on a chapter's first frame counts as in it.
        return chapters.lastIndex { $0.start <= position + 0.05 }
    }

    /// Jumps `delta` chapters forward (negative: back) to the chapter's start; past the last
    /// one it goes to the end, before the first to the start.
    public func jumpChapter(by delta: Int) {
        guard let chapters = info?.chapters, !chapters.isEmpty, delta != 0 else { return }
        let target = (currentChapter ?? -1) + delta
        if target >= chapters.count, let d = info?.duration {
            seek(by: d - position)
        } else {
            seek(by: chapters[max(0, target)].start - position)
        }
    }

    /// Volume 0...1 of this view's sound.
    public var volume: Double {
        get { settings.playerOptions.volume }
        set {
            settings.playerOptions.volume = newValue.isFinite ? max(0, min(1, newValue)) : settings.playerOptions.volume
            session?.applyVolume(settings.playerOptions)
        }
    }

    /// Whether this view's sound is muted.
    public var isMuted: Bool {
        get { settings.playerOptions.muted }
        set {
            settings.playerOptions.muted = newValue
            session?.applyVolume(settings.playerOptions)
        }
    }

    /// Zooms by a step (positive in, negative out), about the centre.
    public func zoom(by step: Double) { session?.zoom(by: step) }

    /// Fit, or 1:1 when already fitted: the image viewer's usual toggle.
    public func toggleFitNative() { session?.toggleFitNative() }

    /// Moves a zoomed picture by window pixels.
    public func pan(dx: Int, dy: Int) {
        session?.pan(dx: Double(dx), dy: Double(dy), within: stage.map { ($0.window.width, $0.window.height) })
    }

    /// Turns the media by a multiple of 90 degrees (clockwise when positive), telling the
    /// delegate before and after.
    public func rotate(by degrees: Int) {
        guard let s = session, degrees % 90 == 0 else { return }
        notify { $0.mediaViewWillRotate(self) }
        MediaNotifications.shared.post(.mediaViewWillRotateNotification, from: self)
        s.rotate(by: degrees)
        notify { $0.mediaViewDidRotate(self) }
        MediaNotifications.shared.post(.mediaViewDidRotateNotification, from: self)
    }

    /// Shrinks the presented view into the corner thumbnail, as a drag down does, with the
    /// same delegate calls. Nothing happens when it is not presented, already minimized, or
    /// embedded in a host window.
    public func minimize(animated: Bool = true) {
        stage?.setMinimized(true, animated: animated)
    }

    /// Brings the minimized view back to where it was presented.
    public func restore(animated: Bool = true) {
        stage?.setMinimized(false, animated: animated)
    }

    /// Tells the delegate and observers what happened, in one place.
    func report(_ event: SessionEvent?) {
        guard let event else { return }
        switch event {
        case .loaded(let width, let height):
            if width > 0 { notify { $0.mediaView(self, didSetImage: (width, height)) } }
            finishLoading()
        case .played:
            notify { $0.didPlayMedia(for: self) }
        case .paused:
            notify { $0.didPauseMedia(for: self) }
        case .finished(let looped):
            notify { $0.didFinishPlayableMedia(for: self, withLoop: looped) }
        case .failed(let e):
            notify {
                $0.didFailToPlayMedia(for: self)
                $0.didFailToPlayMedia(for: self, error: e)
            }
            finishLoading()
        case .hoveredTrack(let t):
            notify { $0.mediaView(self, didHoverTrackAt: t) }
        case .showedTrackPreview(let t, let waited):
            notify { $0.mediaView(self, didShowTrackPreviewAt: t, waited: waited) }
        case .showedDetail(let waited):
            notify { $0.mediaView(self, didShowDetailAfter: waited) }
        }
    }

    /// Follows the session for the loop, telling the delegate what happened; nil when there
    /// is no session.
    func tick(presented: Bool, now: Double) -> MediaSession.Tick? {
        if session == nil { prepare() }
        guard let s = session else { return nil }
        let t = s.tick(presented: presented, now: now)
        for e in t.events { report(e) }
        return t
    }

    private func finishLoading() {
        let done = loadCompletion
        loadCompletion = nil
        done?(self)
    }
}
