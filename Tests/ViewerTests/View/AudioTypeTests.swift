import Foundation
import Testing
import TestSupport
@testable import Viewer

/// `MediaView.audioTypeWhenPlay` and `audioTypeWhenStop` as the desktop's mixer sees them:
/// the stream's `media.role` while playing, and whether pausing corks it, read back from
/// the real PulseAudio server with `pactl`.
@Suite(.serialized)
@MainActor
struct AudioTypeTests {
    /// One of our process's playback streams, as `pactl list sink-inputs` shows it.
    struct Stream {
        var role: String?
        var corked: Bool
    }

    /// Our process's playback streams in the sound server now.
    static func streams() throws -> [Stream] {
        let r = try Run.process("pactl", ["list", "sink-inputs"], timeout: 10, environment: Run.environment(["LC_ALL": "C"]))
        var out: [Stream] = []
        for block in r.stdout.components(separatedBy: "Sink Input #").dropFirst() {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard lines.contains("application.process.id = \"\(getpid())\"") else { continue }
            let role = lines.first { $0.hasPrefix("media.role = ") }.map { String($0.dropFirst(13)).replacingOccurrences(of: "\"", with: "") }
            out.append(Stream(role: role, corked: lines.contains("Corked: yes")))
        }
        return out
    }

    /// Turns the loop until our one stream satisfies `condition` (or 10 s pass); returns
    /// the stream last seen.
    func waitForStream(_ h: QueueHarness, _ condition: (Stream) -> Bool) throws -> Stream? {
        var last: Stream?
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            last = try Self.streams().last
            if let s = last, condition(s) { return s }
            h.pump(seconds: 0.05)
        }
        return last
    }

    /// Plays a 6 s tone under the two settings, then pauses it; returns the harness, the
    /// view and the stream as it was while playing.
    func playTone(whenPlay: MediaView.AudioType, whenStop: MediaView.AudioType) throws
        -> (h: QueueHarness, v: MediaView, playing: Stream?) {
        MediaView.audioTypeWhenPlay = whenPlay
        MediaView.audioTypeWhenStop = whenStop
        let h = QueueHarness()
        let v = MediaView()
        v.setAudio(url: try Fixtures.tone(660, seconds: 6))
        h.queue.queue(mediaView: v)
        h.pump(seconds: 10) { v.session?.player?.hasAudioOutput == true }
        v.play()
        let playing = try waitForStream(h) { !$0.corked }
        return (h, v, playing)
    }

    @Test("Played when silent, the sound is music with its own volume; stopped as standard, the stream is corked")
    func mediaThenCorked() throws {
        defer { MediaView.audioTypeWhenPlay = .playWhenSilent; MediaView.audioTypeWhenStop = .standard }
        let (h, v, playing) = try playTone(whenPlay: .playWhenSilent, whenStop: .standard)
        defer { h.queue.shutdown() }
        #expect(playing?.role == "music", "while playing: \(String(describing: playing))")
        #expect(playing?.corked == false)
        v.pause()
        let paused = try waitForStream(h) { $0.corked }
        #expect(paused?.corked == true, "paused, the stream is still running")
    }

    @Test("Played as standard, the sound is a system sound; stopped when silent, the stream runs on and plays again")
    func systemSoundKeptRunning() throws {
        defer { MediaView.audioTypeWhenPlay = .playWhenSilent; MediaView.audioTypeWhenStop = .standard }
        let (h, v, playing) = try playTone(whenPlay: .standard, whenStop: .playWhenSilent)
        defer { h.queue.shutdown() }
        #expect(playing?.role == "event", "while playing: \(String(describing: playing))")
        #expect(playing?.corked == false)
        h.pump(seconds: 3) { v.position > 0.5 }
        v.pause()
        let pausedAt = v.position
        // Watched for a second through the server's own answers: a cork would show at once.
        let end = Date().addingTimeInterval(1)
        var looks = 0
        while Date() < end {
            let s = try Self.streams().last
            #expect(s?.corked == false, "paused, the stream was corked")
            if s?.corked != false { break }
            looks += 1
            h.pump(seconds: 0.05)
        }
        #expect(looks >= 3, "the server answered only \(looks) times")
        #expect(abs(v.position - pausedAt) < 0.05, "paused, the position went from \(pausedAt) to \(v.position)")
        // Kept running, it plays again from where it stood.
        v.play()
        h.pump(seconds: 5) { v.position > pausedAt + 1 }
        #expect(v.position > pausedAt + 1, "playing again, the position stayed at \(v.position) from \(pausedAt)")
        #expect(v.position < pausedAt + 3)
    }
}
