import Playback
import Windowing

/// Playing, pausing, seeking, and following the player from the main loop.
extension MediaView {
    /// What one look at the player found.
    struct Tick {
        /// Something changed on screen.
        var redraw = false
        /// Seconds until the player wants another look; nil: only when woken.
        var deadline: Double?
        /// The media played to its end (and does not loop).
        var finished = false
    }

    public func play() {
        guard let p = player, failure == nil else { return }
        if finishedAt != nil {
            finishedAt = nil
            p.seek(to: 0)
        }
        guard p.isPaused else { return }
        p.setPaused(false)
        hasStartedPlaying = true
        // Stills have nothing to play; until the kind is known the notice waits.
        if let info { if info.kind != .image { notify { $0.didPlayMedia(for: self) } } } else { playNoticePending = true }
    }

    public func pause() {
        guard let p = player, !p.isPaused else { return }
        p.setPaused(true)
        playNoticePending = false
        if info.map({ $0.kind != .image }) ?? false { notify { $0.didPauseMedia(for: self) } }
    }

    public func togglePlay() {
        if isPlaying { pause() } else { play() }
    }

    /// Seeks by `seconds` from the current position, to that very point (not the keyframe
    /// before it, which in a long GOP can be behind where the seek started).
    public func seek(by seconds: Double) {
        guard let p = player, isPlayable else { return }
        finishedAt = nil
        p.seek(to: p.position + seconds, exact: true)
    }

    /// Seeks to `fraction` (0...1) of the duration, exactly there.
    public func seek(toFraction fraction: Double) {
        guard let p = player, let d = info?.duration, isPlayable else { return }
        finishedAt = nil
        p.seek(to: max(0, min(1, fraction)) * d, exact: true)
    }

    /// The playback position in seconds.
    public var position: Double { player?.position ?? 0 }

    /// Volume 0...1 of this view's sound.
    public var volume: Double {
        get { player?.volume ?? playerOptions.volume }
        set {
            playerOptions.volume = max(0, min(1, newValue))
            player?.setVolume(playerOptions.volume, muted: playerOptions.muted)
        }
    }

    public var isMuted: Bool {
        get { playerOptions.muted }
        set {
            playerOptions.muted = newValue
            player?.setVolume(playerOptions.volume, muted: newValue)
        }
    }

    /// Follows the player: new frames, end of media, failures. `presented` says whether
    /// the view is on screen (a prefetched view only opens).
    func tick(presented: Bool, now: Double) -> Tick {
        var t = Tick()
        deliverCacheNews()  // issue 5: didDownload... from download threads
        if failure != nil { return t }
        if player == nil { prepare() }
        if let e = pendingFailure {
            // A prefetched item that cannot play says so when its turn comes, not before.
            guard presented else { return t }
            pendingFailure = nil
            fail(e)
            t.redraw = true
            return t
        }
        guard let p = player else { return t }
        switch p.phase {
        case .opening:
            return t
        case .failed(let e):
            guard presented else { return t }
            fail(MediaError(e.message))
            t.redraw = true
            return t
        case .ready(let info):
            if !announcedReady {
                announcedReady = true
                // The loading indicator gives way to whatever the media shows.
                t.redraw = true
                if info.width > 0 { notify { $0.mediaView(self, didSetImage: (info.width, info.height)) } }
                let done = loadCompletion
                loadCompletion = nil
                done?(self)
                if playNoticePending {
                    playNoticePending = false
                    if info.kind != .image { notify { $0.didPlayMedia(for: self) } }
                }
            }
        }
        let small = tickThumbnails(presented: presented)
        if small.redraw { t.redraw = true }
        if let d = small.deadline { t.deadline = d }
        guard presented else { return t }
        if let e = p.streamError, SourceOptions.isNetwork(mediaURL ?? "") || p.info?.kind == .image {
            fail(MediaError(e.message))
            t.redraw = true
            return t
        }
        switch p.nextFrame() {
        case .show(let f):
            lastFrame = f
            t.redraw = true
        case .wait(let d):
            t.deadline = d
        case .idle:
            break
        case .finished:
            t = handleEnd(p, now: now, tick: t)
        }
        if presented && tickDetail() { t.redraw = true }
        return t
    }

    private func handleEnd(_ p: Player, now: Double, tick: Tick) -> Tick {
        var t = tick
        guard let info else { return t }
        switch info.kind {
        case .animated:
            // GIFs loop, as browsers play them.
            if finishedAt == nil { finishedAt = now }
            loops += 1
            p.seek(to: 0)
            t.deadline = 0
        case .image:
            if finishedAt == nil { finishedAt = now }
            t.finished = true
        case .video, .audio:
            if finishedAt != nil { t.finished = true; return t }
            let looping = allowLooping && !shouldDismissAfterFinishedPlaying
            notify { $0.didFinishPlayableMedia(for: self, withLoop: looping) }
            if looping {
                loops += 1
                p.seek(to: 0)
                t.deadline = 0
            } else {
                finishedAt = now
                p.setPaused(true)
                t.finished = true
                t.redraw = true
            }
        }
        return t
    }

    /// Whether this item is done for a queue that advances by itself: stills after their
    /// duration, GIFs after a full loop and their duration, playable media at their end.
    func isDone(now: Double) -> Bool {
        if failure != nil { return true }
        guard let info, let since = finishedAt else { return false }
        switch info.kind {
        case .image: return now - since >= imageDuration
        case .animated: return loops > 0 && now - firstShownAt >= imageDuration
        case .video, .audio: return true
        }
    }
}

extension MediaView {
    /// Lets go of the player (threads, sound stream, frames) but keeps the media, so the
    /// view can be presented again later.
    func releasePlayer() {
        playNoticePending = false
        pendingFailure = nil
        scaler = nil
        closeSmallPlayers()
        dropDetail()
        player?.close()
        player = nil
        lastFrame = nil
        announcedReady = false
        finishedAt = nil
        loops = 0
    }

    /// Starts over from the beginning the next time it is presented.
    func rewind() {
        releasePlayer()
    }
}
