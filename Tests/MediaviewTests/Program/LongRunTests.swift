import Foundation
import Testing
import TestSupport

/// A long queue of mixed items: nothing grows with the number of items played.
@Suite(.serialized)
struct LongRunTests {
    /// Resident memory of a process, in KiB.
    func rss(_ pid: Int32) -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    @Test("150 items (stills, GIFs, videos, a missing file) play through with flat memory and threads")
    func flatMemory() throws {
        let items = [try Fixtures.solidImage("red", width: 64, height: 48),
                     try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 2, size: 32),
                     try Fixtures.solidVideo("green", width: 64, height: 48, seconds: 0.2),
                     "/nonexistent/missing.png"]
        let queue = (0..<150).map { items[$0 % items.count] }
        let events = Fixtures.directory + "/longrun-\(getpid()).jsonl"
        let p = try Run.start(Run.mediaview, ["--autoexit", "--image-duration", "0.02", "--no-audio", "--windowed",
                                              "--geometry", "320x240+0+0", "--events", events] + queue,
                              environment: Run.environment())
        var samples: [(presented: Int, rss: Int, threads: Int)] = []
        let end = Date().addingTimeInterval(120)
        while p.isRunning && Date() < end {
            usleep(250_000)
            let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            let presented = log.components(separatedBy: "\"presented\"").count - 1
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(p.processIdentifier)/task").count) ?? 0
            if let r = rss(p.processIdentifier) { samples.append((presented, r, threads)) }
        }
        #expect(Run.wait(p, timeout: 5))
        #expect(p.terminationStatus == 1, "one item in four is missing")
        let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: "\"presented\"").count - 1 == 150)
        // Compare the memory after the first fifth of the queue with the end: no growth per item.
        let early = samples.filter { $0.presented >= 30 && $0.presented < 45 }.map(\.rss).max() ?? 0
        let late = samples.filter { $0.presented >= 130 }.map(\.rss).max() ?? 0
        #expect(early > 0 && late > 0, "sampled \(samples.count) times")
        #expect(late - early < 12_000, "RSS grew from \(early) KiB to \(late) KiB over 100 items")
        let maxThreads = samples.map(\.threads).max() ?? 0
        #expect(maxThreads < 30, "at most \(maxThreads) threads at once")
    }
}
