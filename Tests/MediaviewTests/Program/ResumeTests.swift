import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A long video starts where it was left, with a short message on screen; `--no-resume`
    /// starts it from the beginning.
    @Suite struct Resume {
        /// Starts the video, waits for its window and a socket client on it.
        private func start(_ video: String, state: String, extra: [String] = []) throws -> (Launched, SocketClient, ProgramWindow, ScreenProbe) {
            let socket = try Scratch.directory("resume-sock") + "/s"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--input-ipc-server", socket]
                + extra + [video], environment: ["XDG_STATE_HOME": state])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            return (run, try SocketClient(path: socket), window, probe)
        }

        /// Waits until the observed `time-pos` satisfies `condition`.
        private func waitPosition(_ c: SocketClient, id: Int, _ condition: @escaping (Double) -> Bool) throws -> Double? {
            _ = try c.request(["observe_property", id, "time-pos"], id: 100 + id)
            let hit = c.wait(timeout: 8) { $0["id"] as? Int == id && ($0["data"] as? Double).map(condition) == true }
            return hit?["data"] as? Double
        }

        @Test func aLongVideoStartsWhereItWasLeft() throws {
            let video = try Fixtures.solidVideo("red", seconds: 180, fps: 5)
            let state = try Scratch.directory("state")
            let (first, c1, _, _) = try start(video, state: state)
            // A seek is refused until the file is loaded (as mpv's is); the window comes first.
            try #require(try waitPosition(c1, id: 10) { $0 >= 0 } != nil, "the video never started")
            _ = try c1.request(["seek", 100, "absolute"], id: 1)
            #expect(try waitPosition(c1, id: 2) { $0 >= 100 } != nil, "the seek never arrived")
            _ = try c1.request(["quit"], id: 3)
            #expect(first.finish(timeout: 5)?.status == 0)
            let file = try String(contentsOfFile: state + "/mediaview/resume", encoding: .utf8)
            #expect(lines(file).count == 1 && !file.contains("red"), "one hashed line: \(file)")

            let (second, c2, window, probe) = try start(video, state: state)
            let resumed = try waitPosition(c2, id: 4) { $0 >= 100 }
            #expect(resumed.map { $0 < 110 } == true, "resumed at \(String(describing: resumed))")
            // The message box over the red picture, top left; gone a few seconds later.
            #expect(window.waitFor(probe, timeout: 3) { !$0.matches(24, 24, RGB.red, tolerance: 40) && $0.matches(160, 200, RGB.red) } != nil,
                    "no message on screen")
            #expect(window.waitFor(probe, timeout: 6) { $0.matches(24, 24, RGB.red) } != nil, "the message never went away")
            _ = try c2.request(["quit"], id: 5)
            #expect(second.finish(timeout: 5)?.status == 0)

            let (third, c3, _, _) = try start(video, state: state, extra: ["--no-resume"])
            let fresh = try waitPosition(c3, id: 6) { $0 > 0 }
            #expect(fresh.map { $0 < 10 } == true, "--no-resume should start at 0, got \(String(describing: fresh))")
            _ = try c3.request(["quit"], id: 7)
            #expect(third.finish(timeout: 5)?.status == 0)
        }
    }
}
