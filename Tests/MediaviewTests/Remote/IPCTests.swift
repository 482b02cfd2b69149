import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The mpv-style JSON IPC socket, driven by a real Unix-socket client as a script drives
    /// mpv: what the commands do is checked on screen, and bad lines get mpv's errors.
    @Suite struct IPC {
        /// A running program, windowed at 320x240+0+0, with a client on its socket.
        struct Session {
            let run: Launched
            let client: SocketClient
            let socket: String
            let window: ProgramWindow
            let probe: ScreenProbe
        }

        static func start(_ media: [String], extra: [String] = []) throws -> Session {
            let socket = try Scratch.directory("ipc") + "/socket"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio",
                                    "--input-ipc-server", socket] + extra + media)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let client = try SocketClient(path: socket)
            return Session(run: run, client: client, socket: socket, window: window, probe: probe)
        }

        /// Waits until the centre of the window shows `rgb`.
        static func shows(_ s: Session, _ rgb: UInt32) -> Bool {
            s.window.waitFor(s.probe, timeout: 5) { $0.matches($0.width / 2, $0.height / 2, rgb) } != nil
        }

        static func quit(_ s: Session) throws {
            let reply = try s.client.request(["quit"], id: 999)
            #expect(reply["error"] as? String == "success")
            #expect(s.run.finish(timeout: 5)?.status == 0, "quit over the socket should end the program cleanly")
        }

        @Test func aScriptDrivesThePlayerAsItDrivesMpv() throws {
            let red = try Fixtures.solidVideo("red", seconds: 10)
            let blue = try Fixtures.solidImage("blue")
            let s = try Self.start([red, blue])
            // Only its user may drive the player.
            let mode = try FileManager.default.attributesOfItem(atPath: s.socket)[.posixPermissions] as? Int
            #expect(mode == 0o600, "socket mode \(String(mode ?? 0, radix: 8))")
            #expect(Self.shows(s, RGB.red), "the video never showed")

            #expect(try s.client.request(["get_property", "path"], id: 1)["data"] as? String == red)
            #expect(try s.client.request(["get_property", "media-title"], id: 2)["data"] as? String
                == URL(fileURLWithPath: red).lastPathComponent)
            let duration = try s.client.request(["get_property", "duration"], id: 3)["data"] as? Double ?? 0
            #expect(abs(duration - 10) < 0.2, "duration \(duration)")
            #expect(try s.client.request(["get_property", "playlist-count"], id: 4)["data"] as? Int == 2)
            #expect(try s.client.request(["get_property", "playlist-pos"], id: 5)["data"] as? Int == 0)

            // Pausing is seen as an event, as an observed property, and as a still position.
            #expect(try s.client.request(["observe_property", 7, "pause"], id: 6)["error"] as? String == "success")
            #expect(try s.client.request(["set_property", "pause", true], id: 8)["error"] as? String == "success")
            #expect(s.client.wait { $0["event"] as? String == "pause" } != nil, "no pause event")
            #expect(s.client.wait {
                $0["event"] as? String == "property-change" && $0["id"] as? Int == 7 && $0["data"] as? Bool == true
            } != nil, "no property-change for pause")
            #expect(try s.client.request(["seek", 6, "absolute"], id: 9)["error"] as? String == "success")
            #expect(s.client.wait { $0["event"] as? String == "seek" } != nil, "no seek event")
            // The picture at the target comes a moment later; the observed position says when.
            _ = try s.client.request(["observe_property", 8, "time-pos"], id: 10)
            let arrived = s.client.wait {
                $0["event"] as? String == "property-change" && $0["id"] as? Int == 8 && abs(($0["data"] as? Double ?? -1) - 6) < 0.1
            }
            #expect(arrived != nil, "time-pos never reached the seek target")
            let at = try s.client.request(["get_property", "time-pos"], id: 20)["data"] as? Double ?? -1
            usleep(300_000)
            let later = try s.client.request(["get_property", "time-pos"], id: 11)["data"] as? Double ?? -1
            #expect(later == at, "paused, the position must stand still: \(at) then \(later)")

            // The queue: next shows the picture, loadfile replace shows only the new one.
            #expect(try s.client.request(["playlist-next"], id: 12)["error"] as? String == "success")
            #expect(s.client.wait { $0["event"] as? String == "end-file" && $0["reason"] as? String == "stop" } != nil)
            #expect(s.client.wait { $0["event"] as? String == "start-file" && $0["playlist_entry_id"] as? Int == 2 } != nil)
            #expect(Self.shows(s, RGB.blue), "playlist-next did not show the picture")
            let green = try Fixtures.solidImage("lime")
            #expect(try s.client.request(["loadfile", green, "replace"], id: 13)["error"] as? String == "success")
            #expect(Self.shows(s, 0x00FF00), "loadfile replace did not show the new picture")
            #expect(try s.client.request(["get_property", "playlist-count"], id: 14)["data"] as? Int == 1)
            #expect(try s.client.request(["set_property", "minimized", true], id: 15)["error"] as? String == "success")
            _ = try s.client.request(["observe_property", 9, "minimized"], id: 16)
            #expect(s.client.wait {
                $0["event"] as? String == "property-change" && $0["id"] as? Int == 9 && $0["data"] as? Bool == true
            } != nil, "never minimized")
            try Self.quit(s)
            #expect(!FileManager.default.fileExists(atPath: s.socket), "the socket should go with the program")
        }

        /// A player stalled for a moment (a machine too busy, a process suspended) skips the
        /// frames that came due meanwhile and counts them where mpv's statistics read them:
        /// `frame-drop-count` rises, the decoder's own count stays 0 (every frame is decoded),
        /// and sound alone has no count, as in mpv.
        @Test func framesSkippedAfterAStallAreCountedWhereMpvCountsThem() throws {
            let red = try Fixtures.solidVideo("red", seconds: 10)
            let s = try Self.start([red])
            #expect(Self.shows(s, RGB.red), "the video never showed")
            let count = { (id: Int) throws -> Int? in
                try s.client.request(["get_property", "frame-drop-count"], id: id)["data"] as? Int
            }
            let before = try #require(try count(1), "frame-drop-count did not read as a number")
            #expect(try s.client.request(["get_property", "decoder-frame-drop-count"], id: 2)["data"] as? Int == 0)
            // The stall itself: the process stopped while its clock runs on.
            let pid = s.run.process.processIdentifier
            kill(pid, SIGSTOP)
            usleep(800_000)
            kill(pid, SIGCONT)
            var after = before
            for id in 3..<103 where after <= before {
                after = try count(id) ?? before
                if after <= before { usleep(50_000) }
            }
            #expect(after > before, "no frame counted as dropped after a stall of 0.8 s: \(before) then \(after)")
            let tone = try Fixtures.tone(440)
            #expect(try s.client.request(["loadfile", tone, "replace"], id: 200)["error"] as? String == "success")
            #expect(s.client.wait { $0["event"] as? String == "file-loaded" } != nil, "the sound never loaded")
            let reply = try s.client.request(["get_property", "frame-drop-count"], id: 201)
            #expect(reply["error"] as? String == "property unavailable", "sound alone: \(reply)")
            try Self.quit(s)
        }

        @Test func badLinesGetMpvsErrorsAndTheConnectionStays() throws {
            let s = try Self.start([try Fixtures.solidImage("blue")])
            s.client.send("{\"command\": [\"get_property\", ")
            let malformed = try #require(s.client.wait { $0["error"] != nil }, "no reply to malformed JSON")
            #expect(malformed["error"] as? String == "invalid parameter")
            #expect(try s.client.request(["frobnicate", 1], id: 2)["error"] as? String == "invalid parameter")
            #expect(try s.client.request(["get_property", "no-such-property"], id: 3)["error"] as? String == "property not found")
            // mpv's, with nothing to match here: there, without a value.
            #expect(try s.client.request(["get_property", "sub-delay"], id: 23)["error"] as? String == "property unavailable")
            #expect(try s.client.request(["set_property", "duration", 3], id: 4)["error"] as? String == "error accessing property")
            #expect(try s.client.request(["set_property", "volume", "loud"], id: 5)["error"] as? String
                == "unsupported format for accessing property")
            #expect(try s.client.request(["get_property", "duration"], id: 6)["error"] as? String == "property unavailable")
            #expect(try s.client.request(["seek", "soon"], id: 7)["error"] as? String == "invalid parameter")
            // A line longer than the server holds is refused; the next line is read as usual.
            s.client.send("{\"command\":[\"loadfile\",\"" + String(repeating: "x", count: 2 << 20) + "\"],\"request_id\":8}")
            #expect(s.client.wait(timeout: 10) { $0["request_id"] as? Int == 0 && $0["error"] as? String == "invalid parameter" } != nil)
            let volume = try s.client.request(["get_property", "volume"], id: 9)
            #expect(volume["error"] as? String == "success" && volume["data"] as? Double == 100)
            #expect(!s.client.isClosed)
            #expect(Self.shows(s, RGB.blue), "the picture should still be up")
            try Self.quit(s)
        }

        @Test func aLiveSocketIsRefusedAndAStaleOneReplaced() throws {
            let s = try Self.start([try Fixtures.solidImage("blue")])
            let second = try mediaview(["--input-ipc-server", s.socket, "--autoexit", "--image-duration", "0.2",
                                        try Fixtures.solidImage("red")])
            #expect(second.status == 2)
            #expect(lines(second.stderr) == ["mediaview: --input-ipc-server \(s.socket): another mediaview is listening there (--enqueue adds files to it)"])
            #expect(try s.client.request(["get_property", "playlist-count"], id: 1)["data"] as? Int == 1,
                    "the running one must keep its socket")
            // Killed, it leaves its socket file behind; the next start replaces it.
            kill(s.run.pid, SIGKILL)
            _ = s.run.finish(timeout: 5)
            #expect(FileManager.default.fileExists(atPath: s.socket))
            let again = try Launched(["--windowed", "--geometry", "320x240+0+0", "--input-ipc-server", s.socket,
                                      try Fixtures.solidImage("red")])
            let client = try SocketClient(path: s.socket)
            #expect(try client.request(["get_property", "path"], id: 2)["data"] as? String == (try Fixtures.solidImage("red")))
            _ = try client.request(["quit"], id: 3)
            #expect(again.finish(timeout: 5)?.status == 0)
        }

        @Test func aClientThatReadsLateGetsEveryReply() throws {
            let s = try Self.start([try Fixtures.solidImage("blue")])
            // Far more replies than a socket buffer holds, asked for before reading any.
            let count = 20_000
            let batch = (1...count).map { "{\"command\":[\"get_property\",\"playlist-count\"],\"request_id\":\($0)}" }
            s.client.send(batch.joined(separator: "\n"))
            usleep(500_000)
            // Meanwhile the player answers others at once.
            let other = try SocketClient(path: s.socket)
            #expect(try other.request(["get_property", "pause"], id: 1)["error"] as? String == "success")
            #expect(s.client.wait(timeout: 20) { $0["request_id"] as? Int == count } != nil, "the last reply never came")
            // Events (file-loaded, playback-restart) may come in between; the replies are counted.
            let replies = s.client.received.filter { $0["event"] == nil }.count
            #expect(replies == count, "\(replies) replies")
            try Self.quit(s)
        }

        @Test func aPathTooLongForASocketIsSaidSo() throws {
            let path = "/tmp/" + String(repeating: "d", count: 120)
            let r = try mediaview(["--input-ipc-server", path, "--autoexit", try Fixtures.solidImage("red")])
            #expect(r.status == 2)
            #expect(lines(r.stderr) == ["mediaview: --input-ipc-server: \(path): the path is too long for a socket"])
        }

        @Test func aFileThatIsNotASocketIsLeftAlone() throws {
            let path = try Scratch.directory("ipc-file") + "/notes.txt"
            try "mine".write(toFile: path, atomically: true, encoding: .utf8)
            let r = try mediaview(["--input-ipc-server", path, "--autoexit", try Fixtures.solidImage("red")])
            #expect(r.status == 2)
            #expect(lines(r.stderr) == ["mediaview: --input-ipc-server: \(path) exists and is not a socket; not replacing it"])
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
        }
    }
}
