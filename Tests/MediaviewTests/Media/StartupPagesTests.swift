import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// Once a film's first picture is on screen, the viewer and the worker that read its
    /// container let go of the code they ran only to start (about 23 and 18 MiB of pages in
    /// this build before), and the film plays on to its end.
    @Suite(.serialized) struct StartupPages {
        @Test func aPlayingFilmLeavesTheStartsPagesBehind() throws {
            // Long enough to be still playing after both waits, even on a loaded machine.
            let clip = try Fixtures.solidVideo("red", seconds: 6)
            let s = try RunningViewer([clip], until: "first_frame")
            #expect(s.shows(0xFF0000), "the video is not on screen; stderr: \(s.run.stderr)")
            let viewer = KeptPages.settle(s.run.pid, under: 14 << 10)
            #expect(viewer <= 14 << 10, "the playing viewer still maps \(viewer) KiB of read-only pages")
            let workers = try Run.process("pgrep", ["-P", String(s.run.pid), "-f", "mediaview-worker containers"]).stdout
                .split(separator: "\n").compactMap { Int32($0) }
            let containers = try #require(workers.first, "no containers worker beside the viewer")
            let reader = KeptPages.settle(containers, under: 10 << 10)
            #expect(reader <= 10 << 10, "the containers worker still maps \(reader) KiB of read-only pages")
            // Playing on needs what was let go back: the film runs to its end, still red.
            #expect(s.shows(0xFF0000))
            #expect(Events.waitFor(s.log, "finished", index: 0, timeout: 15) != nil, "the film did not play to its end")
            #expect(s.run.stderr.isEmpty, "\(s.run.stderr)")
        }
    }
}
