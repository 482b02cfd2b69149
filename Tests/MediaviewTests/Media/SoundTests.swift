import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// What a person hears: the test PulseAudio's null sink is recorded while the program
    /// plays, and the recording is measured.
    @Suite struct Sound {
        /// Plays `media` with `args` while recording the sink; also watches the window while
        /// it plays and hands its grabs to `whilePlaying`.
        private func record(_ args: [String], whilePlaying: (ScreenProbe, ProgramWindow, Launched) throws -> Void)
            throws -> (samples: [Int16], end: Launched.Ended?) {
            let recording = try AudioProbe.startRecording()
            // parec needs a moment to connect; sound played before that would be lost.
            usleep(300_000)
            let probe = try ScreenProbe()
            let run = try Launched(args)
            var end: Launched.Ended?
            do {
                let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
                try whilePlaying(probe, window, run)
                end = run.finish(timeout: 15)
            } catch {
                _ = AudioProbe.finish(recording)
                throw error
            }
            usleep(200_000)
            return (AudioProbe.finish(recording), end)
        }

        /// How many pixels of the window's centre square are the theme colour.
        private func themePixels(_ probe: ScreenProbe, _ w: ProgramWindow) -> Int {
            let side = 120
            let img = probe.grab(x: w.x + w.width / 2 - side / 2, y: w.y + w.height / 2 - side / 2, width: side, height: side)
            return Int(img.fraction(matching: RGB.theme, tolerance: 30) * Double(side * side))
        }

        /// An audio file with no picture: its tone comes out of the sound server at its
        /// frequency, and the music indicator stands in the middle of the screen.
        @Test func toneIsHeardAndMusicIndicatorShown() throws {
            let tone = try Fixtures.tone(1000, seconds: 2)
            var indicator = 0
            let (samples, end) = try record(["--autoexit", tone]) { probe, window, _ in
                let start = Date()
                while Date().timeIntervalSince(start) < 1.5 {
                    indicator = max(indicator, themePixels(probe, window))
                    if indicator > 200 { break }
                    usleep(50_000)
                }
                // Nothing but the indicator: the corners stay black.
                let img = window.grab(probe)
                #expect(img.matches(10, 10, RGB.black) && img.matches(img.width - 10, img.height - 10, RGB.black))
            }
            let e = try #require(end, "the program did not finish the 2 s tone")
            #expect(e.status == 0, "stderr: \(e.stderr)")
            #expect(e.stderr.isEmpty, "\(e.stderr)")
            // The indicator (two notes and a beam, 96 px) covers far more than 200 pixels.
            #expect(indicator > 200, "only \(indicator) theme-coloured pixels in the centre")
            let level = AudioProbe.rms(samples[...])
            #expect(level > 1000, "recording is too quiet (rms \(level)) for a full-scale tone")
            // Bound first: #require would print the whole recording if given the call.
            let dominant = AudioProbe.dominantFrequency(samples), count = samples.count
            let f = try #require(dominant, "no tone in \(count) samples")
            #expect(abs(f - 1000) <= 10, "heard \(f) Hz, want 1000")
            // About two seconds of sound reached the sink (not cut short, not doubled).
            let loud = stride(from: 0, to: samples.count - 4800, by: 4800).filter {
                AudioProbe.rms(samples[$0..<$0 + 4800]) > 1000
            }.count
            #expect((16...23).contains(loud), "\(loud) loud tenths of a second, want about 20")
        }

        /// A different tone, through a video container, is not mistaken for the first.
        @Test func videoSoundTrackIsHeard() throws {
            let video = try Fixtures.solidVideo("green", seconds: 2, tone: 440)
            let (samples, end) = try record(["--autoexit", "--windowed", "--geometry", "320x240+0+0", video]) { _, _, _ in }
            let e = try #require(end)
            #expect(e.status == 0, "stderr: \(e.stderr)")
            let dominant = AudioProbe.dominantFrequency(samples)
            let f = try #require(dominant, "no tone heard")
            #expect(abs(f - 440) <= 10, "heard \(f) Hz, want 440")
        }

        /// `--no-audio` means silence: a video with a tone plays its two seconds on the
        /// system clock and the sink hears nothing.
        @Test func noAudioIsSilent() throws {
            let video = try Fixtures.solidVideo("green", seconds: 2, tone: 440)
            let (samples, end) = try record(["--autoexit", "--no-audio", "--windowed", "--geometry", "320x240+0+0",
                                             video]) { _, _, _ in }
            let e = try #require(end)
            #expect(e.status == 0, "stderr: \(e.stderr)")
            #expect(e.stderr.isEmpty, "\(e.stderr)")
            // The program played its time while we recorded.
            #expect(e.seconds > 1.8, "a 2 s video ended after \(e.seconds) s")
            let count = samples.count
            #expect(count > 48_000, "recorded only \(count) samples")
            let level = AudioProbe.rms(samples[...])
            #expect(level < 50, "rms \(level): something was played")
            let dominant = AudioProbe.dominantFrequency(samples)
            #expect(dominant == nil, "heard a tone of \(dominant ?? 0) Hz")
        }

        /// No reachable sound server: one warning, and the audio file still takes its time
        /// (the system clock stands in for the speaker), with status 0.
        @Test func noSoundServerPlaysSilentlyWithOneWarning() throws {
            let tone = try Fixtures.tone(1000, seconds: 2)
            let dir = try Scratch.directory("nopulse")
            let r = try mediaview(["--autoexit", tone], timeout: 15,
                                  environment: ["PULSE_SERVER": "unix:" + dir + "/no-such-socket"])
            #expect(!r.timedOut)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("sound") == true, "want one warning: \(errs)")
            #expect(r.seconds > 1.8 && r.seconds < 6, "a 2 s tone took \(r.seconds) s")
        }
    }
}
