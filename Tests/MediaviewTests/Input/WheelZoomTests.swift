import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Ctrl+wheel zooms about the pointer, as eog, Loupe and browsers do: what is under the
    /// pointer stays under it, in and out again. A key zooms about the centre.
    @Suite struct WheelZoom {
        /// A 640x320 picture whose red grows left to right and green top to bottom, so every
        /// place on it has a colour of its own.
        static func gradient() throws -> String {
            try Fixtures.make("wheel-zoom-gradient.png", ["-f", "lavfi", "-i", "color=black:s=640x320,format=rgb24",
                                                          "-vf", "geq=r='X*255/W':g='Y*255/H':b=64", "-frames:v", "1"])
        }

        /// The red and green at (x, y) of the window: where on the picture that place shows.
        static func place(_ img: Image, _ x: Int, _ y: Int) -> (Int, Int) {
            let p = img.pixel(x, y)
            return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF))
        }

        @Test func theWheelZoomsAboutThePointerAndAKeyAboutTheCentre() throws {
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "640x320+0+0", "--no-audio", try Self.gradient()])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try #require(ProgramWindow.wait(probe, of: run, timeout: 30), "no window; stderr: \(run.stderr)")
            // Fitted, the window's (180, 150) shows the picture's (180, 150).
            let fitted = try #require(window.waitFor(probe, timeout: 20) { abs(Self.place($0, 180, 150).0 - 180 * 255 / 640) <= 3 },
                                      "the picture never showed")
            let under = Self.place(fitted, 180, 150)

            _ = try xdotool(["mousemove", "--window", String(window.id), "180", "150"])
            _ = try xdotool(["keydown", "ctrl", "click", "--repeat", "4", "--delay", "60", "4", "keyup", "ctrl"])
            // Zoomed 2x (1.2 a notch): the place under the pointer is the same, and the
            // picture around it larger (red changes half as fast across the window).
            let zoomed = window.waitFor(probe, timeout: 10) { img in
                let a = Self.place(img, 160, 150).0, b = Self.place(img, 200, 150).0
                return b - a > 0 && b - a < 12
            }
            let zoomedImg = try #require(zoomed, "the wheel did not zoom")
            let now = Self.place(zoomedImg, 180, 150)
            #expect(abs(now.0 - under.0) <= 3 && abs(now.1 - under.1) <= 3,
                    "the place under the pointer moved: \(under) before, \(now) after")

            // Out again by the same notches: fitted as before.
            _ = try xdotool(["keydown", "ctrl", "click", "--repeat", "4", "--delay", "60", "5", "keyup", "ctrl"])
            #expect(window.waitFor(probe, timeout: 10) { img in
                let a = Self.place(img, 160, 150).0, b = Self.place(img, 200, 150).0
                return b - a >= 14 && abs(Self.place(img, 180, 150).0 - under.0) <= 3
            } != nil, "the wheel did not zoom back out to the fitted picture")

            // A key zooms about the centre: the centre keeps its place, the pointer's does not.
            let centre = Self.place(try #require(window.waitFor(probe) { _ in true }), 320, 160)
            _ = try xdotool(["key", "--window", String(window.id), "--repeat", "4", "--delay", "60", "plus"])
            let keyed = window.waitFor(probe, timeout: 10) { img in
                let a = Self.place(img, 300, 160).0, b = Self.place(img, 340, 160).0
                return b - a > 0 && b - a < 12
            }
            let keyedImg = try #require(keyed, "the key did not zoom")
            let mid = Self.place(keyedImg, 320, 160)
            #expect(abs(mid.0 - centre.0) <= 3 && abs(mid.1 - centre.1) <= 3, "the centre moved: \(centre) before, \(mid) after")
            #expect(abs(Self.place(keyedImg, 180, 150).0 - under.0) > 10, "the key zoomed about the pointer")
            #expect(lines(run.stderr).isEmpty, "stderr: \(run.stderr)")
        }
    }
}
