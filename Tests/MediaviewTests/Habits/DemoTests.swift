import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The bundled demo (no file given) tells a newcomer the keys on its first item and
    /// moves on by itself, then stays on its last item until `q`.
    @Suite struct Demo {
        @Test func theDemoShowsAKeyHintAndMovesOnByItself() throws {
            let assets = try Scratch.directory("assets")
            try FileManager.default.createDirectory(atPath: assets + "/demo", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red"), toPath: assets + "/demo/01-red.png")
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("blue"), toPath: assets + "/demo/02-blue.png")
            let log = try Scratch.directory("demo") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--image-duration", "1.5",
                                    "--events", log], environment: ["MEDIAVIEW_ASSETS": assets])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            // The hint: white text over the red first picture.
            let hint = window.waitFor(probe, timeout: 5) { $0.matches(40, 200, RGB.red) && $0.fraction(matching: 0xFFFFFF, tolerance: 40) > 0.002 }
            #expect(hint != nil, "no key hint on the demo's first item")
            #expect(Events.waitFor(log, "presented", index: 1, timeout: 8) != nil, "the demo did not move on by itself")
            #expect(window.waitFor(probe, timeout: 5) { $0.matches(160, 120, RGB.blue) } != nil)
            // The last item stays: the program is still there, and q ends it.
            #expect(Events.waitFor(log, "exit", timeout: 2.5) == nil && run.process.isRunning,
                    "the demo ended by itself after its last item")
            _ = try Run.process("xdotool", ["key", "--window", String(window.id), "q"], timeout: 10)
            _ = try Run.process("xdotool", ["keyup", "q"], timeout: 10)
            #expect(run.finish(timeout: 5)?.status == 0)
        }
    }
}
