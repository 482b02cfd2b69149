import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The overlays follow the desktop's `Xft.dpi` (set with xrdb on the test display, as a
    /// desktop's settings do): at 192 dpi the track and its text are twice as tall, with
    /// glyphs drawn at that size rather than blown up.
    @Suite struct InterfaceScaleProgramTests {
        struct Measured {
            /// Rows of the track's bar (red lightened by its white), a quarter of the way across.
            var band: Int
            /// Rows holding the time label's glyphs.
            var text: Int
            var stderr: String
        }

        /// Runs the viewer paused on a red clip with `resources` in the root window's
        /// resource database (nil: none), and measures the track it draws.
        func measure(resources: String?, _ args: [String] = []) throws -> Measured {
            let saved = try Run.process("xrdb", ["-query"], timeout: 10).stdout
            _ = try Run.process("xrdb", ["-remove"], timeout: 10)
            defer {
                if saved.isEmpty { _ = try? Run.process("xrdb", ["-remove"], timeout: 10) }
                else { _ = try? Run.process("xrdb", ["-nocpp", "-load", "-"], timeout: 10, stdin: saved) }
            }
            if let resources {
                let r = try Run.process("xrdb", ["-nocpp", "-merge", "-"], timeout: 10, stdin: resources)
                try #require(r.status == 0, "xrdb: \(r.stderr)")
            }
            let log = try Scratch.directory("scale") + "/events.jsonl"
            let clip = try Fixtures.solidVideo("red", width: 640, height: 360, seconds: 5)
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--no-autoplay",
                                    "--events", log] + args + [clip])
            let probe = try ScreenProbe()
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "never showed; stderr: \(run.stderr)")
            let window = try #require(ProgramWindow.wait(probe, of: run))
            // Paused: the controls stay. Wait until the band darkens the bottom-left corner.
            let img = try #require(window.waitFor(probe) { img in
                (img.height - 200..<img.height).contains { !img.matches(24, $0, 0xFF0000, tolerance: 30) }
            }, "no track drawn")
            let band = (img.height - 200..<img.height).filter { y in
                let p = img.pixel(img.width / 4, y)
                return (p >> 16) & 0xFF > 100 && (p >> 8) & 0xFF > 40
            }.count
            func white(_ p: UInt32) -> Bool { (p >> 16) & 0xFF > 190 && (p >> 8) & 0xFF > 190 && p & 0xFF > 190 }
            let text = (img.height - 200..<img.height).filter { y in (0..<110).contains { white(img.pixel($0, y)) } }.count
            kill(run.pid, SIGTERM)
            _ = run.finish(timeout: 5)
            return Measured(band: band, text: text, stderr: run.stderr)
        }

        @Test("Xft.dpi 192 draws the track's bar and its time labels twice as tall as 96; 144 one and a half times")
        func followsXftDPI() throws {
            let one = try measure(resources: nil)
            let two = try measure(resources: "Xft.dpi:\t192\n")
            let half = try measure(resources: "Xft.antialias: 1\nXft.dpi: 144\n")
            #expect(one.band >= 3 && one.band <= 5, "1x bar \(one.band) rows")
            #expect(one.text >= 7, "1x label \(one.text) rows")
            let bandRatio = Double(two.band) / Double(max(1, one.band))
            let textRatio = Double(two.text) / Double(max(1, one.text))
            #expect(bandRatio > 1.85 && bandRatio < 2.15, "band \(one.band) -> \(two.band) rows")
            #expect(textRatio > 1.7 && textRatio < 2.3, "label \(one.text) -> \(two.text) rows")
            let halfRatio = Double(half.band) / Double(max(1, one.band))
            #expect(halfRatio > 1.4 && halfRatio < 1.6, "band \(one.band) -> \(half.band) rows at 144 dpi")
            #expect(!two.stderr.contains("Xft.dpi"), "\(two.stderr)")
        }

        @Test("--ui-scale wins over the desktop; a garbage Xft.dpi is 1x with one line saying so")
        func optionAndGarbage() throws {
            let one = try measure(resources: nil)
            let forced = try measure(resources: "Xft.dpi: 96\n", ["--ui-scale", "2"])
            #expect(Double(forced.band) / Double(max(1, one.band)) > 1.85, "--ui-scale 2: \(one.band) -> \(forced.band) rows")
            let garbage = try measure(resources: "Xft.dpi: banana\n")
            #expect(garbage.band == one.band, "garbage Xft.dpi: \(garbage.band) rows, 1x has \(one.band)")
            let lines = garbage.stderr.split(separator: "\n").filter { $0.contains("Xft.dpi") }
            #expect(lines.count == 1, "stderr: \(garbage.stderr)")
            #expect(lines.first?.contains("banana") == true)
            let odd = try measure(resources: "Xft.dpi: 110\n")
            #expect(odd.band == one.band && !odd.stderr.contains("Xft.dpi"), "110 dpi is 1x, silently: \(odd.stderr)")
        }
    }
}
