import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// MPRIS 2.2 as desktop widgets read it, through `playerctl` and, for what playerctl
    /// does not show, `gdbus`: the player's volume and rate, album and cover, what it can
    /// open, Raise, and what a still reports.
    @Suite struct MPRISWidgets {
        @discardableResult
        static func playerctl(_ args: [String]) throws -> Run.Result {
            try Run.process("playerctl", ["--player=mediaview"] + args, timeout: 10)
        }

        /// A property of the player, as gdbus prints it (`(<1.5>,)`).
        static func property(_ interface: String, _ name: String) throws -> String {
            try Run.process("gdbus", ["call", "--session", "--dest", "org.mpris.MediaPlayer2.mediaview",
                                      "--object-path", "/org/mpris/MediaPlayer2", "--method",
                                      "org.freedesktop.DBus.Properties.Get", interface, name], timeout: 10).stdout
        }

        static func set(_ name: String, _ value: String) throws -> Run.Result {
            try Run.process("gdbus", ["call", "--session", "--dest", "org.mpris.MediaPlayer2.mediaview",
                                      "--object-path", "/org/mpris/MediaPlayer2", "--method",
                                      "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", name, value],
                            timeout: 10)
        }

        static func waitUntil(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
            let start = Date()
            repeat {
                if try condition() { return true }
                usleep(50_000)
            } while Date().timeIntervalSince(start) < timeout
            return false
        }

        static let player = "org.mpris.MediaPlayer2.Player"

        /// An MP3 with album and artist tags and an embedded cover (a solid blue picture).
        static func taggedSong() throws -> String {
            try Fixtures.make("song-with-cover.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:duration=20",
                                                      "-i", try Fixtures.solidImage("blue", width: 64, height: 64),
                                                      "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "png",
                                                      "-disposition:v", "attached_pic", "-id3v2_version", "3",
                                                      "-metadata", "album=Test Album", "-metadata", "artist=Test Artist",
                                                      "-metadata", "title=Test Song"])
        }

        @Test func volumeAndRateAreThePlayersAndTheSongShowsItsAlbumAndCover() throws {
            let song = try Self.taggedSong()
            let s = try RunningViewer([song, try Fixtures.solidVideo("red", seconds: 20)], until: "played")
            try #require(Self.waitUntil { try Self.playerctl(["status"]).stdout == "Playing\n" })
            #expect(try Self.playerctl(["metadata", "xesam:album"]).stdout == "Test Album\n")
            #expect(try Self.playerctl(["metadata", "xesam:artist"]).stdout == "Test Artist\n")
            let art = try Self.playerctl(["metadata", "mpris:artUrl"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(art.hasPrefix("file:///"), "artUrl \(art)")
            // The cover is a real picture file a widget can load: the blue of the cover.
            let file = String(art.dropFirst("file://".count))
            let png = try Run.process("ffmpeg", ["-v", "error", "-i", file, "-frames:v", "1", "-f", "rawvideo",
                                                 "-pix_fmt", "rgb24", "-"], timeout: 10)
            #expect(png.status == 0 && png.stdout.unicodeScalars.count > 0, "artUrl is not a picture: \(png.stderr)")
            #expect(try Self.property(Self.player, "MinimumRate").contains("0.25"))
            #expect(try Self.property(Self.player, "MaximumRate").contains("4.0"))
            #expect(try Self.set("Rate", "<1.5>").status == 0)
            #expect(Self.waitUntil { (try? Self.property(Self.player, "Rate"))?.contains("1.5") == true })
            try Self.playerctl(["volume", "0.3"])
            // The next item plays at the volume and rate set: they are the player's.
            try Self.playerctl(["next"])
            #expect(s.shows(RGB.red), "next did not show the video")
            #expect(Self.waitUntil { (try? Self.playerctl(["volume"]).stdout)?.hasPrefix("0.3") == true },
                    "the volume went back for the next item")
            #expect(try Self.property(Self.player, "Rate").contains("1.5"))
            #expect(!(try Self.playerctl(["metadata", "xesam:album"]).stdout.contains("Test Album")))
            // The position reads the target at once after a seek.
            try Self.playerctl(["position", "12"])
            let at = Double(try Self.playerctl(["position"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(at >= 11.9, "Position read \(at) right after a seek to 12")
            s.run.process.terminate()
            _ = s.run.finish(timeout: 10)
        }

        @Test func whatThePlayerCanDoAndWhatAStillIs() throws {
            let s = try RunningViewer([try Fixtures.solidImage("blue")])
            try #require(Self.waitUntil { (try? Self.playerctl(["status"]).status) == 0 })
            let root = "org.mpris.MediaPlayer2"
            #expect(try Self.property(root, "CanRaise").contains("true"))
            #expect(try Self.property(root, "SupportedMimeTypes").contains("video/mp4"))
            #expect(try Self.property(root, "SupportedUriSchemes").contains("'file'"))
            // Shuffle is not offered, so setting it is refused and widgets hide it.
            #expect(try Self.set("Shuffle", "<true>").status != 0)
            #expect(try Self.playerctl(["shuffle", "On"]).status != 0)
            // A still that stays until the user moves on: paused, no length.
            #expect(try Self.playerctl(["status"]).stdout == "Paused\n")
            #expect(try Self.playerctl(["metadata", "mpris:length"]).stdout.isEmpty)
            // Raise brings the minimized player back to its window.
            try s.key("ctrl+Down")
            // Raise is for a player at rest in its thumbnail, not one on its way there.
            #expect(Events.waitFor(s.log, "did_end_minimizing") != nil, "the player never minimized")
            let raise = try Run.process("gdbus", ["call", "--session", "--dest", "org.mpris.MediaPlayer2.mediaview",
                                                  "--object-path", "/org/mpris/MediaPlayer2", "--method",
                                                  "org.mpris.MediaPlayer2.Raise"], timeout: 10)
            #expect(raise.status == 0, "Raise: \(raise.stderr)")
            #expect(s.shows(RGB.blue))
            s.run.process.terminate()
            _ = s.run.finish(timeout: 10)
        }

        @Test func aSlideShowStillPlaysForItsImageDuration() throws {
            let log = try Scratch.directory("slides") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "30", "--events", log, try Fixtures.solidImage("blue")])
            #expect(Events.waitFor(log, "presented", index: 0) != nil, "not presented: \(run.stderr)")
            #expect(Self.waitUntil { (try? Self.playerctl(["status"]).stdout) == "Playing\n" })
            #expect(try Self.playerctl(["metadata", "mpris:length"]).stdout == "30000000\n")
            run.process.terminate()
            _ = run.finish(timeout: 10)
        }
    }
}
