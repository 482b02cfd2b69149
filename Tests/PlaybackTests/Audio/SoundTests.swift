import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// What is heard: tones recorded from the null sink's monitor, volume and mute, and
/// pictures kept in step with the sound.
@Suite(.serialized) struct SoundTests {
    /// Plays `path` to its end with sound on while recording the sink; returns the samples.
    func record(_ path: String, configure: (inout PlayerOptions) -> Void = { _ in })
        throws -> (samples: [Int16], driver: PlayerDriver, run: (frames: [ShownFrame], finished: Bool)) {
        let rec = try AudioProbe.startRecording()
        // parec needs a moment to connect; sound played before that would be lost.
        usleep(300_000)
        let d = PlayerDriver(path, audio: true, configure: configure)
        defer { d.player.close() }
        let run: (frames: [ShownFrame], finished: Bool)
        do {
            _ = try d.ready()
            run = d.play(limit: 8)
            // (Asked after playing: the stream is made by the audio thread after opening.)
            #expect(d.player.hasAudioOutput, "no PulseAudio stream although the server runs")
        }
        usleep(200_000)
        return (AudioProbe.finish(rec), d, run)
    }

    @Test("A 1 kHz wav is heard at 1 kHz, for about its length")
    func tone1k() throws {
        let r = try record(try Fixtures.tone(1000, seconds: 1))
        #expect(r.run.finished)
        let f = try #require(AudioProbe.dominantFrequency(r.samples), "nothing audible was recorded")
        #expect(abs(f - 1000) <= 10, "heard \(f) Hz")
        // How long it was loud: 1 s of tone (20 ms blocks above a quarter of the peak RMS).
        let loud = AudioProbe.loudSeconds(r.samples)
        #expect(loud > 0.85 && loud < 1.2, "loud for \(loud) s")
    }

    /// MP3's decoder runs in a sandboxed worker, and what comes back through its shared
    /// memory is the tone, for its length.
    @Test("A 1 kHz MP3 decoded by a sandboxed worker is heard at 1 kHz, for about its length")
    func toneFromAWorker() throws {
        let before = DecodeWorkers.shared.soundsDecoded
        let r = try record(try Fixtures.tone(1000, seconds: 1, ext: "mp3"))
        #expect(DecodeWorkers.shared.soundsDecoded == before + 1, "the sound was not decoded by a worker")
        #expect(r.run.finished)
        let f = try #require(AudioProbe.dominantFrequency(r.samples), "nothing audible was recorded")
        #expect(abs(f - 1000) <= 10, "heard \(f) Hz")
        let loud = AudioProbe.loudSeconds(r.samples)
        #expect(loud > 0.85 && loud < 1.2, "loud for \(loud) s")
    }

    /// Faster or slower, a tone keeps its pitch, and lasts its length divided by the speed.
    @Test("At another speed a 1 kHz tone is still heard at 1 kHz, for its length over the speed",
          arguments: [0.5, 2, 4])
    func toneKeepsItsPitch(speed: Double) throws {
        let r = try record(try Fixtures.tone(1000, seconds: 2)) { $0.speed = PlaybackSpeed(speed)! }
        #expect(r.run.finished)
        let f = try #require(AudioProbe.dominantFrequency(r.samples), "nothing audible was recorded")
        #expect(abs(f - 1000) <= 15, "heard \(f) Hz at \(speed)x")
        let loud = AudioProbe.loudSeconds(r.samples), expected = 2 / speed
        #expect(loud > expected * 0.85 && loud < expected * 1.2 + 0.1, "loud for \(loud) s at \(speed)x, not \(expected) s")
    }

    @Test("The 440 Hz sound track of an mp4 is heard at 440 Hz")
    func tone440() throws {
        let path = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1.5, tone: 440)
        let r = try record(path)
        #expect(r.run.finished)
        #expect(r.run.frames.count >= 35, "\(r.run.frames.count) frames")
        let f = try #require(AudioProbe.dominantFrequency(r.samples), "nothing audible was recorded")
        #expect(abs(f - 440) <= 10, "heard \(f) Hz")
    }

    @Test("Volume 0 and mute are silent", arguments: ["volume0", "muted"])
    func silent(mode: String) throws {
        let r = try record(try Fixtures.tone(1000, seconds: 1)) {
            if mode == "muted" { $0.muted = true } else { $0.volume = 0 }
        }
        #expect(r.run.finished)
        let level = AudioProbe.rms(r.samples[...])
        let peak = r.samples.map { abs(Int($0)) }.max() ?? 0
        // The tone at full volume has an RMS near 2900; a leak of even 1 % would show.
        #expect(level < 30 && peak < 300, "RMS \(level), peak \(peak)")
    }

    @Test("Volume 0.5 halves the amplitude heard")
    func halfVolume() throws {
        let full = try record(try Fixtures.tone(1000, seconds: 0.6))
        let half = try record(try Fixtures.tone(1000, seconds: 0.6)) { $0.volume = 0.5 }
        let a = loudRMS(full.samples), b = loudRMS(half.samples)
        // pa_sw_volume_from_linear(0.5) is linear 0.5 in amplitude.
        #expect(a > 1000, "full volume RMS \(a)")
        #expect(abs(b / a - 0.5) < 0.1, "half volume gave \(b / a) of full")
    }

    @Test("Pictures stay within 50 ms of the audio clock, which runs at real speed")
    func avSync() throws {
        let path = try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 2, fps: 25, tone: 440)
        let d = PlayerDriver(path, audio: true)
        defer { d.player.close() }
        _ = try d.ready()
        let start = MonotonicClock.seconds()
        let run = d.play(limit: 8)
        let took = MonotonicClock.seconds() - start
        #expect(d.player.hasAudioOutput)
        #expect(run.finished)
        #expect(run.frames.count >= 45, "\(run.frames.count) frames, \(d.player.droppedFrames) dropped")
        let settled = run.frames.filter { $0.pts >= 0.3 }
        #expect(settled.count >= 35)
        for f in settled {
            #expect(abs(f.pts - f.position) <= 0.05, "pts \(f.pts) shown at position \(f.position)")
            if abs(f.pts - f.position) > 0.05 { break }
        }
        // The audio clock must advance with real time: a clock that ran fast or slow would
        // keep pictures "in sync" with a wrong sound.
        if let a = settled.first, let b = settled.last {
            let rate = (b.position - a.position) / (b.at - a.at)
            // Loose: the test environment's null sink itself runs some percent slow (pacat
            // shows it too); a clock off by a factor (wrong rate or channel count) fails.
            #expect(abs(rate - 1) < 0.15, "audio clock ran at \(rate)x")
        }
        #expect(took > 1.8 && took < 4.5, "took \(took) s for 2 s")
    }

    /// Median RMS of the 20 ms blocks that carry sound (above 100, well over the noise
    /// floor of a null sink, which is digital silence).
    func loudRMS(_ s: [Int16]) -> Double {
        let block = 960
        var levels: [Double] = []
        var i = 0
        while i + block <= s.count { levels.append(AudioProbe.rms(s[i..<i + block])); i += block }
        let sorted = levels.filter { $0 > 100 }.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
