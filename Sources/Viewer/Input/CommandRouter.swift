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
        stage.setNeedsRedraw()
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
