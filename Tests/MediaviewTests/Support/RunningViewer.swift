import Foundation
import Testing
import TestSupport

/// A `mediaview` running windowed at 320x240+0+0 with an event log, its first item on
/// screen: what the desktop-integration tests (drops, the clipboard, MPRIS) drive.
struct RunningViewer {
    let run: Launched
    let window: ProgramWindow
    let log: String
    let probe: ScreenProbe

    /// Starts the program on `media` (silently unless `sound`) and waits until item 0
    /// logged `event`.
    init(_ media: [String], until event: String = "presented", sound: Bool = false) throws {
        log = try Scratch.directory("viewer") + "/events.jsonl"
        probe = try ScreenProbe()
        run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--events", log]
                           + (sound ? [] : ["--no-audio"]) + media)
        window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
        try #require(Events.waitFor(log, event, index: 0) != nil, "item 0 never logged \(event); stderr: \(run.stderr)")
    }

    /// Whether the centre of the window shows `rgb` within `timeout` seconds.
    func shows(_ rgb: UInt32, timeout: Double = 5) -> Bool {
        window.waitFor(probe, timeout: timeout) { $0.matches($0.width / 2, $0.height / 2, rgb) } != nil
    }

    /// Presses a key (xdotool's name) on the window.
    func key(_ name: String) throws {
        try xdotool(["key", "--window", String(window.id), name])
    }
}
