import Foundation
import Testing
import TestSupport
@testable import Viewer

/// Going back and forth through a long queue: only the views on screen or next in line hold
/// players, so threads, open files and the sound server's clients stay bounded (the sound
/// server allows 64 clients for the whole desktop).
@Suite(.serialized)
@MainActor
struct ResourceBoundTests {
    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    static func openFiles() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Our process's clients of the sound server, as `pactl` lists them.
    static func soundClients() throws -> Int {
        let r = try Run.process("pactl", ["list", "short", "clients"], timeout: 10)
        return r.stdout.split(separator: "\n").filter { $0.contains("\t") }.count
    }

    @Test("40 × next then 40 × previous over clips with sound: threads, files and sound clients stay bounded")
    func backAndForth() throws {
        let clip = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 3, tone: 440)
        let h = QueueHarness()
        let views = (0..<41).map { _ in
            let v = MediaView()
            v.setVideo(url: clip)
            return v
        }
        for v in views { h.queue.queue(mediaView: v) }
        h.pump(seconds: 5) { views[0].hasPicture }
        let threads = Self.threads(), files = Self.openFiles(), clients = try Self.soundClients()
        func step(_ move: () -> Void) {
            move()
            let shown = h.queue.current
            h.pump(seconds: 5) { shown?.hasPicture == true }
        }
        for _ in 0..<40 { step { h.queue.presentNext() } }
        for _ in 0..<40 { step { h.queue.presentPrevious() } }
        #expect(h.queue.current === views[0], "back at the first view")
        let holding = views.filter { $0.isPrepared }.count
        #expect(holding <= 2, "views holding a session: \(holding) (the current one and the next)")
        // A player is a handful of threads and descriptors; two may differ from the start.
        #expect(Self.threads() <= threads + 16, "threads: \(threads) before, \(Self.threads()) after")
        #expect(Self.openFiles() <= files + 16, "open files: \(files) before, \(Self.openFiles()) after")
        #expect(try Self.soundClients() <= clients + 2, "sound clients: \(clients) before")
        h.queue.shutdown()
    }
}
