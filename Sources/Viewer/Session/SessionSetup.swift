import Playback
import Windowing

/// What a session knows of the window it is shown in, handed over as a value when the view
/// is prepared and again when it is put on screen, so the session never asks its view or
/// its stage.
struct WindowFacts: Equatable {
    /// The window's size in pixels: big stills are decoded no larger than it needs.
    var width: Int
    var height: Int
    /// The monitor's ICC profile, so pictures show in the display's colours.
    var displayProfile: [UInt8]?
    /// The scale the desktop asks interfaces to be drawn at; nil while no stage shows the view.
    var desktopScale: InterfaceScale?
}

/// Everything a session is made from: the view's media and options as they are now, the
/// window it is for, and the two ways its news leaves it (a wake-up for the main loop, and
/// the path of a download that completed in the disk cache).
///
/// The view hands over new content and options as the owner changes them, so a session
/// drawing the title or the theme colour always draws what the owner set last.
struct SessionSetup {
    var content: MediaView.Content
    var settings: MediaView.Settings
    var window: WindowFacts?
    let wake: @Sendable () -> Void
    /// Runs on a download thread when the media is complete in the disk cache.
    let onCached: @Sendable (String) -> Void
    /// What a photo may show while it decodes: the user waits for a photo opened as it is
    /// shown, while one opened ahead is usually ready before its turn.
    var firstLook = FirstLook.Allowed.cameraThumbnail

    /// The overlays' scale: the view's own, else the desktop's, else 1x.
    var interfaceScale: InterfaceScale {
        settings.interfaceScale ?? window?.desktopScale ?? .one
    }

    /// The player options for opening `url` (already resolved to `resolved`): paused,
    /// named, sized for the window, reading and filling the caches.
    @MainActor
    func openingOptions(url: String, resolved: String) -> PlayerOptions {
        var o = settings.playerOptions
        if let w = window {
            o.targetSize = (w.width, w.height)
            o.displayProfile = w.displayProfile
        }
        o.startPaused = true
        o.soundRole = MediaView.audioTypeWhenPlay.soundRole
        o.pausedStream = MediaView.audioTypeWhenStop.pausedStream
        o.mediaName = content.title ?? MediaView.displayName(url)
        o.source = CacheManager.shared.sourceOptions(o.source, url: resolved, kind: content.kind, onCached: onCached,
                                                     streamToDisk: settings.shouldCacheStreamedMedia,
                                                     preloads: settings.shouldPreloadPlayableMedia)
        return o
    }
}
