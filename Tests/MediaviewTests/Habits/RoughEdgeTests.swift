import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Small things a new user trips over: what the messages say, and what `i` and a song
    /// show without any option.
    @Suite struct RoughEdges {
        /// Runs the program from `dir`, so relative paths are typed as a user types them.
        private func inFolder(_ dir: String, _ args: [String]) throws -> Run.Result {
            try Run.process("sh", ["-c", "cd \"$0\" && exec \"$@\"", dir, Run.mediaview] + args, timeout: 20,
                            environment: Run.environment())
        }

        @Test func aUsageErrorPointsToHelpOnce() throws {
            for args in [["--zzzzzzzz"], ["--fullscren"], ["--fit", "x"]] {
                let r = try mediaview(args)
                #expect(r.status == 2)
                #expect(lines(r.stderr).count == 1 && r.stderr.components(separatedBy: "(see --help)").count == 2,
                        "\(args): \(r.stderr)")
            }
        }

        /// A text file named .jpg is "not a picture", named with its folder as typed.
        @Test func aTextFileNamedJpgIsNotAPicture() throws {
            let dir = try Scratch.directory("notes")
            try FileManager.default.createDirectory(atPath: dir + "/trip", withIntermediateDirectories: true)
            try "shopping list: bread, milk\n".write(toFile: dir + "/trip/photo.jpg", atomically: true, encoding: .utf8)
            let r = try inFolder(dir, ["--autoexit", "--no-audio", "trip/photo.jpg"])
            #expect(r.status == 1)
            #expect(lines(r.stderr) == ["mediaview: trip/photo.jpg: not a picture (the file holds text)"], "\(r.stderr)")
        }

        @Test func aMissingFileIsNamedAsTyped() throws {
            let dir = try Scratch.directory("missing")
            let r = try inFolder(dir, ["--autoexit", "--no-audio", "album/none.png"])
            #expect(r.status == 1)
            #expect(lines(r.stderr).first?.hasPrefix("mediaview: album/none.png: ") == true, "\(r.stderr)")
        }

        /// `i` on a photo given no --title shows what the file is: the info panel's dark box
        /// with text at the top left.
        @Test func iOnAPhotoWithoutATitleShowsItsFacts() throws {
            let v = try RunningViewer([try Fixtures.cameraPhoto()])
            #expect(v.shows(RGB.red))
            try v.key("i")
            let panel = v.window.waitFor(v.probe, timeout: 5) { img in
                img.fraction(matching: 0x400000, x: 20, y: 20, width: 20, height: 20, tolerance: 40) > 0.5
                    && img.fraction(matching: 0xFFFFFF, x: 16, y: 16, width: 280, height: 150, tolerance: 60) > 0.01
            }
            #expect(panel != nil, "i showed nothing on a photo without a title")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }

        /// A tagged MP3 with no --title shows its title in the band at the top when `i`
        /// keeps the controls up.
        @Test func aSongShowsItsTitleFromItsTags() throws {
            let v = try RunningViewer([try Fixtures.taggedSong()], until: "played")
            try v.key("i")
            let titled = v.window.waitFor(v.probe, timeout: 5) { img in
                img.fraction(matching: 0xFFFFFF, x: 0, y: 0, width: 320, height: 68, tolerance: 60) > 0.01
            }
            #expect(titled != nil, "no title over the song")
            try quit(v)
            #expect(v.run.finish(timeout: 5)?.status == 0)
        }
    }
}
