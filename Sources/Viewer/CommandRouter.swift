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
    enum Target { case media, window, queue }

    func execute(_ c: PlayerCommand, on stage: Stage) {
        switch c.target {
        case .media:
            if let v = stage.view { v.perform(c) }
            stage.perform(c)
        case .window:
            stage.perform(c)
        case .queue:
            queue.perform(c)
        }
        stage.needsRedraw = true
    }

    /// The stage's view is done (close button, thrown away): the queue moves on.
    func dismissCurrent(from stage: Stage) {
        queue.dismissCurrent(animated: false)
    }
}

extension PlayerCommand {
    /// What the command acts on.
    var target: CommandRouter.Target {
        switch self {
        case .togglePause, .seek, .seekAbsolutePercent, .volume, .toggleMute, .toggleLoop, .rotate, .toggleTrack,
             .zoom, .zoomReset, .pan:
            return .media
        case .dismiss, .toggleFullscreen, .toggleDetails, .minimize, .restore, .paste, .copy:
            return .window
        case .next, .previous, .quit:
            return .queue
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
        case .volume(let d): volume += Double(d) / 100
        case .toggleMute: isMuted.toggle()
        case .toggleLoop: settings.allowLooping.toggle()
        case .rotate(let degrees): rotate(by: degrees)
        case .toggleTrack: settings.shouldShowTrack.toggle()
        case .zoom(let d): zoom(by: d)
        case .zoomReset: toggleFitNative()
        case .pan(let dx, let dy): pan(dx: dx, dy: dy)
        default: break
        }
    }
}
