import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Values any process on the session bus may hand the player through MPRIS: a
    /// Latin-1 file's URI opens that file, and a value carrying a line break and a
    /// terminal escape is refused in one plain line.
    @Suite struct HostileMPRIS {
        private func call(_ member: String, _ args: [String]) throws -> Run.Result {
            try Run.process("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mediaview",
                                          "/org/mpris/MediaPlayer2", member] + args, timeout: 10)
        }

        /// OpenUri with `file://…/caf%E9.png`: the Latin-1 file is shown.
        @Test func openUriOfALatin1FileShowsIt() throws {
            let dir = try Scratch.directory("latin1-mpris")
            _ = try HostileFileNames.place(try Fixtures.solidImage("blue"), in: dir, as: HostileFileNames.latin1)
            let s = try RunningViewer([try Fixtures.solidImage("red")])
            #expect(s.shows(RGB.red))
            let r = try call("org.mpris.MediaPlayer2.Player.OpenUri", ["string:file://\(dir)/caf%E9.png"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(s.shows(RGB.blue), "OpenUri of caf%E9.png did not show it; stderr: \(s.run.stderr)")
        }

        /// Set LoopStatus to a string with a newline and an escape sequence: the error is one
        /// line without the escape, and the player plays on.
        @Test func aValueWithControlCharactersIsRefusedInOneLine() throws {
            let s = try RunningViewer([try Fixtures.solidVideo("red", seconds: 20)])
            let r = try call("org.freedesktop.DBus.Properties.Set",
                             ["string:org.mpris.MediaPlayer2.Player", "string:LoopStatus", "variant:string:Track\n\u{1B}[2J\u{1B}]0;x\u{07}"])
            #expect(r.status != 0 && r.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(r.stderr)")
            #expect(lines(r.stderr).count == 1 && !r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{07}"),
                    "\(r.stderr.debugDescription)")
            let open = try call("org.mpris.MediaPlayer2.Player.OpenUri", ["string:gopher://x\n\u{1B}[2J"])
            #expect(lines(open.stderr).count == 1 && !open.stderr.contains("\u{1B}"), "\(open.stderr.debugDescription)")
            #expect(s.run.process.isRunning && s.shows(RGB.red))
        }
    }
}
