import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// Workers are started ahead for a next item only when there is one: a film played on
    /// its own keeps just the workers it reads and decodes with, and their memory.
    @Suite(.serialized) struct WorkersAhead {
        /// The kinds of the workers `pid` runs now, counted; the zygote they are forked from
        /// counts as "zygote".
        private func workers(of pid: Int32) throws -> [String: Int] {
            let out = try Run.process("pgrep", ["-a", "-P", String(pid), "-f", "mediaview-worker"]).stdout
            var kinds: [String: Int] = [:]
            for line in out.split(separator: "\n") {
                if let kind = line.split(separator: " ").last { kinds[String(kind), default: 0] += 1 }
            }
            return kinds
        }

        /// The most workers of each kind seen over `seconds` (the successor of a taken worker
        /// is due 0.3 s after the take, at the next packet), or as soon as `enough` holds.
        private func mostWorkers(of pid: Int32, over seconds: Double, enough: ([String: Int]) -> Bool) throws -> [String: Int] {
            var most: [String: Int] = [:]
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                for (kind, n) in try workers(of: pid) { most[kind] = max(most[kind] ?? 0, n) }
                if enough(most) { break }
                usleep(20_000)
            }
            return most
        }

        @Test("A single video keeps only its container's and its picture's workers; with a next item, a container's worker waits for it")
        func onlyAQueueWithANextItemStartsWorkersForIt() throws {
            let clip = try Fixtures.solidVideo("blue", seconds: 6)
            let photo = try Fixtures.solidImage("red", width: 320, height: 240, ext: "png")
            let alone = try RunningViewer([clip], until: "first_frame")
            let single = try mostWorkers(of: alone.run.pid, over: 2) { ($0["containers"] ?? 0) > 1 }
            kill(alone.run.pid, SIGTERM)
            _ = alone.run.finish(timeout: 5)
            #expect(single == ["containers": 1, "media": 1, "zygote": 1], "\(single)")

            let queued = try RunningViewer([clip, photo], until: "first_frame")
            let two = try mostWorkers(of: queued.run.pid, over: 5) { ($0["containers"] ?? 0) > 1 }
            kill(queued.run.pid, SIGTERM)
            _ = queued.run.finish(timeout: 5)
            #expect(two["containers"] == 2, "no container's worker started for the next item: \(two)")
        }

        /// A film without sound, alone, with sound on: the worker started for its sound as the
        /// program started is let go once the film is found to have none.
        @Test("A silent film on its own lets go of the worker started for its sound")
        func aSilentFilmLetsGoOfTheSoundWorker() throws {
            let clip = try Fixtures.solidVideo("green", seconds: 6)
            let viewer = try RunningViewer([clip], until: "first_frame", sound: true)
            defer { kill(viewer.run.pid, SIGTERM); _ = viewer.run.finish(timeout: 5) }
            var now: [String: Int] = [:]
            let end = Date().addingTimeInterval(5)
            while Date() < end {
                now = try workers(of: viewer.run.pid)
                if now == ["containers": 1, "media": 1, "zygote": 1] { break }
                usleep(20_000)
            }
            #expect(now == ["containers": 1, "media": 1, "zygote": 1], "\(now)")
        }
    }
}
