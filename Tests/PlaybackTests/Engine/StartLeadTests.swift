import Foundation
import MediaCore
import Testing
@testable import Playback

/// A film starts playing once its decoder is a few frames ahead of the first picture, so a
/// decoder slow to get going (4K beside another busy program) skips no frame at the start.
/// Driven frame by frame through the scheduler that picks what the window shows.
@Suite struct StartLeadTests {
    /// A scheduler for a silent film, and the queue its decoder would fill.
    func scheduler() -> (VideoScheduler, BoundedQueue<FrameItem>) {
        var o = PlayerOptions()
        o.audio = false
        let frames = BoundedQueue<FrameItem>(capacity: 4)
        let serial = SeekSerial()
        let demux = DemuxStage(url: "file:/film.mp4", options: o, serial: serial, pictureFrames: frames, wake: {})
        let info = MediaInfo(kind: .video, duration: 10, width: 64, height: 36, hasAudio: false, hasCoverArt: false,
                             formatName: "mp4", videoCodec: "h264", audioCodec: nil, title: nil, artist: nil, rotation: 0)
        demux.state.withLock { $0.phase = .ready(info) }
        let audio = AudioDecodeStage(options: o, serial: serial, wake: {})
        return (VideoScheduler(frames: frames, demux: demux, audio: audio, serial: serial, options: o, onDrop: {}), frames)
    }

    func push(_ q: BoundedQueue<FrameItem>, frame n: Int) {
        _ = q.push(.frame(VideoFrame(frame: Frame(), pts: Double(n) / 60, duration: 1.0 / 60, serial: 0, rotation: 0)))
    }

    /// The pts of the frame shown next, looking again until one is (at most `seconds`).
    func nextShown(_ s: VideoScheduler, within seconds: Double = 1) -> Double? {
        let end = MonotonicClock.seconds() + seconds
        while MonotonicClock.seconds() < end {
            switch s.nextFrame() {
            case .show(let f): return f.pts
            case .wait(let w): usleep(UInt32(max(0.001, min(w, 0.01)) * 1e6))
            case .idle, .finished: return nil
            }
        }
        return nil
    }

    @Test func framesThatComeLateAtTheStartAreShownNotSkipped() throws {
        let (s, q) = scheduler()
        push(q, frame: 0)
        #expect(nextShown(s) == 0)
        // The decoder takes 60 ms for its next two frames: on the clock of the first picture
        // both would already be past, and the first of them skipped.
        usleep(60_000)
        push(q, frame: 1)
        push(q, frame: 2)
        if case .show(let f) = s.nextFrame() { Issue.record("frame \(f.pts) shown before the decoder had a lead") }
        push(q, frame: 3)
        #expect(nextShown(s) == 1.0 / 60)
        #expect(nextShown(s) == 2.0 / 60)
        #expect(nextShown(s) == 3.0 / 60)
        #expect(s.dropped == 0)
    }

    @Test func aDecoderThatBuildsNoLeadStillStartsWithinAQuarterSecond() throws {
        let (s, q) = scheduler()
        push(q, frame: 0)
        #expect(nextShown(s) == 0)
        push(q, frame: 1)
        let start = MonotonicClock.seconds()
        #expect(nextShown(s) == 1.0 / 60)
        let waited = MonotonicClock.seconds() - start
        #expect(waited >= VideoScheduler.startLeadWait - 0.02 && waited < VideoScheduler.startLeadWait + 0.1,
                "the second frame came after \(waited) s")
    }
}
