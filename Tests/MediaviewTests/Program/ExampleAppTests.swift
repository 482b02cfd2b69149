import Foundation
import Testing
import TestSupport

/// The example app in `Examples/SeedClient`: a package that depends on this one by path and
/// is written the way an iOS developer writes MediaView code. `make test` builds it as any
/// dependency user would; here it runs on the test display and says what it heard.
extension MediaviewProgram {
    @Suite struct ExampleApp {
        static var binary: String { Run.repositoryRoot + "/Examples/SeedClient/.build/debug/SeedClient" }

        @Test("Delegate calls in order, timers and tasks ran, minimize and restore from code, a failure reported, an animated dismissal, a view queued after the queue emptied is presented, MediaView's other spellings")
        func seedClientRuns() throws {
            let video = try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 6)
            let broken = try Fixtures.bytes("not-a-video.mp4", Data("this is not a video".utf8))
            let subtitles = try Fixtures.srt("seed-client.srt", [Fixtures.Cue(0, 5, "Hello")])
            let r = try Run.process(Self.binary, [video, broken, subtitles], timeout: 60, environment: Run.environment())
            #expect(r.status == 0, "exit status \(r.status): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            let expected = [
                "willPresent", "didPresent", "didPlayMedia",
                "asyncAfter ran",
                "willChangeMinimization", "didChangeMinimization", "willEndMinimizing true",
                "didEndMinimizing true offset 1.0",
                "task slept, minimized true",
                "subtitle tracks 1, subrip external true, shown 1",
                "subtitles off true",
                "willChangeMinimization", "didChangeMinimization", "willEndMinimizing false",
                "didEndMinimizing false offset 0.0",
                "timer ticks enough",
                "willDismiss", "didPauseMedia", "didDismiss",
                "willPresent", "didPresent", "didFailToPlayMedia",
                "failure: reported",
                "willDismiss", "didDismiss",
                "dismissed animated, queue empty true",
                "willPresent", "didPresent", "didShowFirstFrame Late",
                "will rotate notification from Late",
                "will rotate notification from the app",
                "reset media: url none, title Late",
                "reset variables: title none, autoplay true",
                "done",
            ]
            #expect(lines == expected, "heard:\n\(r.stdout)")
        }
    }
}
