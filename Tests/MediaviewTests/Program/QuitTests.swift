import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A quit at the moments the viewer once crashed in ends it cleanly every time: while a
    /// still decodes in the sandboxed worker, right after the item changed, and while a
    /// video starts. The crash was a player's thread still letting go of its stages (and
    /// with them the X connection) while `exit` tore the libraries down; the end now waits
    /// for every such thread, and the log's `exit` line says none was left.
    @Suite struct Quitting {
        /// Launches of each moment: the crash showed about once in 90 quits under load, so
        /// a handful each, many times over a day of test runs, plus the threads count, which
        /// fails at once when a thread is left.
        static let runs = 8

        /// What is happening when the `q` comes.
        enum Moment: String, CaseIterable, Sendable {
            /// A large still is being decoded in the worker, nothing shown yet.
            case stillDecoding
            /// `n` moved to the next still a moment ago.
            case itemChange
            /// `n` moved to a video with sound, which is opening.
            case videoStart
        }

        @Test(arguments: Moment.allCases)
        func quitEndsCleanly(moment: Moment) throws {
            var failures: [String] = []
            for run in 1...Self.runs {
                if let why = try Self.once(moment) { failures.append("run \(run): \(why)") }
            }
            #expect(failures.isEmpty, "\(failures.count) of \(Self.runs) quits not clean:\n\(failures.joined(separator: "\n"))")
        }

        /// One program quit at `moment`; nil when it ended by itself with status 0, no
        /// signal, and no thread left running at its end.
        static func once(_ moment: Moment) throws -> String? {
            let dir = try Scratch.directory("quit")
            let log = dir + "/events.jsonl", socket = dir + "/ipc"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--events", log,
                                    "--input-ipc-server", socket] + (try media(for: moment)))
            let client = try SocketClient(path: socket)
            switch moment {
            case .stillDecoding:
                // Presented but not yet loaded: the worker is decoding it.
                guard Events.waitFor(log, "presented", index: 0) != nil else { return "item 0 never presented: \(run.stderr)" }
            case .itemChange, .videoStart:
                guard Events.waitFor(log, "first_frame", index: 0) != nil else { return "no first picture: \(run.stderr)" }
                _ = try client.request(["keypress", "n"], id: 1)
                if moment == .videoStart, Events.waitFor(log, "presented", index: 1) == nil { return "n did not present the video" }
            }
            client.send(#"{"command": ["keypress", "q"]}"#)
            guard let ended = run.finish(timeout: 10) else { return "still running 10 s after q" }
            guard ended.status == 0, !ended.bySignal else {
                return "ended with \(ended.bySignal ? "signal" : "status") \(ended.status): \(ended.stderr)"
            }
            let exit = try Events.read(log).last { $0["event"] as? String == "exit" }
            guard let threads = exit?["threads"] as? Int else { return "no exit line with a threads count" }
            return threads == 0 ? nil : "\(threads) threads still running at the end"
        }

        /// A still whose decode in the worker never ends (a test-only name makes the worker
        /// hang, as a crafted file could): `q` ends the program at once rather than after the
        /// worker's 10 s limit, and the worker is gone with it.
        @Test func quitDoesNotWaitForAHungDecode() throws {
            let dir = try Scratch.directory("quit-hung")
            let log = dir + "/events.jsonl", socket = dir + "/ipc"
            let picture = dir + "/worker-hangs.png"
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 64, height: 48), toPath: picture)
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--events", log,
                                    "--input-ipc-server", socket, picture],
                                   environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            let client = try SocketClient(path: socket)
            #expect(Events.waitFor(log, "presented", index: 0) != nil, "never presented: \(run.stderr)")
            let asked = Date()
            client.send(#"{"command": ["keypress", "q"]}"#)
            let ended = run.finish(timeout: 8)
            // The worker's limit is 10 s; a quit that waited for it would take that long.
            #expect(ended != nil && Date().timeIntervalSince(asked) < 5, "q waited for the hung decode")
            #expect(ended?.status == 0 && ended?.bySignal == false, "\(ended?.stderr ?? "still running")")
            #expect(ended?.stderr.contains("the decoder stopped") == false, "\(ended?.stderr ?? "")")
        }

        private static func media(for moment: Moment) throws -> [String] {
            switch moment {
            case .stillDecoding:
                return [try Fixtures.solidImage("red", width: 4000, height: 3000, ext: "jpg")]
            case .itemChange:
                return [try Fixtures.solidImage("red", width: 64, height: 48), try Fixtures.solidImage("blue", width: 64, height: 48)]
            case .videoStart:
                return [try Fixtures.solidImage("red", width: 64, height: 48),
                        try Fixtures.solidVideo("green", width: 320, height: 240, seconds: 2, tone: 440)]
            }
        }
    }
}
