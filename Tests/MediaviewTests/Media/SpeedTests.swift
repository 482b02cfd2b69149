import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Playing faster and slower as a person hears and sees it: the sound recorded from the
    /// sink keeps its pitch, and the item ends when the speed says it should.
    @Suite struct Speed {
        /// Plays `args` to the end while recording the sink; returns the recording, how the
        /// run ended, and the seconds from `played` to `finished` in its event log.
        private func play(_ args: [String]) throws -> (samples: [Int16], end: Launched.Ended, playing: Double) {
            let log = try Scratch.directory("speed") + "/events.jsonl"
            let recording = try AudioProbe.startRecording()
            // parec needs a moment to connect; sound played before that would be lost.
            usleep(300_000)
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--autoexit", "--events", log] + args)
            let ended = run.finish(timeout: 40)
            usleep(200_000)
            let samples = AudioProbe.finish(recording)
            let end = try #require(ended, "the program did not finish; stderr: \(run.stderr)")
            let events = try Events.read(log)
            let played = events.first { $0["event"] as? String == "played" }?["t"] as? Double
            let finished = events.first { $0["event"] as? String == "finished" }?["t"] as? Double
            let start = try #require(played, "no played event: \(Events.names(events))")
            let stop = try #require(finished, "no finished event: \(Events.names(events))")
            return (samples, end, stop - start)
        }

        /// Tenths of a second in the recording loud enough to be the tone.
        private func loudTenths(_ samples: [Int16]) -> Int {
            stride(from: 0, to: max(0, samples.count - 4800), by: 4800).filter {
                AudioProbe.rms(samples[$0..<$0 + 4800]) > 1000
            }.count
        }

        /// A 10 s clip at 2x ends in about 5 s, and its 440 Hz tone is still 440 Hz (a
        /// player that only resampled would play it at 880 Hz).
        @Test func twiceAsFastEndsInHalfTheTimeAtTheSamePitch() throws {
            let clip = try Fixtures.solidVideo("green", seconds: 10, tone: 440)
            let (samples, end, playing) = try play(["--speed", "2", clip])
            #expect(end.status == 0, "stderr: \(end.stderr)")
            #expect(end.stderr.isEmpty, "\(end.stderr)")
            #expect((4.0...7.0).contains(playing), "a 10 s clip at 2x played for \(playing) s")
            let dominant = AudioProbe.dominantFrequency(samples)
            let f = try #require(dominant, "no tone heard")
            #expect(abs(f - 440) <= 440 * 0.03, "heard \(f) Hz at 2x, want 440")
            // The sound itself lasted about 5 s, not 10 cut short.
            let loud = loudTenths(samples)
            #expect((40...62).contains(loud), "\(loud) loud tenths of a second, want about 50")
        }

        /// At half speed a 2 s clip lasts about 4 s, its tone still at 440 Hz (not 220).
        @Test func halfSpeedKeepsThePitch() throws {
            let clip = try Fixtures.solidVideo("green", seconds: 2, tone: 440)
            let (samples, end, playing) = try play(["--speed", "0.5", clip])
            #expect(end.status == 0, "stderr: \(end.stderr)")
            #expect((3.2...6.0).contains(playing), "a 2 s clip at 0.5x played for \(playing) s")
            let dominant = AudioProbe.dominantFrequency(samples)
            let f = try #require(dominant, "no tone heard")
            #expect(abs(f - 440) <= 440 * 0.03, "heard \(f) Hz at 0.5x, want 440")
            let loud = loudTenths(samples)
            #expect((32...46).contains(loud), "\(loud) loud tenths of a second, want about 40")
        }

        /// The speed keys step as mpv's do, within 0.25x-4x, and a script sees the speed as
        /// mpv's `speed` property; a script's bad value is refused and playing goes on.
        @Test func keysAndScriptsChangeTheSpeed() throws {
            let clip = try Fixtures.solidVideo("red", seconds: 10)
            let s = try IPC.start([clip])
            #expect(IPC.shows(s, RGB.red), "the video never showed")
            // Replies are matched by id among all received so far: each request needs its own.
            var nextID = 100
            func speed() -> Double? {
                nextID += 1
                return (try? s.client.request(["get_property", "speed"], id: nextID))?["data"] as? Double
            }
            func key(_ name: String) throws { try xdotool(["key", "--window", String(s.window.id), name]) }
            func waitSpeed(_ want: Double) -> Bool {
                let start = Date()
                repeat {
                    if let v = speed(), abs(v - want) < 0.0015 { return true }
                    usleep(30_000)
                } while Date().timeIntervalSince(start) < 5
                return false
            }
            #expect(speed() == 1)
            try key("bracketright")
            #expect(waitSpeed(1.1), "] should make it 1.1x, is \(String(describing: speed()))")
            try key("braceright")
            #expect(waitSpeed(2.2), "} should double it, is \(String(describing: speed()))")
            try key("braceright")
            try key("braceright")
            #expect(waitSpeed(4), "the speed stops at 4x, is \(String(describing: speed()))")
            try key("BackSpace")
            #expect(waitSpeed(1), "Backspace goes back to 1x, is \(String(describing: speed()))")
            try key("bracketleft")
            #expect(waitSpeed(0.909), "[ divides by 1.1, is \(String(describing: speed()))")

            #expect(try s.client.request(["set_property", "speed", 1.5], id: 2)["error"] as? String == "success")
            #expect(waitSpeed(1.5))
            for (i, bad) in [Any]([100, 0, -1, "abc", [1]]).enumerated() {
                let reply = try s.client.request(["set_property", "speed", bad], id: 10 + i)
                #expect(reply["error"] as? String == "unsupported format for accessing property", "\(bad): \(reply)")
            }
            #expect(speed() == 1.5, "a refused value must leave the speed alone")
            #expect(s.run.process.isRunning)
            try IPC.quit(s)
        }

        @Test(arguments: ["0", "-1", "abc", "100", "nan", ""])
        func badSpeedIsOneLineAndExitTwo(value: String) throws {
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--speed", value, red], timeout: 10)
            #expect(r.status == 2, "--speed '\(value)': status \(r.status)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "\(errs)")
            #expect(errs.first?.contains("--speed") == true && errs.first?.contains("'\(value)'") == true, "\(errs)")
            #expect(r.stdout.isEmpty)
        }
    }
}
