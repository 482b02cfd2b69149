import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A folder of very many entries: the first picture shows at once and the whole folder
    /// is queued in time and memory in proportion to its size.
    @Suite struct HostileFolders {
        /// A folder of `count` hard links to one small picture, on tmpfs when there is one
        /// (a million-entry folder is a file system's worth of metadata, not of data).
        static func crowdedFolder(_ count: Int) throws -> String {
            let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : try Scratch.directory("crowd")
            let dir = base + "/mediaview-crowd-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let first = dir + "/p0000000.png"
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 64, height: 48), toPath: first)
            for i in 1..<count where link(first, dir + String(format: "/p%07d.png", i)) != 0 {
                throw FixtureError("cannot link entry \(i) in \(dir)")
            }
            return dir
        }

        /// Resident memory now (`VmRSS`) or at its peak (`VmHWM`), in KiB.
        static func memoryKiB(_ pid: Int32, _ field: String) -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }

        /// 100,000 entries, a tenth of the folder a hostile input brings: queued within
        /// 6 s of the first picture, holding under 400 bytes more per entry (the debug
        /// build; a release build queues a million within 4 s of the first picture, at
        /// about 250 bytes each with the path).
        /// Each view carried its own copy of every option, a copy of three recorders and a
        /// place in two dictionaries (1.2 KB an entry), and the set of queued views was
        /// copied whole for each batch: a million entries took over a minute and 1.3 GB.
        @Test func aCrowdedFolderIsQueuedInLinearTime() throws {
            let count = 100_000
            let dir = try Self.crowdedFolder(count)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let log = try Scratch.directory("crowd-log") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log, dir])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            try #require(Events.waitFor(log, "first_frame", index: 0, timeout: 30) != nil, "stderr: \(run.stderr)")
            let shown = Date()
            let before = try #require(HostilePeer.restartPeakMiB(run.pid).map { Int($0 * 1024) })
            let queued = Events.waitFor(log, "queued", timeout: 40)
            let seconds = Date().timeIntervalSince(shown)
            #expect(queued?["items"] as? Int == count, "not queued within 40 s; stderr: \(run.stderr)")
            // AddressSanitizer (`make test-asan`) slows every call and pads every allocation.
            let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
            #expect(seconds < (sanitized ? 15 : 6), "queueing \(count) entries took \(seconds) s after the first picture")
            let peak = try #require(Self.memoryKiB(run.pid, "VmHWM"))
            let perEntry = Double(peak - before) * 1024 / Double(count)
            #expect(perEntry < (sanitized ? 800 : 400), "\(Int(perEntry)) bytes held per entry")
            #expect(run.process.isRunning)
        }
    }
}
