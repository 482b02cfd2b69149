import MediaCore

/// Holds a video's sound back until its first picture is up.
///
/// The first frames of a large video can take a tenth of a second and more to decode (a 4K
/// stream's first keyframe), while its sound is ready at once. Started together, the sound
/// ran ahead, the clock that follows it found the early frames late, and the player dropped
/// some in the first half second. Held until the picture shows, both start from the same
/// moment, as mpv starts them.
final class PictureGate: @unchecked Sendable {
    // @unchecked: `isOpen` is read and written only with `condition` locked.
    private let condition = Condition()
    private var isOpen = false

    /// Lets the sound go: the first picture is up, or the player closes.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `open`, at most `seconds`: a picture that never comes (a broken video
    /// track) does not keep the sound silent.
    func wait(seconds: Double) {
        let end = MonotonicClock.seconds() + seconds
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            let left = end - MonotonicClock.seconds()
            if left <= 0 || !condition.wait(seconds: left) { return }
        }
    }
}
