import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The keyboard's media keys, pressed with xdotool on the focused window, do what the
    /// default bindings say: play/pause pauses the picture, next moves on.
    @Suite struct MediaKeys {
        @Test func playPauseAndNextWork() throws {
            let log = try Scratch.directory("media-keys") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log,
                                    try Fixtures.solidVideo("blue", seconds: 10), try Fixtures.solidImage("red")])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "played", index: 0) != nil, "item 0 never played")
            try xdotool(["key", "--window", String(window.id), "XF86AudioPlay"])
            #expect(Events.waitFor(log, "paused", index: 0, timeout: 5) != nil, "XF86AudioPlay did not pause")
            try xdotool(["key", "--window", String(window.id), "XF86AudioNext"])
            #expect(Events.waitFor(log, "presented", index: 1, timeout: 5) != nil, "XF86AudioNext did not move on")
            #expect(window.waitFor(probe) { $0.matches(160, 120, RGB.red) } != nil, "the next item is not on screen")
            try xdotool(["key", "--window", String(window.id), "XF86AudioPrev"])
            #expect(window.waitFor(probe) { $0.matches(160, 120, RGB.blue) } != nil, "XF86AudioPrev did not go back")
            // The window is gone before xdotool sends the release (as with `q` in InputTests),
            // so its status says nothing; the release goes again to whatever has the focus.
            _ = try Run.process("xdotool", ["key", "--window", String(window.id), "XF86AudioStop"], timeout: 10)
            _ = try Run.process("xdotool", ["keyup", "XF86AudioStop"], timeout: 10)
            #expect(run.finish(timeout: 5)?.status == 0, "XF86AudioStop ends the player, as in mpv")
        }
    }
}
