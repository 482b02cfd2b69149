import Playback
import Windowing

/// Sends each command to what it acts on: the media of the stage's view, the stage's
/// window, or the queue. Each of those carries its commands out itself, so no one switch
/// grows with every feature.
@MainActor
final class CommandRouter {
    unowned let queue: MediaQueue

    init(queue: MediaQueue) { self.queue = queue }

    /// What a command acts on.
    enum Target { case media, window, queue, gallery }

    func execute(_ c: PlayerCommand, on stage: Stage) {
        switch c.target {
        case .media:
            if let v = stage.view { v.perform(c) }
            stage.perform(c)
        case .window:
            stage.perform(c)
        case .queue:
            queue.perform(c)
        case .gallery:
            queue.screen?.gallery.perform(c, on: stage)
        }
        stage.needsRedraw = true
    }

    /// The stage's view is done (close button, thrown away): the queue moves on, or a
    /// pinned thumbnail closes.
    func dismissCurrent(from stage: Stage) {
        if stage.isPinned { queue.unpin(stage, present: false) } else { queue.dismissCurrent(animated: false) }
    }

    /// A pinned thumbnail was asked to come back to full size: it becomes the presented item.
    func restorePinned(_ stage: Stage) {
        queue.unpin(stage, present: true)
    }
}

extension PlayerCommand {
    /// Whether a held key goes on doing it, as mpv's repeatable commands do.
    var repeatsWhileHeld: Bool {
        switch self {
        case .seek, .volume, .zoom, .pan, .chapter, .galleryMove, .galleryPage, .galleryScroll, .speed, .frameStep: return true
        default: return false
        }
    }

    /// What the command acts on.
    var target: CommandRouter.Target {
        switch self {
        case .togglePause, .seek, .seekAbsolutePercent, .seekAbsolute, .volume, .chapter, .toggleMute, .toggleLoop, .rotate, .toggleTrack,
             .zoom, .zoomReset, .pan, .frameStep, .cycleSubtitles, .cycleAudio:
            return .media
        case .dismiss, .toggleFullscreen, .toggleDetails, .minimize, .restore, .paste, .copy:
            return .window
        case .toggleInfo:
            return .window
        // The speed is the queue's, as mpv's is the player's: the next item plays at it too.
        case .next, .previous, .first, .last, .trash, .undoTrash, .quit, .screenshot, .pin, .speed, .toggleSubtitles:
            return .queue
        case .toggleGallery, .galleryMove, .galleryPage, .galleryScroll, .galleryFirst, .galleryLast, .galleryOpen:
            return .gallery
        }
    }
}

extension MediaView {
    /// Carries out a command on this view's media.
    func perform(_ c: PlayerCommand) {
        switch c {
        case .togglePause: togglePlay()
        case .seek(let s): seek(by: s)
        case .seekAbsolutePercent(let p): seek(toFraction: p / 100)
        case .seekAbsolute(let s): seek(to: s)
        case .chapter(let d): jumpChapter(by: d)
        case .volume(let d): volume += Double(d) / 100
        case .toggleMute: isMuted.toggle()
        case .toggleLoop: settings.allowLooping.toggle()
        case .rotate(let degrees): rotate(by: degrees)
        case .toggleTrack: settings.shouldShowTrack.toggle()
        case .zoom(let d): zoom(by: d)
        case .zoomReset: toggleFitNative()
        case .pan(let dx, let dy): pan(dx: dx, dy: dy)
        case .frameStep(let forward): stepFrame(forward: forward)
        case .cycleSubtitles: cycleSubtitleTrack()
        case .cycleAudio: cycleAudioTrack()
        default: break
        }
    }
}
