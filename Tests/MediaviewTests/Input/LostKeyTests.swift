import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A `q` typed right after the item changed, after minimizing and after an undo ends the
    /// program by itself every time, whether it comes through the keyboard (XTEST, the
    /// window focused) or from another program (XSendEvent to a window without the focus,
    /// what `xdotool key --window` then does); the event log shows `quit` took it.
    @Suite struct LostKeys {
        /// Runs of each case: a key lost one time in a few shows within them.
        static let runs = 15

        /// What happened just before the `q`.
        enum Moment: String, CaseIterable, Sendable {
            case itemChange, minimize, undo
        }

        /// How the keys reach the window.
        enum Delivery: String, CaseIterable, Sendable {
            /// The window has the focus and the keyboard types (XTEST).
            case keyboard
            /// Another window has the focus; the keys are sent to the window (XSendEvent).
            case sent
        }

        @Test(arguments: Moment.allCases, Delivery.allCases)
        func quitIsTakenEveryTime(moment: Moment, delivery: Delivery) throws {
            var failures: [String] = []
            for run in 1...Self.runs {
                if let why = try Self.once(moment, delivery) { failures.append("run \(run): \(why)") }
            }
            print("LostKeys \(moment.rawValue)/\(delivery.rawValue): \(Self.runs - failures.count) of \(Self.runs) taken")
            #expect(failures.isEmpty, "\(failures.count) of \(Self.runs) q lost:\n\(failures.joined(separator: "\n"))")
        }

        /// One program: the moment, then `q` at once. Nil when it ended by itself with status
        /// 0 and the log says `quit` took the `q`; else what went wrong.
        static func once(_ moment: Moment, _ delivery: Delivery) throws -> String? {
            let dir = try Scratch.directory("lost-key")
            let log = dir + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log]
                                   + (try media(for: moment, in: dir)))
            // The first picture first, so the window found is this program's.
            guard Events.waitFor(log, "first_frame", index: 0) != nil else { return "no first picture: \(run.stderr)" }
            let probe = try ScreenProbe()
            guard let window = ProgramWindow.wait(probe) else { return "no window" }
            let keys = Keys(window: window.id, delivery: delivery, probe: probe)
            if let why = try setUp(moment, keys: keys, log: log) { return why }
            try keys.press("q")
            guard let ended = run.finish(timeout: 10) else { return "still running 10 s after q; keys: \(keyLines(log))" }
            guard ended.status == 0, !ended.bySignal else { return "ended with \(ended.status): \(ended.stderr)" }
            let taken = try Events.read(log).contains {
                $0["event"] as? String == "key" && $0["name"] as? String == "q" && $0["taken"] as? String == "quit"
            }
            return taken ? nil : "the log does not show quit taking q; keys: \(keyLines(log))"
        }

        private static func media(for moment: Moment, in dir: String) throws -> [String] {
            let red = try Fixtures.solidImage("red", width: 64, height: 48)
            switch moment {
            case .itemChange: return [red, try Fixtures.solidImage("blue", width: 64, height: 48)]
            case .minimize: return [red]
            case .undo:
                let files = try Scratch.directory("lost-key-files")
                for name in ["a.png", "b.png"] { try FileManager.default.copyItem(atPath: red, toPath: files + "/" + name) }
                return [files]
            }
        }

        /// Brings the program to the moment; returns why it could not.
        private static func setUp(_ moment: Moment, keys: Keys, log: String) throws -> String? {
            switch moment {
            case .itemChange:
                try keys.press("n")
                return Events.waitFor(log, "first_frame", index: 1) == nil ? "n did not show item 1" : nil
            case .minimize:
                try keys.press("ctrl+Down")
                return Events.waitFor(log, "did_end_minimizing", index: 0) == nil ? "Ctrl+DOWN did not minimize" : nil
            case .undo:
                try keys.press("Delete")
                guard Events.waitFor(log, "first_frame", index: 1) != nil else { return "Delete did not move on" }
                try keys.press("u")
                return Events.waitFor(log, "restored", index: 0) == nil ? "u did not restore" : nil
            }
        }

        /// The key lines of the log, for a failure's message.
        private static func keyLines(_ log: String) -> String {
            let lines = ((try? Events.read(log)) ?? []).filter { $0["event"] as? String == "key" }
            return lines.map { "\($0["name"] ?? "?") press=\($0["press"] ?? "?") synthetic=\($0["synthetic"] ?? "?") "
                + "\($0["taken"].map { "taken=\($0)" } ?? "dropped=\($0["dropped"] ?? "?")")" }.joined(separator: "; ")
        }

        /// Types keys the chosen way.
        struct Keys {
            let window: UInt
            let delivery: Delivery
            let probe: ScreenProbe

            func press(_ key: String) throws {
                switch delivery {
                case .keyboard:
                    probe.setFocus(window)
                    // No window given: xdotool types with XTEST, as a keyboard does. The key is
                    // released first in case an earlier program's test left it down.
                    _ = try Run.process("xdotool", ["keyup", key, "key", key], timeout: 10)
                case .sent:
                    probe.setFocus(nil)
                    // xdotool may find the window gone after a q: only the program's end counts.
                    _ = try Run.process("xdotool", ["key", "--window", String(window), key], timeout: 10)
                }
            }
        }
    }
}
