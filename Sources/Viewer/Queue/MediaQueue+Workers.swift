import Playback

extension MediaQueue {
    /// Tells the decode workers whether any other item could be shown after this one: with
    /// none before or after it (`mediaview film.mkv`), no workers are started ahead for a
    /// next item, and the memory they would hold stays free.
    func othersChanged() {
        // The view shown is still in `views`; anything else there, or behind, could follow.
        let others = !history.isEmpty || views.contains { $0 !== current }
        if DecodeWorkers.startsWorkersForNextItem != others { DecodeWorkers.startsWorkersForNextItem = others }
    }
}
