import MediaCore
import Playback

/// The animation a worker plays for the viewer: opened from the bytes handed over with
/// `animationOpen`, its decoder kept between frames until the next open or the worker's end.
final class AnimationServing {
    private var work: AnimationWork?
    /// The open animation's name, for the tests' crashing files.
    private(set) var name = ""

    /// Opens the animation in `m`'s memfd (laid out as a decode request) and answers its
    /// first frame, or the one line saying why it cannot be played.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        work = nil
        name = m.text
        return Serving.read(m) { r in
            do throws(AVError) {
                let opened = try AnimationWork(r.bytes, name: r.name, maxPixels: r.maxPixels, displayProfile: r.icc)
                work = opened
                return opened.next()
            } catch {
                return WorkerMessage(kind: .failure, text: error.message)
            }
        }
    }

    /// The next frame of the open animation (from its start when `numbers[0]` is 1).
    func next(_ m: WorkerMessage) -> WorkerMessage {
        guard let work else { return WorkerMessage(kind: .failure, text: "animation: none is open") }
        return work.next(restart: m.numbers.first == 1)
    }
}
