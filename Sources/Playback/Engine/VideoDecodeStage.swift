import MediaCore
import Synchronization

/// The video decode stage: takes the demux stage's video packets on its own thread
/// (`mv-video`) and puts decoded frames, in display order, into the frame queue the
/// scheduler shows from. The work of the thread is `VideoDecoding`.
///
/// Its interface is values: `PacketItem`s in, `FrameItem`s out; the scheduler reports
/// dropped frames and the viewer asks for cheap decoding through one-word commands.
final class VideoDecodeStage: Sendable {
    /// What the demux stage found for this stage to decode.
    struct Setup: @unchecked Sendable {
        // @unchecked: made on the demux thread and handed to this stage's thread, which is
        // the only one to touch the decoder from then on.
        var decoder: any PacketDecoding
        /// Clockwise turn of every frame, from the stream's display matrix.
        var rotation: Int
        /// A still or an animation with nothing to show fails the item (`PictureCheck`).
        var kind: MediaInfo.Kind
        /// A JPEG still goes through libjpeg-turbo, and on to FFmpeg only if it declines it.
        var jpeg: JPEGStill?
        /// Pictures are converted from their embedded profile to the display's.
        var managesColour: Bool
    }

    let name: String
    let displayProfile: [UInt8]?
    let serial: SeekSerial
    let wake: @Sendable () -> Void
    /// Where a line for the user goes when the film plays on (`PlayerOptions.onWarning`).
    let onWarning: @Sendable (String) -> Void
    /// The decoded frames, for the scheduler.
    let frames = BoundedQueue<FrameItem>(capacity: 4)
    /// A picture that cannot be shown (a cut JPEG, a still with nothing decoded): set before
    /// the end is queued, so the viewer meets the failure, not a finished picture.
    let failure = Locked<AVError?>(nil)
    /// The sandboxed decoder stopped (crashed, killed, hung): the item fails with this line,
    /// whatever its kind.
    let stopped = Locked<AVError?>(nil)
    // Atomics rather than a lock: each is one word the decode thread reads once per packet.
    /// The viewer shows the picture small (the thumbnail): decode more cheaply.
    let lowPower = Atomic<Bool>(false)
    /// Frames the scheduler dropped as late, so far.
    let drops = Atomic<Int>(0)

    init(name: String, displayProfile: [UInt8]?, serial: SeekSerial, wake: @escaping @Sendable () -> Void,
         onWarning: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.displayProfile = displayProfile
        self.serial = serial
        self.wake = wake
        self.onWarning = onWarning
    }

    /// Decodes `setup`'s stream from `packets` until closed; the body of the stage's thread.
    func run(_ setup: Setup, from packets: BoundedQueue<PacketItem>) {
        // The thread gets a colour manager of its own (it keeps the transform it last made).
        let colour = setup.managesColour ? PictureColour(displayProfile: displayProfile, name: name) : nil
        let work = VideoDecoding(stage: self, setup: setup, colour: colour)
        DecodeLoop(serial: serial).run(work, from: packets)
    }

    /// The scheduler skipped a late frame: the decoder is behind the clock.
    func frameDropped() { drops.add(1, ordering: .relaxed) }

    /// Records the first failure of the picture.
    func report(_ error: AVError) {
        failure.withLock { if $0 == nil { $0 = error } }
    }

    /// Wakes the scheduler and the thread for shutdown.
    func close() { frames.abort() }
}
