import CFFmpeg
import MediaCore

/// The video decode thread's own state and work: frames out of the decoder, the frames
/// before an exact seek's target skipped, cheaper decoding while behind, and the check that
/// a picture showed something. Touched by that thread alone.
final class VideoDecoding: DecodeWork {
    let stage: VideoDecodeStage
    let decoder: any PacketDecoding
    var decoding: any PacketDecoding { decoder }
    private let setup: VideoDecodeStage.Setup
    private let colour: PictureColour?
    private var frame = Frame()
    private var check: PictureCheck
    /// The newest generation start met, and the exact seek skipping in the generation
    /// decoding now: its target, and the newest frame before it, shown after all if the
    /// stream ends before the target.
    private var started: (serial: Int, exact: ExactStart?) = (0, nil)
    private var skipSerial: Int?
    private var skipStart: ExactStart?
    private var lastSkipped: Frame?
    private var lowPowerApplied = false
    private var dropsSeen: Int
    private var catchingUp = 0
    private let oneSecond: Int

    init(stage: VideoDecodeStage, setup: VideoDecodeStage.Setup, colour: PictureColour?) {
        self.stage = stage
        self.setup = setup
        self.colour = colour
        decoder = setup.decoder
        check = PictureCheck(name: stage.name, still: setup.kind == .image)
        dropsSeen = stage.drops.load(ordering: .relaxed)
        let rate = decoder.frameRate
        oneSecond = rate.isFinite && rate >= 1 && rate <= 240 ? Int(rate.rounded()) : 30
    }

    func begin(serial: Int, exact: ExactStart?, stream: StreamParameters?) { started = (serial, exact) }

    /// Passes a decoded frame on to the scheduler; false when the player closed.
    private func hand(_ decoded: Frame, _ s: Int) -> Bool {
        check.shown(decoded, in: s)
        let picture = colour?.manage(decoded) ?? decoded
        let f = picture.raw
        let pts = decoder.seconds(f.pointee.best_effort_timestamp) ?? 0
        let dur = decoder.seconds(f.pointee.pkt_duration) ?? 0
        let vf = VideoFrame(frame: picture, pts: pts, duration: dur, serial: s, rotation: setup.rotation)
        if !stage.frames.push(.frame(vf)) { return false }
        stage.wake()
        return true
    }

    func drain(serial s: Int) -> Bool {
        while true {
            switch decoder.receive(into: frame) {
            case .frame:
                if s != skipSerial {
                    skipSerial = s
                    skipStart = started.serial == s ? started.exact : nil
                    lastSkipped = nil
                }
                if let start = skipStart {
                    if skips(start) { continue }
                    skipStart = nil
                    // A step back shows the frame before the one that was on screen.
                    if start.frame == .before, let last = lastSkipped, !hand(last, s) { return false }
                    lastSkipped = nil
                }
                let f = frame
                frame = Frame()
                if !hand(f, s) { return false }
            case .needsInput, .endOfStream:
                return true
            case .failed(let e):
                if let stopped = decoder.stopped {
                    // The worker decoding the pictures is gone: the item ends with its line.
                    stage.stopped.withLock { $0 = stopped }
                    stage.frames.pushForced(.end(serial: s))
                    stage.wake()
                    return false
                }
                check.damaged(e.code, in: s)
                return true
            }
        }
    }

    /// Whether the frame just decoded comes before an exact seek's start; it is then kept
    /// as the newest skipped.
    private func skips(_ start: ExactStart) -> Bool {
        let f = frame.raw
        let pts = decoder.seconds(f.pointee.best_effort_timestamp) ?? start.time
        guard start.skips(pts: pts, duration: decoder.seconds(f.pointee.pkt_duration) ?? 0) else { return false }
        lastSkipped = frame
        frame = Frame()
        return true
    }

    /// A JPEG still's packet goes through libjpeg-turbo; false hands it to FFmpeg.
    func own(_ packet: Packet, serial s: Int) -> Bool {
        guard let jpeg = setup.jpeg else { return false }
        do throws(AVError) {
            // A push refused here means the player closed; the packet queue is aborted
            // with it, so the loop stops at its next pop.
            _ = hand(try jpeg.decode(packet), s)
        } catch where JPEGStill.isFinal(error.code) {
            // Half a photo with grey below is not the photo, and one too large for the budget
            // is not for FFmpeg either: the item fails, saying why.
            stage.failure.withLock { $0 = AVError(code: error.code, message: "\(stage.name): \(error.message)") }
            stage.frames.pushForced(.end(serial: s))
            stage.wake()
        } catch {
            return false
        }
        return true
    }

    /// Frames dropped since the last packet mean the decoder is behind the clock: the next
    /// second of packets skips the deblocking filter (a sixth of H.264's decoding work on
    /// 4K), as the thumbnail does, so the picture keeps its frames instead of losing more.
    func beforeSend(_ packet: Packet) {
        let drops = stage.drops.load(ordering: .relaxed)
        if drops > dropsSeen {
            dropsSeen = drops
            catchingUp = oneSecond
        }
        if catchingUp > 0 { catchingUp -= 1 }
        let low = stage.lowPower.load(ordering: .relaxed) || catchingUp > 0
        if low != lowPowerApplied {
            // A thumbnail does not show what the deblocking filter smooths.
            decoder.setLowPower(low)
            lowPowerApplied = low
        }
    }

    func sendFailed(_ code: Int32, serial s: Int) { check.damaged(code, in: s) }

    func atEnd(serial s: Int) {
        // An exact seek past the last frame (sound longer than the picture) still shows
        // the last picture, as a keyframe seek would.
        if s == skipSerial, let last = lastSkipped {
            lastSkipped = nil
            _ = hand(last, s)
        }
        // Set before the end is queued, so the viewer meets the failure, not a finished picture.
        if setup.kind == .image || setup.kind == .animated, let e = check.failure(in: s) {
            stage.report(e)
        } else if setup.kind == .video, let e = check.firstFailure(in: s) {
            // A film whose picture data is all damaged still plays its sound, if that
            // decodes; without a word its window would stay black for no reason given.
            stage.onWarning("mediaview: \(e.message)")
        }
        stage.frames.pushForced(.end(serial: s))
        stage.wake()
    }
}
