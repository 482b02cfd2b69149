import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// `.` and `,` step exactly one frame, as a person checks by the colour on screen.
    @Suite struct FrameStep {
        /// The colours frames cycle through, frame n showing `cycle[n % 6]`.
        static let cycle: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0x00FFFF, 0xFF00FF]

        /// 6 s at 10 frames a second whose every frame has the next colour of `cycle`, with
        /// a keyframe only every 30 frames, so a step back decodes from an earlier keyframe.
        static func cyclingClip(sound: Bool) throws -> String {
            let m = "mod(N,6)"
            let r = "255*(eq(\(m),0)+eq(\(m),3)+eq(\(m),5))"
            let g = "255*(eq(\(m),1)+eq(\(m),3)+eq(\(m),4))"
            let b = "255*(eq(\(m),2)+eq(\(m),4)+eq(\(m),5))"
            let tone = sound ? ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=6", "-c:a", "aac"] : []
            return try Fixtures.make("frame-cycle-6s-10fps\(sound ? "-tone" : "").mp4", [
                "-f", "lavfi", "-i", "color=c=black:s=160x120:r=10:d=6,format=rgb24,geq=r='\(r)':g='\(g)':b='\(b)'"]
                + tone + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                          "-bf", "0", "-pix_fmt", "yuv444p"])
        }

        /// Which of `cycle` the picture shows, if any, left of the centre (where the play
        /// indicator stands while paused).
        static func shownIndex(_ v: RunningViewer) -> Int? {
            let img = v.window.grab(v.probe)
            return cycle.firstIndex { img.matches(img.width / 8, img.height / 2, $0, tolerance: 40) }
        }

        /// Waits until the picture stays on one of `cycle` for a moment, and says which.
        static func settled(_ v: RunningViewer) -> Int? {
            let start = Date()
            var current: (index: Int, since: Date)?
            repeat {
                let seen = shownIndex(v)
                if let seen, seen == current?.index {
                    if let c = current, Date().timeIntervalSince(c.since) > 0.4 { return seen }
                } else {
                    current = seen.map { ($0, Date()) }
                }
                usleep(30_000)
            } while Date().timeIntervalSince(start) < 6
            return nil
        }

        /// Waits until the picture shows `cycle[index]` and stays so for a moment.
        static func settles(_ v: RunningViewer, on index: Int) -> Bool {
            let start = Date()
            var since: Date?
            repeat {
                if shownIndex(v) == index {
                    if let s = since, Date().timeIntervalSince(s) > 0.4 { return true }
                    if since == nil { since = Date() }
                } else {
                    since = nil
                }
                usleep(30_000)
            } while Date().timeIntervalSince(start) < 6
            return false
        }

        /// With sound too: the paused sound must neither hold the steps back nor be out of
        /// step with the picture when playing goes on.
        @Test(arguments: [false, true])
        func stepsShowExactlyTheNextAndThePreviousFrame(sound: Bool) throws {
            let v = try RunningViewer([try Self.cyclingClip(sound: sound)], until: "first_frame", sound: sound)
            // Let it play to about the keyframe at 3 s, so the steps back cross from one GOP
            // into the one before. Where exactly it stops does not matter: every step is
            // checked against the frame it started from.
            usleep(2_900_000)
            try v.key("period")
            #expect(Events.waitFor(v.log, "paused", index: 0) != nil, "a step should pause; stderr: \(v.run.stderr)")
            // Paused: the frame on screen stays.
            let start = Self.settled(v)
            let img = v.window.grab(v.probe)
            let centre = String(img.pixel(img.width / 8, img.height / 2), radix: 16)
            let first = try #require(start, "no frame of the clip settled on screen (centre \(centre))")
            try v.key("period")
            #expect(Self.settles(v, on: (first + 1) % 6), "after . want colour \((first + 1) % 6), see \(String(describing: Self.shownIndex(v)))")
            try v.key("period")
            #expect(Self.settles(v, on: (first + 2) % 6), "after .. want colour \((first + 2) % 6), see \(String(describing: Self.shownIndex(v)))")
            try v.key("comma")
            #expect(Self.settles(v, on: (first + 1) % 6), "after , want colour \((first + 1) % 6), see \(String(describing: Self.shownIndex(v)))")
            try v.key("comma")
            #expect(Self.settles(v, on: first), "after ,, want colour \(first), see \(String(describing: Self.shownIndex(v)))")
            try v.key("comma")
            #expect(Self.settles(v, on: (first + 5) % 6), "after ,,, want colour \((first + 5) % 6), see \(String(describing: Self.shownIndex(v)))")
            // Playing again moves on from there.
            try v.key("space")
            let moved = v.window.waitFor(v.probe, timeout: 5) { img in
                !img.matches(img.width / 8, img.height / 2, Self.cycle[(first + 5) % 6], tolerance: 40)
            }
            #expect(moved != nil, "playing after the steps did not move on")
            kill(v.run.pid, SIGTERM)
            _ = v.run.finish(timeout: 5)
        }

        /// A still and a sound have no frames to step through: the keys change nothing.
        @Test func stepsOnAStillOrSoundAreHarmless() throws {
            let still = try Fixtures.solidImage("blue")
            let tone = try Fixtures.tone(440, seconds: 3)
            let v = try RunningViewer([still, tone], until: "first_frame")
            #expect(v.shows(RGB.blue))
            for key in ["period", "comma", "period"] { try v.key(key) }
            #expect(v.shows(RGB.blue))
            try v.key("n")
            #expect(Events.waitFor(v.log, "played", index: 1) != nil, "the sound never played")
            for key in ["comma", "period"] { try v.key(key) }
            #expect(v.run.process.isRunning)
            kill(v.run.pid, SIGTERM)
            let end = v.run.finish(timeout: 5)
            // Nothing said but the signal that ended it.
            let said = lines(end?.stderr ?? "hung").filter { !$0.contains("stopped by signal") }
            #expect(said.isEmpty, "\(said)")
        }
    }
}
