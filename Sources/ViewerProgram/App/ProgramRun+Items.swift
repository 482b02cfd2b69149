import Playback
import Viewer
import Web

/// How every item is made, from the command line, a drop, Ctrl+V or the control socket
/// alike: a view configured from the options, with the recorders that log it and
/// remember where it was left.
extension ProgramRun {
    /// A new item for `input`, observed by the event log and resume, known to the socket.
    ///
    /// Every item is made like one template, which holds the options and the recorders
    /// once: a folder of a million files costs a view with its path per file, not a copy
    /// of every option and three recorders each.
    func makeItem(_ input: String) -> MediaView {
        let template = itemTemplate()
        // Settings set over the socket reach the template, so the items made after share
        // them too rather than each making its own copy.
        ipc?.adopt(template)
        let v = MediaView(like: template)
        v.setMedia(url: input)
        v.setTitle(options.look.title, details: options.look.details)
        // The item's number in the event log, and (plus one) its playlist entry id.
        v.tag = made
        made += 1
        return v
    }

    /// The view items are made like, made with the first: the command line's options, the
    /// icons, and the recorders that tell each item apart by the view they hear.
    private func itemTemplate() -> MediaView {
        if let template { return template }
        let t = Self.configuredView(nil, options: options)
        icons.apply(to: t)
        t.addObserver(EventRecorder(log: log))
        t.addObserver(StartupPages())
        if let relay = ipc?.relay { t.addObserver(relay) }
        if let resumer { t.addObserver(resumer) }
        template = t
        return t
    }

    /// A view configured from the command line.
    static func configuredView(_ input: String?, options o: ProgramOptions) -> MediaView {
        let v = MediaView()
        if let input { v.setMedia(url: input) }
        v.setTitle(o.look.title, details: o.look.details)
        v.shouldAutoPlayAfterPresentation = o.playback.autoplay
        v.allowLooping = o.playback.loop
        v.shouldDismissAfterFinishedPlaying = o.playback.dismissAfterFinish
        v.contentMode = o.playback.contentMode == .fill ? .scaleAspectFill : .scaleAspectFit
        v.videoAspectFit = o.playback.videoAspectFit
        v.pictureFit = o.playback.pictureFit
        v.imageDuration = o.scripts.imageDuration
        // Embedded with --wid, a click grows the view to fullscreen, as inline views do.
        v.shouldDisplayFullscreen = o.window.parentWindow != nil
        apply(o.look, to: v)
        apply(o.minimizing, to: v)
        v.playerOptions.audio = o.scripts.audioEnabled && !o.scripts.benchmark
        v.playerOptions.untimed = o.scripts.benchmark
        v.playerOptions.volume = Double(o.playback.volume) / 100
        v.playerOptions.muted = o.playback.muted
        v.playbackSpeed = o.playback.speed
        v.playerOptions.source.maxPixels = o.cache.maxPixels
        v.playerOptions.source.networkTimeout = o.cache.timeout
        v.playerOptions.sandbox = o.cache.sandbox
        v.playerOptions.subtitleFiles = o.playback.subtitleFiles
        v.playerOptions.findsSubtitleFiles = o.playback.subtitleAuto
        v.showsSubtitles = o.playback.subtitlesVisible
        CacheManager.shared.configure(directory: o.cache.directory, enabled: o.cache.enabled)
        v.shouldPreloadPlayableMedia = o.cache.preload
        return v
    }

    private static func apply(_ look: ProgramOptions.Look, to v: MediaView) {
        v.shouldShowTrack = look.showTrack
        v.shouldDisplayRemainingTime = look.remainingTime
        v.trackFont = look.trackFont
        v.shouldShowTrackPreviews = look.trackPreviews
        if let p = look.uiScalePercent { v.interfaceScale = InterfaceScale(factor: Double(p) / 100) }
        if let c = look.themeColor { v.themeColor = Color(r: c.red, g: c.green, b: c.blue) }
        v.shouldHideCloseButton = look.hideCloseButton
        v.shouldHidePlayButton = look.hidePlayButton
    }

    private static func apply(_ minimizing: ProgramOptions.Minimizing, to v: MediaView) {
        v.swipeMode = MediaView.SwipeMode(rawValue: minimizing.swipeMode.rawValue) ?? .minimize
        v.minimizedAspectRatio = AspectRatio(minimizing.aspectRatio)
        v.minimizedWidthRatio = minimizing.widthRatio
        v.minimizedOnAllWorkspaces = minimizing.sticky
        v.topBuffer = EdgeBuffer(minimizing.topBuffer)
        v.bottomBuffer = EdgeBuffer(minimizing.bottomBuffer)
    }
}
