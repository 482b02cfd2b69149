import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Subtitles as a person sees them: lines drawn over the video while they are due,
    /// hidden with `v`, stepped through with `j`; sound tracks heard switching with `#`.
    @Suite struct Subtitles {
        /// Pixels of a subtitle in `color` (white or yellow) in the lower half of the picture.
        static func subtitlePixels(_ img: Image, yellow: Bool = false) -> Int {
            var n = 0
            for y in img.height / 2..<img.height {
                for x in 0..<img.width {
                    let p = img.pixel(x, y)
                    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    if yellow ? (r > 200 && g > 200 && b < 90) : (r > 200 && g > 200 && b > 200) { n += 1 }
                }
            }
            return n
        }

        /// Plays `media` in a 320x240 window and grabs it until it ends: for each grab, the
        /// colour at the left middle (which second of `colourSeconds` shows) and how many
        /// subtitle pixels there are.
        private func watch(_ args: [String]) throws -> (seen: [(colour: UInt32, subtitle: Int)], end: Launched.Ended?) {
            let probe = try ScreenProbe()
            let run = try Launched(["--autoexit", "--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-track"] + args)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            var seen: [(UInt32, Int)] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 12 {
                let img = window.grab(probe)
                guard img.width == 320 else { break }
                seen.append((img.pixel(4, img.height / 2) & 0xFFFFFF, Self.subtitlePixels(img)))
                if run.process.isRunning == false { break }
                usleep(20_000)
            }
            return (seen, run.finish(timeout: 10))
        }

        /// The second of `colourSeconds` a colour is, if it is one of them.
        private func second(of colour: UInt32) -> Int? {
            Fixtures.secondColours.firstIndex { Image.close($0.rgb, colour, tolerance: 40) }
        }

        /// Asserts that the subtitle showed in every grab of second 2 (blue), and in none
        /// of the seconds before or after.
        private func expectOnlyInSecondTwo(_ seen: [(colour: UInt32, subtitle: Int)], _ what: String) {
            let during = seen.filter { second(of: $0.colour) == 2 }
            let outside = seen.filter { second(of: $0.colour).map { $0 != 2 } ?? false }
            #expect(during.count >= 5, "\(what): only \(during.count) grabs of the cue's second")
            #expect(outside.count >= 20, "\(what): only \(outside.count) grabs outside it")
            #expect(during.allSatisfy { $0.subtitle > 300 },
                    "\(what): the cue was missing while due: \(during.map(\.subtitle))")
            let stray = outside.filter { $0.subtitle > 0 }
            #expect(stray.isEmpty, "\(what): subtitle pixels outside the cue: \(stray.map { (second(of: $0.colour) ?? -1, $0.subtitle) })")
        }

        /// A SubRip file beside the video, with its base name, shows its line from 2 s to 3 s:
        /// not before, not after.
        @Test func srtBesideTheVideoShowsOnlyWhileDue() throws {
            let dir = try Scratch.directory("sub-beside")
            let video = dir + "/film.mp4"
            try FileManager.default.copyItem(atPath: try Fixtures.colourSeconds(), toPath: video)
            try Fixtures.srtText([Fixtures.Cue(2, 3, Fixtures.blocks())]).write(toFile: dir + "/film.srt", atomically: true, encoding: .utf8)
            let (seen, end) = try watch([video])
            let e = try #require(end, "the program did not end")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
            expectOnlyInSecondTwo(seen, "film.srt")
        }

        /// The same line inside the video (SubRip in Matroska, mov_text in MP4) shows the same way.
        @Test(arguments: [("srt", "mkv"), ("mov_text", "mp4")])
        func embeddedTrackShowsOnlyWhileDue(codec: String, ext: String) throws {
            let srt = try Fixtures.srt("embedded-cue.srt", [Fixtures.Cue(2, 3, Fixtures.blocks())])
            let video = try Fixtures.withSubtitles(try Fixtures.colourSeconds(), srt, codec: codec, ext: ext, name: "colour-seconds-\(codec)")
            let (seen, end) = try watch([video])
            let e = try #require(end, "the program did not end")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
            expectOnlyInSecondTwo(seen, "\(codec) in \(ext)")
        }
    }
}
