import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// mpv's IPC driven by clients nobody here wrote: python-mpv-jsonipc from PyPI (in the
    /// virtual environment `make test` makes), umpv's protocol, and socat's raw lines. Each
    /// is used as its own documentation says; what they do is checked on screen.
    @Suite struct IPCClients {
        static let python = Run.repositoryRoot + "/.build/venv/bin/python"
        static let clients = Run.repositoryRoot + "/Tests/IPCClients"

        /// The lines a client printed so far, each a JSON object.
        static func printed(_ path: String) -> [[String: Any]] {
            let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// Waits until a client printed `key`; its value.
        static func waitPrinted(_ path: String, _ key: String, timeout: Double = 20) -> Any? {
            let start = Date()
            repeat {
                if let line = printed(path).first(where: { $0[key] != nil }) { return line[key] }
                usleep(50_000)
            } while Date().timeIntervalSince(start) < timeout
            return nil
        }

        @Test func pythonMpvJsonipcDrivesThePlayerUnpatched() throws {
            #expect(access(Self.python, X_OK) == 0, "no virtual environment: run make venv (make test does)")
            let red = try Fixtures.solidImage("red"), blue = try Fixtures.solidImage("blue")
            let dir = try Scratch.directory("jsonipc")
            let socket = dir + "/socket"
            let probe = try ScreenProbe()
            // Idle: the window is up with nothing loaded, for the library to fill.
            let run = try Launched(["--idle", "--windowed", "--geometry", "320x240+0+0", "--no-audio",
                                    "--input-ipc-server", socket])
            let window = try #require(ProgramWindow.wait(probe, of: run), "no idle window; stderr: \(run.stderr)")
            _ = try SocketClient(path: socket)
            let out = dir + "/out"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            let client = try Run.start(Self.python, [Self.clients + "/jsonipc_session.py", socket, red, blue],
                                       stdout: FileHandle(forWritingAtPath: out), stderr: FileHandle(forWritingAtPath: dir + "/err"))
            defer { if client.isRunning { client.terminate() } }
            let err = { String(decoding: FileManager.default.contents(atPath: dir + "/err") ?? Data(), as: UTF8.self) }
            #expect(Self.waitPrinted(out, "connected") as? Bool == true, "MPV(start_mpv=False) did not connect: \(err())")
            #expect(Self.waitPrinted(out, "idle_active") as? Bool == true)
            #expect(Self.waitPrinted(out, "first_loaded") as? Bool == true, "loadfile() never brought file-loaded")
            #expect(Self.waitPrinted(out, "filename") as? String == "solid-red-320x240.png")
            #expect(Self.waitPrinted(out, "no_ext") as? String == "solid-red-320x240")
            #expect(Self.waitPrinted(out, "count") as? Int == 1)
            #expect(Self.waitPrinted(out, "size") as? [Int] == [320, 240])
            #expect(Self.waitPrinted(out, "video_tracks") as? [String] == ["video"])
            #expect(Self.waitPrinted(out, "volume") as? Double == 50.5, "the volume is kept as set")
            #expect(Self.waitPrinted(out, "volume_string") as? String == "50.500000")
            #expect(Self.waitPrinted(out, "second_loaded") as? Bool == true)
            #expect(window.waitFor(probe, timeout: 5) { $0.matches($0.width / 2, $0.height / 2, RGB.blue) } != nil,
                    "playlist_next() did not show the second picture")
            #expect(Self.waitPrinted(out, "observed_filename") as? Bool == true, "the filename observer never fired")
            #expect(Self.waitPrinted(out, "playlist_pos") as? Int == 1)
            // Each item: start-file then file-loaded, once, with its own entry id.
            let events = Self.waitPrinted(out, "events") as? [[Any]] ?? []
            #expect(events.map { "\($0[0]) \($0[1])" } == ["start-file 1", "file-loaded 1", "start-file 2", "file-loaded 2"])
            #expect(Self.waitPrinted(out, "next_at_end") as? String == "error running command")
            #expect(Self.waitPrinted(out, "unknown_property") as? String == "property not found")
            #expect(Self.waitPrinted(out, "duration_of_still") is NSNull, "a still that stays has no duration")
            #expect(Self.waitPrinted(out, "drops_of_still") as? [Int] == [0, 0], "a still drops nothing, as mpv says")
            // A key pressed in the window reaches the library's on_key_press.
            #expect(Self.waitPrinted(out, "press") as? String == "x")
            try xdotool(["key", "--window", String(window.id), "x"])
            #expect(Self.waitPrinted(out, "key_x") as? Bool == true, "on_key_press never heard the key")
            #expect(Self.waitPrinted(out, "key_y") as? Bool == true, "bind_key_press + keypress never called back")
            // A binding written as mpv users write it (ctrl+x) hears Ctrl+x pressed for real.
            #expect(Self.waitPrinted(out, "press_ctrl") as? String == "ctrl+x")
            try xdotool(["key", "--window", String(window.id), "ctrl+x"])
            #expect(Self.waitPrinted(out, "key_ctrl_x") as? Bool == true, "on_key_press(\"ctrl+x\") never heard Ctrl+x")
            #expect(Self.waitPrinted(out, "keypress_no_key") as? String == "error running command",
                    "a keypress of a name that is no key did not fail as in mpv")
            #expect(Self.waitPrinted(out, "client_name") as? String != nil)
            #expect(Self.waitPrinted(out, "done") as? Bool == true)
            #expect(Run.wait(client, timeout: 10) && client.terminationStatus == 0)
            // The player outlives its client.
            let after = try SocketClient(path: socket)
            #expect(try after.request(["get_property", "playlist-count"], id: 1)["data"] as? Int == 2)
            _ = try after.request(["quit"], id: 2)
            #expect(run.finish(timeout: 10)?.status == 0)
        }

        @Test func umpvStartsThePlayerAndHandsItFilesWithQuotesInTheirNames() throws {
            let red = try Fixtures.solidImage("red")
            let dir = try Scratch.directory("umpv")
            // A name with spaces and quotes, as umpv escapes them.
            let quoted = dir + "/a \"quoted\" blue.png"
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("blue"), toPath: quoted)
            let socket = dir + "/socket"
            let probe = try ScreenProbe()
            let env = Run.environment(["UMPV_SOCKET": socket,
                                       "MPV": "\(Run.mediaview) --windowed --geometry 320x240+0+0 --no-audio"])
            let first = try Run.start("python3", [Self.clients + "/umpv.py", red], environment: env,
                                      stderr: FileHandle(forWritingAtPath: "/dev/null"))
            defer { if first.isRunning { first.terminate() } }
            let window = try #require(ProgramWindow.wait(probe), "umpv's command line did not start the player")
            #expect(window.waitFor(probe, timeout: 5) { $0.matches($0.width / 2, $0.height / 2, RGB.red) } != nil)
            let client = try SocketClient(path: socket)
            let second = try Run.process("python3", [Self.clients + "/umpv.py", quoted], timeout: 10, environment: env)
            #expect(second.status == 0, "umpv's second call failed: \(second.stderr)")
            let path = dir + "/a \"quoted\" blue.png"
            var count = 0
            for _ in 0..<100 where count < 2 {
                count = try client.request(["get_property", "playlist-count"], id: 1)["data"] as? Int ?? 0
                usleep(50_000)
            }
            #expect(count == 2, "umpv's raw loadfile line was not queued")
            #expect(try client.request(["get_property", "playlist/1/filename"], id: 2)["data"] as? String == path)
            _ = try client.request(["playlist-next"], id: 3)
            #expect(window.waitFor(probe, timeout: 5) { $0.matches($0.width / 2, $0.height / 2, RGB.blue) } != nil,
                    "the file umpv handed over did not show")
            _ = try client.request(["quit"], id: 4)
            #expect(Run.wait(first, timeout: 10) && first.terminationStatus == 0, "umpv's first call ends with the player")
        }
    }
}
