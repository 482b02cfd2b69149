import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// What a person sees: the window's pixels read back from the X server while the real
    /// program shows solid-colour media, and the frames of an animated GIF changing.
    @Suite struct Picture {
        /// A 4:3 picture in a 640x360 (16:9) window is fitted to 480x360, centred, with
        /// black bars of 80 px on each side.
        private func checkFitted(_ img: Image, color: UInt32, label: String) {
            #expect(img.width == 640 && img.height == 360, "\(label): window is \(img.width)x\(img.height)")
            guard img.width == 640, img.height == 360 else { return }
            for y in [2, 90, 180, 270, 357] {
                // The bars: black all the way from the window's edge to the picture.
                #expect(img.matches(0, y, RGB.black), "\(label): left edge not black at y=\(y)")
                #expect(img.matches(40, y, RGB.black), "\(label): left bar not black at y=\(y)")
                #expect(img.matches(78, y, RGB.black), "\(label): left bar ends early at y=\(y)")
                #expect(img.matches(561, y, RGB.black), "\(label): right bar starts late at y=\(y)")
                #expect(img.matches(600, y, RGB.black), "\(label): right bar not black at y=\(y)")
                #expect(img.matches(639, y, RGB.black), "\(label): right edge not black at y=\(y)")
                // The picture: its colour right up to the content edges at x=80 and x=559.
                #expect(img.matches(81, y, color), "\(label): picture does not reach x=81 at y=\(y)")
                #expect(img.matches(320, y, color), "\(label): centre wrong at y=\(y)")
                #expect(img.matches(558, y, color), "\(label): picture does not reach x=558 at y=\(y)")
            }
            // Top and bottom rows are picture: 4:3 fills the height exactly, no bars there.
            #expect(img.fraction(matching: color, x: 82, y: 0, width: 476, height: 1) > 0.98)
            #expect(img.fraction(matching: color, x: 82, y: 359, width: 476, height: 1) > 0.98)
            // Bars are 80 px within a pixel of rounding: count black columns on the middle row.
            let blackLeft = (0..<320).prefix { img.matches($0, 180, RGB.black) }.count
            let blackRight = (320..<640).reversed().prefix { img.matches($0, 180, RGB.black) }.count
            #expect(abs(blackLeft - 80) <= 1, "\(label): left bar is \(blackLeft) px")
            #expect(abs(blackRight - 80) <= 1, "\(label): right bar is \(blackRight) px")
        }

        /// Runs `media` windowed at 640x360+0+0 and returns the first grab that shows `color`
        /// in the centre, along with the window.
        private func showWindowed(_ media: String, color: UInt32, extra: [String] = [])
            throws -> (Launched, ProgramWindow, Image) {
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--autoexit"] + extra + [media])
            let window = try #require(ProgramWindow.wait(probe), "no mediaview window appeared; stderr: \(run.stderr)")
            #expect(window.x == 0 && window.y == 0 && window.width == 640 && window.height == 360,
                    "--geometry 640x360+0+0 gave \(window)")
            let img = try #require(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, color) },
                                   "the window never showed the colour; stderr: \(run.stderr)")
            return (run, window, img)
        }

        @Test func solidRedImageIsFittedWithBlackBars() throws {
            // Larger than the window: it shrinks to fit (a smaller one would show at 100 %).
            let red = try Fixtures.solidImage("red", width: 1280, height: 960)
            let (run, _, img) = try showWindowed(red, color: RGB.red, extra: ["--image-duration", "3"])
            checkFitted(img, color: RGB.red, label: "red image")
            let end = try #require(run.finish(timeout: 10), "did not exit after --image-duration")
            #expect(end.status == 0, "stderr: \(end.stderr)")
        }

        @Test func solidBlueVideoIsFittedWithBlackBars() throws {
            let blue = try Fixtures.solidVideo("blue", seconds: 3)
            let (run, _, img) = try showWindowed(blue, color: RGB.blue)
            checkFitted(img, color: RGB.blue, label: "blue video")
            let end = try #require(run.finish(timeout: 10), "did not exit after the video")
            #expect(end.status == 0, "stderr: \(end.stderr)")
        }

        /// Fullscreen is the default: with no window manager the program sizes its window to
        /// the whole 1280x720 screen itself, and fits the 4:3 picture into it (160 px bars).
        @Test func fullscreenByDefaultCoversTheScreen() throws {
            let probe = try ScreenProbe()
            // Larger than the screen, so it is fitted to it.
            let red = try Fixtures.solidImage("red", width: 1920, height: 1440)
            let run = try Launched(["--no-audio", "--autoexit", "--image-duration", "2", red])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let screen = probe.screenSize
            #expect(window.x == 0 && window.y == 0 && window.width == screen.width && window.height == screen.height,
                    "fullscreen window is \(window) on a \(screen) screen")
            let img = try #require(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, RGB.red) })
            if img.width == 1280, img.height == 720 {
                #expect(img.matches(80, 360, RGB.black))
                #expect(img.matches(158, 360, RGB.black))
                #expect(img.matches(162, 360, RGB.red))
                #expect(img.matches(1117, 360, RGB.red))
                #expect(img.matches(1122, 360, RGB.black))
            }
            let end = try #require(run.finish(timeout: 10))
            #expect(end.status == 0)
        }

        /// A GIF whose frames alternate red and blue every 200 ms: sampling the centre for
        /// 1.5 s sees both colours several times, and each lasts about its delay.
        @Test func animatedGifAlternatesWithItsDelays() throws {
            let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 20)
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "3", gif])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            _ = try #require(window.waitFor(probe) { img in
                img.matches(img.width / 2, img.height / 2, RGB.red) || img.matches(img.width / 2, img.height / 2, RGB.blue)
            }, "the GIF never appeared")
            // One pixel at the centre, as often as the server answers, for 1.5 s.
            var samples: [(t: Double, color: Character)] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 1.5 {
                let px = probe.grab(x: window.x + window.width / 2, y: window.y + window.height / 2, width: 1, height: 1)
                let t = Date().timeIntervalSince(start)
                if px.matches(0, 0, RGB.red) { samples.append((t, "r")) } else if px.matches(0, 0, RGB.blue) {
                    samples.append((t, "b"))
                }
                usleep(10_000)
            }
            // Runs of one colour, and when each began.
            var runs: [(color: Character, start: Double)] = []
            for s in samples where runs.last?.color != s.color { runs.append((s.color, s.t)) }
            let reds = runs.filter { $0.color == "r" }.count, blues = runs.filter { $0.color == "b" }.count
            let timeline = runs.map { "\($0.color)@\(String(format: "%.3f", $0.start))" }.joined(separator: " ")
            #expect(reds >= 3 && blues >= 3, "saw \(reds) red and \(blues) blue runs in 1.5 s: \(timeline)")
            // Whole runs (not the first or last, which the sampling window cuts) last ~200 ms.
            if runs.count >= 4 {
                let lengths = (1..<runs.count - 1).map { runs[$0 + 1].start - runs[$0].start }
                let mean = lengths.reduce(0, +) / Double(lengths.count)
                #expect(abs(mean - 0.2) < 0.06, "frames last \(mean) s on average, want 0.2: \(timeline)")
            }
            let end = try #require(run.finish(timeout: 10))
            #expect(end.status == 0)
        }
    }
}
