import CSandbox
import Foundation
@testable import Playback
import TestSupport
import Testing

/// The zygote the workers are forked from, as a user's playback depends on it: each worker
/// it forks is the viewer's own child, confined as a started one; killed, it takes no
/// worker with it, and the next worker comes from a new one.
@Suite(.serialized) struct ZygoteTests {
    /// The pids of this process's children whose command line matches `pattern`.
    private func children(_ pattern: String) throws -> [Int32] {
        try Run.process("pgrep", ["-P", "\(getpid())", "-f", pattern], timeout: 5).stdout
            .split(separator: "\n").compactMap { Int32($0) }
    }

    /// Whether `pid` has ended: gone, or a zombie waiting to be collected.
    private func ended(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }

    @Test func aKilledZygoteTakesNoWorkerWithItAndIsReplaced() throws {
        let pool = DecodeWorkers(timeout: 2, testing: true)
        defer { pool.stopAll() }
        #expect(pool.confinement(.media)?.missing == [])
        let worker = try #require(pool.idlePIDs.first)
        let zygotes = try children("mediaview-worker zygote")
        guard sbx_sanitized() == 0 else {
            // The sanitizer builds start each worker as a program (a forked one could not
            // enter a user namespace beside ThreadSanitizer's thread).
            #expect(zygotes.isEmpty, "a zygote in a sanitizer build")
            #expect(try children("mediaview-worker media").contains(worker))
            return
        }
        let zygote = try #require(zygotes.first, "no zygote")
        #expect(zygotes.count == 1, "\(zygotes)")
        // Forked from the zygote, the worker is still this process's child, named for its kind.
        #expect(try children("mediaview-worker media").contains(worker), "the media worker is not our child")

        kill(zygote, SIGKILL)
        let deadline = Date().addingTimeInterval(3)
        while !ended(zygote) && Date() < deadline { usleep(10_000) }
        #expect(ended(zygote), "the zygote did not end")

        // The worker forked before plays on: taken, it is still alive and given back.
        #expect(pool.confinement(.media)?.missing == [])
        #expect(pool.idlePIDs.contains(worker), "the media worker died with its zygote: \(pool.idlePIDs)")
        // The next worker comes from a new zygote, confined as fully, and the old one was collected.
        #expect(pool.confinement(.containers)?.missing == [])
        let next = try children("mediaview-worker zygote")
        #expect(next.count == 1 && next.first != zygote, "zygotes now: \(next), before: \(zygote)")
        #expect(kill(zygote, 0) != 0, "the killed zygote was left uncollected")
        #expect(try !children("mediaview-worker containers").isEmpty)
    }

    /// A film's picture and sound wait for what its container holds, so the container's
    /// worker is forked first, though the three workers are asked for from three threads
    /// while the zygote starts (the order they arrive in varies: about one launch in five
    /// forked the container's last). Five rounds, each with a new zygote.
    @Test func aFilmsContainerWorkerIsForkedFirst() throws {
        let film = try Fixtures.solidVideo("lime", width: 160, height: 120, seconds: 1, tone: 440)
        for round in 1...5 {
            for zygote in try children("mediaview-worker zygote") {
                kill(zygote, SIGKILL)
                let deadline = Date().addingTimeInterval(3)
                while !ended(zygote) && Date() < deadline { usleep(5_000) }
            }
            let pool = DecodeWorkers(timeout: 5, testing: true)
            pool.startAhead(for: film)
            let deadline = Date().addingTimeInterval(10)
            while pool.idlePIDs.count < 3 && Date() < deadline { usleep(2_000) }
            let started = pool.idlePIDs
            let containers = try children("mediaview-worker containers").filter(started.contains)
            let media = try children("mediaview-worker media").filter(started.contains)
            pool.stopAll()
            try #require(containers.count == 1 && media.count == 2, "round \(round): started \(started)")
            // Under ThreadSanitizer each worker is started as a program, with no zygote to wait for.
            guard sbx_sanitized() == 0 else { continue }
            // Process ids rise as processes are made (a wrap past the kernel's pid_max of
            // millions does not come within a test).
            #expect(containers[0] < media.min()!, "round \(round): the container's worker \(containers[0]) after \(media)")
        }
    }

    /// The zygote answers anything but a well-formed fork request with one line and goes on
    /// forking: a request of another kind, a kind it does not know, a request without a
    /// channel.
    @Test func aZygoteRefusesWhatIsNotAForkAndForksAfter() throws {
        let zygote = try #require(try startZygote(), "the zygote did not start")
        defer { zygote.stop() }
        func refused(_ request: WorkerMessage) -> String? {
            guard case .answer(let m) = zygote.exchange(request, timeout: 3), m.kind == .failure else { return nil }
            return m.text
        }
        let memfd = sbx_memfd("zygote-test")
        defer { close(memfd) }
        #expect(refused(WorkerMessage(kind: .decode, fd: memfd)) == "the zygote only forks decoders")
        #expect(refused(WorkerMessage(kind: .fork, text: "nonsense", fd: memfd)) == "the zygote only forks decoders")
        #expect(refused(WorkerMessage(kind: .fork, text: "media")) == "the zygote only forks decoders")
        let ready = try #require(fork(.media, from: zygote), "no fork after the refusals")
        defer { ready.stop() }
        #expect(try children("mediaview-worker media").contains(ready.pid), "the forked worker is not our child")
        // Under ThreadSanitizer a forked worker cannot enter a user namespace (see WorkerSpawner).
        if sbx_sanitized() == 0 { #expect(DecodeWorkers.missingSteps(ready.steps) == []) }
    }

    /// Once it has forked a worker, the zygote holds no library or program pages it only
    /// read while loading: they are counted where a worker uses them, and the zygote still
    /// forks confined workers after it has let them go.
    @Test func anIdleZygoteLetsGoOfThePagesItOnlyRead() throws {
        let zygote = try #require(try startZygote(), "the zygote did not start")
        defer { zygote.stop() }
        let first = try #require(fork(.media, from: zygote), "no first fork")
        defer { first.stop() }
        // The zygote lets go after answering the fork; waited for, not slept. Loaded, it maps
        // 21 MiB of such pages in a release build and 39 MiB in a debug one; its own loop
        // touches some 2 MiB of code again in a debug build, 5 MiB under ThreadSanitizer.
        let bound = sbx_sanitized() == 0 ? 4 << 10 : 8 << 10
        let held = KeptPages.settle(zygote.pid, under: bound)
        #expect(held <= bound, "the idle zygote still maps \(held) KiB of pages it only read")
        let second = try #require(fork(.containers, from: zygote), "no fork after the zygote let go")
        defer { second.stop() }
        if sbx_sanitized() == 0 { #expect(DecodeWorkers.missingSteps(second.steps) == []) }
        #expect(kill(zygote.pid, 0) == 0, "the zygote ended")
    }

    /// A zygote started as the spawner starts one (this process its workers' subreaper, so
    /// each forked worker is its child), once it says it is ready.
    private func startZygote() throws -> DecodeWorker? {
        let path = try #require(DecodeWorkers.programPath)
        #expect(sbx_become_subreaper() == 0)
        guard case .success(let launched) = DecodeWorker.launchZygote(path: path),
              case .success(let zygote) = launched.ready() else { return nil }
        return zygote
    }

    /// A worker of `kind` forked by `zygote` on a new channel, once it says it is ready.
    private func fork(_ kind: WorkerKind, from zygote: DecodeWorker) -> DecodeWorker? {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        let answer = zygote.exchange(WorkerMessage(kind: .fork, numbers: [0], text: kind.rawValue, fd: pair[1]), timeout: 3)
        close(pair[1])
        guard case .answer(let forked) = answer, forked.kind == .forked, forked.numbers[0] > 0 else {
            close(pair[0])
            return nil
        }
        let worker = DecodeWorker.forked(pid: pid_t(forked.numbers[0]), socket: pair[0], kind: kind)
        guard case .success(let ready) = worker.ready() else {
            worker.stop()
            return nil
        }
        return ready
    }
}
