import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// Once a film's first picture is on screen, the viewer and the worker that read its
    /// container let go of the code they ran only to start (about 23 and 18 MiB of pages in
    /// this build before), and the film plays on to its end.
    @Suite(.serialized) struct StartupPages {
        /// KiB resident in `pid`'s private, read-only file mappings none of whose pages were
        /// written: the code, constants and symbol tables it maps. Read with cat: Foundation
        /// trusts the size procfs reports, 0, and reads nothing.
        private func readOnlyPages(of pid: Int32) -> Int {
            guard let smaps = try? Run.process("cat", ["/proc/\(pid)/smaps"]).stdout, !smaps.isEmpty else { return .max }
            var total = 0, rss = 0, eligible = false
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
                    let perms = Array(fields[1])
                    eligible = perms[1] != "w" && perms[3] == "p" && fields[4] != "0"
                } else if fields.first == "Rss:", fields.count > 1 {
                    rss = Int(fields[1]) ?? 0
                } else if fields.first == "Anonymous:", fields.count > 1, eligible, Int(fields[1]) == 0 {
                    total += rss
                }
            }
            return total
        }

        /// Waits (at most 5 s) until `pid` maps at most `limit` KiB of such pages; what it maps then.
        private func settles(_ pid: Int32, under limit: Int) -> Int {
            let deadline = Date().addingTimeInterval(5)
            var held = readOnlyPages(of: pid)
            while held > limit && Date() < deadline {
                usleep(50_000)
                held = readOnlyPages(of: pid)
            }
            return held
        }

        @Test func aPlayingFilmLeavesTheStartsPagesBehind() throws {
            // Long enough to be still playing after both waits, even on a loaded machine.
            let clip = try Fixtures.solidVideo("red", seconds: 6)
            let s = try RunningViewer([clip], until: "first_frame")
            #expect(s.shows(0xFF0000), "the video is not on screen; stderr: \(s.run.stderr)")
            let viewer = settles(s.run.pid, under: 14 << 10)
            #expect(viewer <= 14 << 10, "the playing viewer still maps \(viewer) KiB of read-only pages")
            let workers = try Run.process("pgrep", ["-P", String(s.run.pid), "-f", "mediaview-worker containers"]).stdout
                .split(separator: "\n").compactMap { Int32($0) }
            let containers = try #require(workers.first, "no containers worker beside the viewer")
            let reader = settles(containers, under: 10 << 10)
            #expect(reader <= 10 << 10, "the containers worker still maps \(reader) KiB of read-only pages")
            // Playing on needs what was let go back: the film runs to its end, still red.
            #expect(s.shows(0xFF0000))
            #expect(Events.waitFor(s.log, "finished", index: 0, timeout: 15) != nil, "the film did not play to its end")
            #expect(s.run.stderr.isEmpty, "\(s.run.stderr)")
        }
    }
}
