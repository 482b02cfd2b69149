/// A photo replacing the one before it, as image viewers do it.
///
/// Stepping through photos used to draw each new item once before its picture came: the
/// window went black with a spinner for the few milliseconds a photo takes to decode, a
/// flash on every step. eog and Loupe keep the previous photo until the next is ready, and
/// so does the stage now, for a short while: a photo that decodes within it replaces the
/// last one directly, and one that takes longer shows its spinner (or first look) after it.
/// The flash also cost a whole-window clear and copy to the X server on every step.
extension Stage {
    /// What the stage has drawn into its window, and what it waits to draw first.
    struct Drawing {
        /// The view just shown, until its first picture reaches the window.
        var arrival = Arrival()
        /// The draws into the window: the last one's time and size, and counts.
        var draws = Draws()
    }

    /// The view just put on the stage, until its first picture reaches the window.
    struct Arrival {
        /// Its first picture (for sound, the music indicator) has not been drawn yet.
        var awaitingFirstFrame = false
        /// Whether the window keeps what it shows while the new still decodes.
        var hold = Hold.notYet
    }

    /// The stage's draws into its window.
    struct Draws {
        /// When the last one was, on the loop's clock; 0 before the first.
        var lastAt: Double = 0
        /// The window's size then: nil before the first draw. After a resize the window's
        /// old content no longer fits it, and nothing is kept.
        var lastSize: (width: Int, height: Int)?
        /// Draws so far: what a loading indicator's pace is seen by.
        var count = 0
        /// Frames of the media's own picture shown, for the program's statistics.
        var framesShown = 0
    }

    /// Time between frames of the loading and buffering indicators.
    static let indicatorInterval = 1.0 / 30

    /// The window keeping what it shows for a new still.
    enum Hold {
        /// No draw was due yet since the view was shown.
        case notYet
        /// The window keeps what it shows until then, unless the picture comes first.
        case until(Double)
        /// The view has been drawn (or the hold ran out): every draw goes ahead.
        case over
    }

    /// How long the previous picture stays while a still decodes. Long enough for a photo
    /// of a few megapixels or a small PNG; short enough that a slow one's spinner, or its
    /// first look, is not felt as late.
    static let stillHold = 0.15

    /// Whether the draw due now is skipped, leaving the window as it is, because the still
    /// just shown has nothing to draw yet and the hold has not run out.
    func keepsPreviousPicture(now: Double) -> Bool {
        let until: Double
        switch drawing.arrival.hold {
        case .over: return false
        case .notYet: until = now + Stage.stillHold
        case .until(let t): until = t
        }
        guard now < until, drawing.arrival.awaitingFirstFrame, let v = view, v.kind == .image, v.failure == nil,
              !v.hasPictureToShow, motion.animation == nil, let drawn = drawing.draws.lastSize,
              drawn == (window.width, window.height) else {
            drawing.arrival.hold = .over
            return false
        }
        drawing.arrival.hold = .until(until)
        return true
    }

    /// When to draw once the hold runs out, if the still has not come by then.
    func holdDeadline(now: Double) -> Double? {
        guard case .until(let until) = drawing.arrival.hold else { return nil }
        if now >= until {
            needsRedraw = true
            return nil
        }
        return until - now
    }
}
