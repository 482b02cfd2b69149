import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The IPC socket against clients that mean harm or just behave badly: too many of
    /// them, ones that never read, one that floods it with requests, and another instance
    /// that took over the socket's path. Each time the player stays idle when idle, small,
    /// answers everyone else, and leaves what is not its own alone.
    @Suite struct HostileIPC {
        static func start(_ media: [String], wrapper: [String] = []) throws -> (Launched, String) {
            let socket = try Scratch.directory("hostile-ipc") + "/socket"
            let log = try Scratch.directory("hostile-ipc-log") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log,
                                    "--input-ipc-server", socket] + media, wrapper: wrapper)
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "stderr: \(run.stderr)")
            return (run, socket)
        }

        static func quit(_ run: Launched, _ socket: String) throws {
            let client = try SocketClient(path: socket)
            _ = try client.request(["quit"], id: 9999)
            #expect(run.finish(timeout: 10)?.status == 0, "quit should still end the program cleanly")
        }

        /// CPU seconds per second `pid` uses over `seconds`.
        static func cpuShare(_ pid: Int32, over seconds: Double) throws -> Double {
            let before = try #require(HostilePeer.cpuSeconds(pid))
            let start = Date()
            usleep(UInt32(seconds * 1_000_000))
            let after = try #require(HostilePeer.cpuSeconds(pid))
            return (after - before) / Date().timeIntervalSince(start)
        }

        @Test func outOfDescriptorsTheIdlePlayerDoesNotSpin() throws {
            // A low descriptor limit stands in for a thousand clients against the usual 1,024.
            let (run, socket) = try Self.start([try Fixtures.solidImage("blue")],
                                               wrapper: ["sh", "-c", "ulimit -n 64 && exec \"$0\" \"$@\""])
            let idle = try Self.cpuShare(run.pid, over: 1)
            let free = 64 - HostilePeer.openDescriptors(run.pid)
            try #require(free > 0 && free < 60, "\(free) descriptors free")
            var clients: [Int32] = []
            defer { for c in clients { close(c) } }
            // Enough to use up the descriptors and fill the socket's backlog besides.
            let until = Date().addingTimeInterval(10)
            while clients.count < free + 12 && Date() < until {
                if let c = HostilePeer.connect(socket) { clients.append(c) } else { usleep(5000) }
            }
            #expect(clients.count > free, "only \(clients.count) clients got in")
            usleep(300_000)
            let share = try Self.cpuShare(run.pid, over: 2)
            // A spinning loop takes all the core it can get (on a busy machine, a quarter).
            #expect(share < 0.1, "the idle player used \(Int(share * 100)) % of a core out of descriptors, \(Int(idle * 100)) % before")
            for c in clients { close(c) }
            clients = []
            // Once they leave, a script is served again.
            let client = try SocketClient(path: socket)
            #expect(try client.request(["get_property", "playlist-count"], id: 1, timeout: 5)["data"] as? Int == 1)
            _ = try client.request(["quit"], id: 2)
            #expect(run.finish(timeout: 10)?.status == 0)
        }

        @Test func clientsThatNeverReadCannotGrowThePlayerWithoutBound() throws {
            let (run, socket) = try Self.start([try Fixtures.solidVideo("red", seconds: 30, fps: 10)])
            // One well-behaved client first, so that the code the flood runs is back in memory
            // (the program lets go of its start's pages once the first picture shows): what is
            // measured from here is what the flood holds.
            let warm = try SocketClient(path: socket)
            for id in 1...20 { _ = try warm.request(["cycle", "pause"], id: id, timeout: 5) }
            let rss = try #require(HostilePeer.restartPeakMiB(run.pid))
            // Sixty clients that never read, while another floods pause and unpause: every
            // event goes to all of them.
            var idle: [Int32] = []
            defer { for c in idle { close(c) } }
            let until = Date().addingTimeInterval(10)
            while idle.count < 60 && Date() < until {
                if let c = HostilePeer.connect(socket) { idle.append(c) } else { usleep(5000) }
            }
            #expect(idle.count == 60)
            // Like theirs, its connect is refused while the player has not yet accepted the
            // others (the listen backlog is full), so it tries again until it is taken.
            var taken: Int32?
            while taken == nil && Date() < until.addingTimeInterval(5) {
                taken = HostilePeer.connect(socket)
                if taken == nil { usleep(5000) }
            }
            let flooder = try #require(taken, "the player never took a 61st client")
            defer { close(flooder) }
            let toggles = 20_000
            var events = 0
            var sent = 0
            var buffer = [UInt8](repeating: 0, count: 65536)
            let end = Date().addingTimeInterval(90)
            while events < toggles && Date() < end {
                if sent < toggles {
                    HostilePeer.send(flooder, String(repeating: "cycle pause\n", count: 500), timeout: 5)
                    sent += 500
                }
                let n = recv(flooder, &buffer, buffer.count, 0)
                if n > 0 { events += buffer[0..<n].filter { $0 == UInt8(ascii: "\n") }.count } else { usleep(2000) }
            }
            #expect(events >= toggles, "\(events) of \(toggles) events came")
            let peak = try #require(HostilePeer.memoryMiB(run.pid, "VmHWM"))
            // AddressSanitizer pads every allocation and keeps per-thread caches of freed
            // blocks, and ThreadSanitizer keeps shadow memory beside every byte touched: their
            // test builds are given two thirds again. Kept for the sixty clients, the flood's events
            // would be over 50 MB.
            let environment = ProcessInfo.processInfo.environment
            let sanitized = environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
            let bound: Double = sanitized ? 40 : 24
            #expect(peak - rss < bound, "memory grew from \(Int(rss)) to a peak of \(Int(peak)) MiB")
            try Self.quit(run, socket)
        }

        @Test func aFloodOfObservationsDoesNotStopThePlayerAnsweringOthers() throws {
            let (run, socket) = try Self.start([try Fixtures.solidVideo("red", seconds: 30, fps: 10)])
            let flood = (1...3000).map { "{\"command\":[\"observe_property\",\($0),\"time-pos\"],\"request_id\":\($0)}\n" }.joined()
            let hostile = try #require(HostilePeer.connect(socket))
            defer { close(hostile) }
            #expect(HostilePeer.send(hostile, flood, timeout: 5) == flood.utf8.count, "the player stopped reading")
            let other = try SocketClient(path: socket)
            let start = Date()
            let reply = try other.request(["get_property", "pause"], id: 1, timeout: 5)
            #expect(reply["error"] as? String == "success")
            #expect(Date().timeIntervalSince(start) < 2, "another client waited \(Date().timeIntervalSince(start)) s")
            // The flood's own answers: a bounded number of observations, the rest refused.
            var bytes = 0
            var buffer = [UInt8](repeating: 0, count: 65536)
            let end = Date().addingTimeInterval(3)
            while Date() < end {
                let n = recv(hostile, &buffer, buffer.count, 0)
                if n > 0 { bytes += n } else { usleep(10_000) }
            }
            #expect(bytes < 4 << 20, "\(bytes) bytes of events in 3 s for one client")
            try Self.quit(run, socket)
        }

        @Test func anExitingPlayerLeavesAnotherPlayersSocketAlone() throws {
            let (first, socket) = try Self.start([try Fixtures.solidImage("blue")])
            let firstClient = try SocketClient(path: socket)
            // The path is taken over while the first still runs: its file removed, a second
            // player listening at the same path.
            unlink(socket)
            let second = try Launched(["--windowed", "--geometry", "160x120+400+0", "--no-audio",
                                       "--input-ipc-server", socket, try Fixtures.solidImage("red")])
            let secondClient = try SocketClient(path: socket)
            #expect(try secondClient.request(["get_property", "path"], id: 1)["data"] as? String
                == (try Fixtures.solidImage("red")))
            _ = try firstClient.request(["quit"], id: 2)
            #expect(first.finish(timeout: 10)?.status == 0)
            #expect(FileManager.default.fileExists(atPath: socket), "the first player removed the second one's socket")
            let again = try SocketClient(path: socket, timeout: 2)
            #expect(try again.request(["get_property", "playlist-count"], id: 3)["data"] as? Int == 1)
            _ = try again.request(["quit"], id: 4)
            #expect(second.finish(timeout: 10)?.status == 0)
        }
    }
}
