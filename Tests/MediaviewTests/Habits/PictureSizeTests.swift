import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Pictures smaller than the window show at their own size, centred, as eog and Loupe
    /// show them; `F` enlarges them to the window and back, `--fit always` starts so, and
    /// a picture larger than the window still shrinks to fit.
    @Suite struct PictureSize {
        /// The program on `media` in a 640x360 window, its first item on screen.
        private func start(_ media: [String], extra: [String] = []) throws -> (Launched, ProgramWindow, ScreenProbe) {
            let log = try Scratch.directory("fit") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--events", log] + extra + media)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "presented", index: 0) != nil, "never presented; stderr: \(run.stderr)")
            return (run, window, probe)
        }

        private func quit(_ run: Launched, _ window: ProgramWindow) throws {
            _ = try Run.process("xdotool", ["key", "--window", String(window.id), "q"], timeout: 10)
            _ = try Run.process("xdotool", ["keyup", "q"], timeout: 10)
            #expect(run.finish(timeout: 5)?.status == 0)
        }

        @Test func aSmallPictureShowsAtItsOwnSizeAndFTogglesFit() throws {
            let (run, w, probe) = try start([try Fixtures.solidImage("red")])
            // 320x240 at 100 % in 640x360: x 160..480, y 60..300.
            let small = w.waitFor(probe) { $0.matches(320, 180, RGB.red) && $0.matches(170, 70, RGB.red) && $0.matches(150, 180, RGB.black)
                && $0.matches(320, 50, RGB.black) }
            #expect(small != nil, "the 320x240 picture is not at 100 %, centred")
            _ = try Run.process("xdotool", ["key", "--window", String(w.id), "F"], timeout: 10)
            // Enlarged to fit: 480x360, x 80..560.
            let fitted = w.waitFor(probe) { $0.matches(100, 180, RGB.red) && $0.matches(320, 5, RGB.red) && $0.matches(60, 180, RGB.black) }
            #expect(fitted != nil, "F did not enlarge the picture to the window")
            _ = try Run.process("xdotool", ["key", "--window", String(w.id), "F"], timeout: 10)
            #expect(w.waitFor(probe) { $0.matches(150, 180, RGB.black) && $0.matches(320, 180, RGB.red) } != nil, "F again did not go back to 100 %")
            try quit(run, w)
        }

        @Test func fitAlwaysEnlargesFromTheStart() throws {
            let (run, w, probe) = try start([try Fixtures.solidImage("red")], extra: ["--fit", "always"])
            #expect(w.waitFor(probe) { $0.matches(100, 180, RGB.red) && $0.matches(60, 180, RGB.black) } != nil)
            try quit(run, w)
        }

        @Test func anAnimatedGIFIsNotBlownUp() throws {
            let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50, size: 64)
            let (run, w, probe) = try start([gif])
            // 64x64 at 100 %: x 288..352, y 148..212; outside is black.
            let shown = w.waitFor(probe) { img in
                (img.matches(320, 180, RGB.red) || img.matches(320, 180, RGB.blue)) && img.matches(280, 180, RGB.black)
                    && img.matches(320, 140, RGB.black)
            }
            #expect(shown != nil, "the 64x64 GIF is not at 100 %")
            try quit(run, w)
        }

        @Test func aLargePictureStillShrinksToFit() throws {
            let big = try Fixtures.solidImage("blue", width: 1280, height: 960)
            let (run, w, probe) = try start([big])
            // 1280x960 fits 640x360 as 480x360: x 80..560.
            #expect(w.waitFor(probe) { $0.matches(100, 180, RGB.blue) && $0.matches(60, 180, RGB.black) } != nil)
            try quit(run, w)
        }

        @Test func fitRejectsAnUnknownValue() throws {
            let r = try mediaview(["--fit", "sometimes", try Fixtures.solidImage("red")])
            #expect(r.status == 2)
            #expect(lines(r.stderr) == ["mediaview: --fit must be one of small, always, got 'sometimes' (see --help)"], "\(r.stderr)")
        }
    }
}
