import CFFmpeg
import MediaCore

/// What the decoder said about a picture-only stream (a still, an animation), per seek
/// generation: whether any picture came out, and the first error it reported.
///
/// A still is a single picture. When its file is cut short or damaged, FFmpeg's decoder
/// reports an error, or hands over nothing (a PNG: with frame threads FFmpeg drops the error
/// while draining), or a patched-up picture marked corrupt; whichever, what a user would see
/// is not the photo, so the item fails with a reason instead of finishing quietly on a blank
/// or half picture. An animation (or a video) cut short plays the frames it has, as a damaged
/// video plays what decodes; only when not one frame decodes is there nothing to play.
struct PictureCheck {
    /// How messages name the file.
    let name: String
    /// A still: any damage fails it. Otherwise only a stream with no picture at all fails.
    let still: Bool
    private var generation: Int?
    private var pictureShown = false
    /// An animation that showed frames once is not failed by a later pass that shows none
    /// (a loop over a source that cannot seek back ends at once).
    private var everShown = false
    private var firstError: Int32?
    /// `firstFailure` has answered.
    private var failureTold = false

    init(name: String, still: Bool) {
        self.name = name
        self.still = still
    }

    /// A picture came out; the decoder marks one it had to patch up (its error concealment)
    /// as corrupt, which for a still is damage too.
    mutating func shown(_ frame: Frame, in serial: Int) {
        start(serial)
        pictureShown = true
        everShown = true
        let f = frame.raw.pointee
        if f.flags & AV_FRAME_FLAG_CORRUPT != 0 || f.decode_error_flags != 0 { damaged(cff_averror_invaliddata, in: serial) }
    }

    mutating func damaged(_ code: Int32, in serial: Int) {
        start(serial)
        if firstError == nil { firstError = code }
    }

    /// Why the picture of generation `serial` failed, once its stream has ended; nil when
    /// there is something to show.
    func failure(in serial: Int) -> AVError? {
        let current = generation == serial
        if still ? !current || !pictureShown : !everShown {
            return AVError(code: cff_averror_invaliddata,
                           message: "\(name): the picture is damaged or cut short; nothing of it could be decoded")
        }
        if still, current, let code = firstError {
            let why = code == cff_averror_invaliddata ? "" : " (\(AVError.describe(code)))"
            return AVError(code: code, message: "\(name): the picture is damaged or cut short\(why)")
        }
        return nil
    }

    /// `failure(in:)` the first time it has one, then nil: a film plays on, and says it
    /// once.
    mutating func firstFailure(in serial: Int) -> AVError? {
        guard !failureTold, let e = failure(in: serial) else { return nil }
        failureTold = true
        return e
    }

    private mutating func start(_ serial: Int) {
        guard generation != serial else { return }
        generation = serial
        pictureShown = false
        firstError = nil
    }
}
