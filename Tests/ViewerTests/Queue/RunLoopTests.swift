import Foundation
import Testing
import TestSupport
@testable import Viewer

/// `run()` and `run() async` are one loop driven two ways (the thread's own poll, or
/// libdispatch's main queue): the same checks hold for both. Each run is bounded by a
/// safety quit, so a loop that never ends fails instead of hanging.
@Suite(.serialized)
@MainActor
struct RunLoopTests {
    /// How the loop is driven.
    enum Driver: String, CaseIterable, Sendable {
        /// `run()`, blocking the calling thread.
        case blocking
        /// `run() async`, from the main queue.
        case dispatched
    }

    /// Calls a closure at a view's first picture.
    final class FirstFrame: MediaViewDelegate {
        let action: (MediaView) -> Void
        init(_ action: @escaping (MediaView) -> Void) { self.action = action }
        func didShowFirstFrame(for mediaView: MediaView) { action(mediaView) }
    }

    private static let safety = 20.0

    private func makeQueue(_ views: [MediaView]) -> MediaQueue {
        let q = MediaQueue()
        q.presentation.windowed = true
        q.presentation.geometry = (320, 240, 0, 0)
        for v in views { q.queue(mediaView: v) }
        return q
    }

    private func still(_ color: String) throws -> MediaView {
        let v = MediaView()
        v.setImage(url: try Fixtures.solidImage(color, width: 64, height: 48))
        return v
    }

    /// Runs `q` the chosen way with the safety quit; returns what `run` said and how long it took.
    ///
    /// The safety comes through a descriptor the loop watches, written from a thread of its
    /// own: a test runs inside the main queue's work, so `run()` there cannot run the main
    /// queue's timers (an app calls it from its main thread, not from main-queue work).
    private func run(_ q: MediaQueue, _ driver: Driver) async -> (ok: Bool, seconds: Double) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return (false, 0) }
        q.watch(fileDescriptor: fds[0]) { [weak q] in q?.quit() }
        let (reader, writer, seconds) = (fds[0], fds[1], Self.safety)
        // The thread owns both ends and closes them when done, so no descriptor is closed
        // under it (or written after being reused).
        Thread.detachNewThread {
            usleep(UInt32(seconds * 1_000_000))
            var b: UInt8 = 1
            _ = write(writer, &b, 1)
            close(writer)
            close(reader)
        }
        let start = Date()
        let ok = driver == .blocking ? Self.runBlocking(q) : await q.run()
        q.unwatch(fileDescriptor: reader)
        return (ok, Date().timeIntervalSince(start))
    }

    /// `run()` itself: a synchronous caller gets the blocking overload, not the async one.
    private static func runBlocking(_ q: MediaQueue) -> Bool {
        q.run()
    }

    @Test("quit() from a delegate call ends the loop", arguments: Driver.allCases)
    func quitEnds(driver: Driver) async throws {
        let v = try still("red")
        let q = makeQueue([v])
        var shown = false
        let quitter = FirstFrame { [weak q] _ in
            shown = true
            q?.quit()
        }
        v.addObserver(quitter)
        let r = await run(q, driver)
        #expect(r.ok && shown)
        #expect(r.seconds < Self.safety, "the loop ran until the safety quit")
    }

    @Test("With autoExit the loop ends by itself when the queue is done", arguments: Driver.allCases)
    func autoExitEnds(driver: Driver) async throws {
        let a = try still("red"), b = try still("blue")
        for v in [a, b] { v.settings.imageDuration = 0.2 }
        let q = makeQueue([a, b])
        q.presentation.autoExit = true
        let r = await run(q, driver)
        #expect(r.ok)
        #expect(r.seconds < Self.safety, "the loop ran until the safety quit")
        #expect(q.current == nil)
    }

    @Test("Work the app puts on the main queue runs while the loop waits")
    func mainQueueWorkRuns() async throws {
        let driver = Driver.dispatched
        let q = makeQueue([try still("green")])
        // The work quits the loop: ending before the safety quit shows it ran.
        DispatchQueue.main.async { [weak q] in q?.quit() }
        let r = await run(q, driver)
        #expect(r.ok)
        #expect(r.seconds < Self.safety, "the work on the main queue did not run")
    }

    @Test("q typed on the window ends the loop, and the app hears quit took it", arguments: Driver.allCases)
    func quitKeyEnds(driver: Driver) async throws {
        let v = try still("red")
        let q = makeQueue([v])
        var records: [InputRecord] = []
        q.presentation.onInput = { records.append($0) }
        let typist = FirstFrame { [weak q] _ in
            guard let id = q?.screen?.stage.window.id else { return }
            // From another thread: the loop must keep turning to see the key.
            Thread.detachNewThread { _ = try? Run.process("xdotool", ["key", "--window", String(id), "q"], timeout: 10) }
        }
        v.addObserver(typist)
        let r = await run(q, driver)
        _ = try? Run.process("xdotool", ["keyup", "q"], timeout: 10)
        #expect(r.ok)
        #expect(r.seconds < Self.safety, "q did not end the loop")
        #expect(records.contains { $0.device == .key && $0.name == "q" && $0.isPress && $0.outcome == .taken(.quit) },
                "\(records)")
    }

    @Test("A descriptor its writer writes and closes at once still ends the loop", arguments: Driver.allCases)
    func closedWriterEnds(driver: Driver) async throws {
        let v = try still("red")
        let q = makeQueue([v])
        let (reader, writer) = try pipeEnds()
        var heard = false
        q.watch(fileDescriptor: reader) { [weak q] in
            heard = true
            q?.quit()
        }
        // What the safety quit does: one byte, then both ends closed, from another thread.
        let writes = FirstFrame { _ in
            Thread.detachNewThread {
                var b: UInt8 = 1
                _ = write(writer, &b, 1)
                close(writer)
                close(reader)
            }
        }
        v.addObserver(writes)
        let r = await run(q, driver)
        q.unwatch(fileDescriptor: reader)
        #expect(r.ok && heard)
        #expect(r.seconds < Self.safety, "the written and closed descriptor did not end the loop")
    }

    @Test("A descriptor watched while the loop runs is heard", arguments: Driver.allCases)
    func lateWatchIsHeard(driver: Driver) async throws {
        let v = try still("red")
        let q = makeQueue([v])
        let (reader, writer) = try pipeEnds()
        var heard = false
        // Watched only once the loop runs (as a control socket's client is), then written.
        let watches = FirstFrame { [weak q] _ in
            q?.watch(fileDescriptor: reader) { [weak q] in
                heard = true
                q?.quit()
            }
            Thread.detachNewThread {
                var b: UInt8 = 1
                _ = write(writer, &b, 1)
            }
        }
        v.addObserver(watches)
        let r = await run(q, driver)
        q.unwatch(fileDescriptor: reader)
        close(reader)
        close(writer)
        #expect(r.ok && heard)
        #expect(r.seconds < Self.safety, "a descriptor watched during the run was not heard")
    }

    /// A pipe's reading and writing ends.
    private func pipeEnds() throws -> (reader: Int32, writer: Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }
}
