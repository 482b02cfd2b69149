import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The player on the private session bus that `scripts/testenv.sh` starts, driven by
    /// `playerctl` and `dbus-send` as a desktop's media keys and widgets drive it.
    @Suite struct MPRIS {
        /// The program on `media`, playing, and seen playing by playerctl.
        private func start(_ media: [String]) throws -> RunningViewer {
            let s = try RunningViewer(media, until: "played")
            try #require(waitUntil { try playerctl(["status"]).stdout == "Playing\n" },
                         "playerctl never saw it playing; stderr: \(s.run.stderr)")
            return s
        }

        @discardableResult
        private func playerctl(_ args: [String]) throws -> Run.Result {
            try Run.process("playerctl", ["--player=mediaview"] + args, timeout: 10)
        }

        /// `dbus-send` to the player's object, waiting for the reply.
        private func call(_ member: String, _ args: [String]) throws -> Run.Result {
            try Run.process("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.mediaview",
                                          "/org/mpris/MediaPlayer2", member] + args, timeout: 10)
        }

        /// Polls `condition` for up to `timeout` seconds.
        private func waitUntil(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
            let start = Date()
            repeat {
                if try condition() { return true }
                usleep(50_000)
            } while Date().timeIntervalSince(start) < timeout
            return false
        }

        /// Status, metadata, pause and play, an absolute position, volume, next and previous:
        /// what a desktop media widget shows and does, checked on screen and in the log.
        @Test func playerctlSeesAndDrivesThePlayer() throws {
            let red = try Fixtures.solidVideo("red", seconds: 20)
            let blue = try Fixtures.solidVideo("blue", seconds: 20)
            let s = try start([red, blue])
            #expect(try playerctl(["metadata", "xesam:url"]).stdout == "file://\(red)\n")
            #expect(try playerctl(["metadata", "xesam:title"]).stdout == "\(URL(fileURLWithPath: red).lastPathComponent)\n")
            let length = Double(try playerctl(["metadata", "mpris:length"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(abs((length ?? 0) - 20_000_000) < 100_000, "mpris:length \(String(describing: length))")

            try playerctl(["pause"])
            #expect(Events.waitFor(s.log, "paused", index: 0, timeout: 5) != nil, "Pause did not pause")
            #expect(try playerctl(["status"]).stdout == "Paused\n")
            try playerctl(["play"])
            #expect(waitUntil { Events.names((try? Events.read(s.log)) ?? [], index: 0).filter { $0 == "played" }.count == 2 },
                    "Play did not resume")

            try playerctl(["position", "12"])
            #expect(try waitUntil { (Double(try playerctl(["position"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 12 },
                    "SetPosition did not move to 12 s")
            try playerctl(["volume", "0.25"])
            #expect(try playerctl(["volume"]).stdout.hasPrefix("0.25"))

            try playerctl(["next"])
            #expect(Events.waitFor(s.log, "presented", index: 1) != nil, "Next did not present item 1")
            #expect(s.shows(RGB.blue), "the window does not show the second item")
            #expect(try waitUntil { try playerctl(["metadata", "xesam:url"]).stdout == "file://\(blue)\n" })
            try playerctl(["previous"])
            #expect(s.shows(RGB.red), "Previous did not bring the first item back")

            try playerctl(["stop"])
            #expect(try waitUntil { try playerctl(["status"]).stdout == "Stopped\n" })
            _ = try call("org.mpris.MediaPlayer2.Quit", [])
            let end = try #require(s.run.finish(timeout: 10), "Quit did not end the program")
            #expect(end.status == 0, "stderr: \(end.stderr)")
        }

        /// A pause from the keyboard reaches a widget that follows the player: the change is
        /// signalled with PropertiesChanged, not only there when asked.
        @Test func changesAreSignalled() throws {
            let s = try start([try Fixtures.solidVideo("red", seconds: 20)])
            let out = try Scratch.directory("follow") + "/status"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            // Line-buffered: playerctl's stdio would hold the lines back when writing to a file.
            let follow = try Run.start("stdbuf", ["-oL", "playerctl", "--player=mediaview", "--follow", "status"],
                                       stdout: FileHandle(forWritingAtPath: out))
            // SIGKILL: the test runner's threads block SIGTERM, and a spawned child inherits that.
            defer { kill(follow.processIdentifier, SIGKILL); follow.waitUntilExit() }
            func seen() -> [String] { lines((try? String(contentsOfFile: out, encoding: .utf8)) ?? "") }
            #expect(waitUntil { seen() == ["Playing"] }, "follow saw \(seen())")
            try s.key("space")
            #expect(waitUntil { seen() == ["Playing", "Paused"] }, "follow saw \(seen())")
            try s.key("space")
            #expect(waitUntil { seen() == ["Playing", "Paused", "Playing"] }, "follow saw \(seen())")
        }

        /// Calls with arguments of the wrong types get D-Bus errors, and the player goes on.
        @Test func wrongArgumentTypesGetErrors() throws {
            let s = try start([try Fixtures.solidVideo("red", seconds: 20)])
            let player = "org.mpris.MediaPlayer2.Player"
            let bad: [(String, [String], String)] = [
                ("\(player).Seek", ["string:soon"], "InvalidArgs"),
                ("\(player).SetPosition", ["int64:5"], "InvalidArgs"),
                ("\(player).Play", ["int32:1"], "InvalidArgs"),
                ("org.freedesktop.DBus.Properties.Set", ["string:\(player)", "string:Volume", "variant:string:loud"], "InvalidArgs"),
                ("org.freedesktop.DBus.Properties.Set", ["string:\(player)", "string:Volume", "variant:double:nan"], "InvalidArgs"),
                ("org.freedesktop.DBus.Properties.Set", ["string:\(player)", "string:PlaybackStatus", "variant:string:x"], "PropertyReadOnly"),
                ("org.freedesktop.DBus.Properties.Get", ["string:\(player)", "string:Colour"], "UnknownProperty"),
                ("org.freedesktop.DBus.Properties.Get", ["string:org.example.Nothing", "string:Volume"], "UnknownInterface"),
                ("org.freedesktop.DBus.Properties.GetAll", ["int32:7"], "InvalidArgs"),
                ("\(player).Dance", [], "UnknownMethod"),
            ]
            for (member, args, error) in bad {
                let r = try call(member, args)
                #expect(r.status != 0 && r.stderr.contains("org.freedesktop.DBus.Error.\(error)"),
                        "\(member) \(args): \(r.stdout) \(r.stderr)")
            }
            #expect(s.run.process.isRunning)
            #expect(try playerctl(["status"]).stdout == "Playing\n")
            #expect(s.shows(RGB.red))
            let seek = try call("\(player).Seek", ["int64:3000000"])
            #expect(seek.status == 0, "a good Seek failed: \(seek.stderr)")
        }

        /// A second player on the same bus takes the name with `.instance<PID>`, as MPRIS asks,
        /// so both are seen.
        @Test func secondPlayerGetsAnInstanceName() throws {
            let s = try start([try Fixtures.solidVideo("red", seconds: 20)])
            let other = try Launched(["--windowed", "--geometry", "160x120+400+0", "--no-audio",
                                      try Fixtures.solidVideo("blue", seconds: 20)])
            let expected = "mediaview.instance\(other.pid)"
            #expect(try waitUntil { try Run.process("playerctl", ["--list-all"]).stdout.contains(expected) },
                    "playerctl -l did not list \(expected); stderr: \(other.stderr)")
            #expect(s.run.process.isRunning)
            kill(other.pid, SIGTERM)
            _ = other.finish(timeout: 10)
        }

        /// Without a session bus the program plays as always and says nothing (a bare X
        /// server or ssh is ordinary), unless asked with --verbose; a bus that is named but
        /// not there is a fault and gets one line.
        @Test func withoutASessionBusOneWarning() throws {
            let red = try Fixtures.solidImage("red")
            let runtime = try Scratch.directory("nobus")
            for (address, verbose) in [(nil, false), (nil, true), ("unix:path=\(runtime)/nothing-here", false)] {
                var args = ["-u", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR=\(runtime)"]
                if let address { args.append("DBUS_SESSION_BUS_ADDRESS=\(address)") }
                let flags = (verbose ? ["--verbose"] : []) + ["--autoexit", "--image-duration", "0.3", "--no-audio", red]
                let r = try Run.process("env", args + [Run.mediaview] + flags, timeout: 20, environment: Run.environment())
                #expect(r.status == 0, "stderr: \(r.stderr)")
                let warning = lines(r.stderr)
                if address == nil && !verbose {
                    #expect(warning.isEmpty, "no bus, not verbose: \(r.stderr)")
                    continue
                }
                #expect(warning.count == 1 && warning[0].hasPrefix("mediaview: ")
                        && warning[0].contains("media keys and desktop media widgets will not see this player"),
                        "\(address ?? "no address"): \(r.stderr)")
            }
        }

        /// The session bus going away (its daemon killed) leaves the player playing and
        /// answering keys, with nothing printed.
        @Test func busGoingAwayLeavesThePlayerWorking() throws {
            let socket = try Scratch.directory("bus") + "/bus"
            let daemon = try Run.start("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(socket)"])
            defer { kill(daemon.processIdentifier, SIGKILL); daemon.waitUntilExit() }
            let address = "unix:path=\(socket)"
            #expect(try waitUntil {
                try Run.process("dbus-send", ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
                                              "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"], timeout: 5).status == 0
            }, "the private bus did not start")
            let log = try Scratch.directory("busgone") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log,
                                    try Fixtures.solidVideo("red", seconds: 20)], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
            let probe = try ScreenProbe()
            let window = try #require(ProgramWindow.wait(probe))
            try #require(Events.waitFor(log, "played", index: 0) != nil, "stderr: \(run.stderr)")
            #expect(try waitUntil {
                try Run.process("dbus-send", ["--bus=\(address)", "--print-reply", "--dest=org.mpris.MediaPlayer2.mediaview",
                                              "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Peer.Ping"], timeout: 5).status == 0
            }, "the player is not on the private bus")
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
            try xdotool(["key", "--window", String(window.id), "space"])
            #expect(Events.waitFor(log, "paused", index: 0) != nil, "the player stopped answering keys after the bus went away")
            #expect(run.process.isRunning && run.stderr.isEmpty, "\(run.stderr)")
        }
    }
}
