import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Raw lines on the socket, as `socat` sends them from a shell, and the events mpv's
    /// clients count on: once each, in mpv's order, with the right entry ids.
    @Suite struct IPCLines {
        /// Sends `lines` through socat in one connection; the replies it printed, in order.
        static func socat(_ socket: String, _ lines: [String]) throws -> [[String: Any]] {
            let r = try Run.process("socat", ["-t", "1", "-", "UNIX-CONNECT:" + socket], timeout: 10,
                                    stdin: lines.joined(separator: "\n") + "\n")
            #expect(r.status == 0, "socat: \(r.stderr)")
            return r.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["event"] == nil }
        }

        static func error(_ replies: [[String: Any]], _ id: Int) -> String? {
            replies.first { $0["request_id"] as? Int == id }?["error"] as? String
        }

        @Test func textCommandsAndBadInputsFromAShell() throws {
            let red = try Fixtures.solidVideo("red", seconds: 10)
            let s = try IPC.start([red, try Fixtures.solidImage("blue")])
            #expect(IPC.shows(s, RGB.red))
            // Text lines get no reply; their effect is read back.
            _ = try Self.socat(s.socket, ["set volume 30", "set pause yes", "cycle-values loop-file inf no",
                                          "no-osd set speed 1.5", #"show-text "${filename} \"here\"" 500"#])
            let read = try Self.socat(s.socket, [
                #"{"command":["get_property","volume"],"request_id":1}"#,
                #"{"command":["get_property","pause"],"request_id":2}"#,
                #"{"command":["get_property","loop-file"],"request_id":3}"#,
                #"{"command":["get_property","speed"],"request_id":4}"#,
                #"{"command":["expand-text","${filename/no-ext} ${playlist/count}"],"request_id":5}"#,
            ])
            func data(_ id: Int) -> Any? { read.first { $0["request_id"] as? Int == id }?["data"] }
            #expect(data(1) as? Double == 30, "set volume 30 was ignored")
            #expect(data(2) as? Bool == true, "set pause yes was ignored")
            #expect(data(3) as? String == "inf", "cycle-values did not move loop-file on")
            #expect(data(4) as? Double == 1.5)
            #expect(data(5) as? String == URL(fileURLWithPath: red).deletingPathExtension().lastPathComponent + " 2")
            // Bad inputs: mpv's error strings, and the connection and the player go on.
            let bad = try Self.socat(s.socket, [
                #"{"command":["get_property","#,
                #"{"command":["frobnicate"],"request_id":11}"#,
                #"{"command":["get_property","no-such-property"],"request_id":12}"#,
                #"{"command":["set_property","volume","loud"],"request_id":13}"#,
                #"{"command":["set_property","pause",[1]],"request_id":14}"#,
                #"{"command":["seek","soon"],"request_id":15}"#,
                #"{"command":{"name":"loadfile","when":"now"},"request_id":16}"#,
                #"{"command":["observe_property",1,"no-such-property"],"request_id":17}"#,
                #"{"command":["set_property","duration",3],"request_id":18}"#,
                #"{"command":["get_property","playlist/9/filename"],"request_id":19}"#,
                #"{"command":["sub-add","/x.srt"],"request_id":20}"#,
                #"{"command":["script-message","nobody","listens"],"request_id":21}"#,
                #"{"command":["get_property","volume"],"request_id":22}"#,
            ])
            #expect(bad.first?["error"] as? String == "invalid parameter", "malformed JSON")
            #expect(Self.error(bad, 11) == "invalid parameter")
            #expect(Self.error(bad, 12) == "property not found")
            #expect(Self.error(bad, 13) == "unsupported format for accessing property")
            #expect(Self.error(bad, 14) == "unsupported format for accessing property")
            #expect(Self.error(bad, 15) == "invalid parameter")
            #expect(Self.error(bad, 16) == "invalid parameter")
            #expect(Self.error(bad, 17) == "success", "mpv accepts observing any name")
            #expect(Self.error(bad, 18) == "error accessing property")
            #expect(Self.error(bad, 19) == "property unavailable")
            #expect(Self.error(bad, 20) == "error running command")
            #expect(Self.error(bad, 21) == "success")
            #expect(Self.error(bad, 22) == "success")
            // Paused, the play indicator covers the centre and the controls' shades the top
            // and bottom; the left edge at mid-height shows the video.
            #expect(s.window.waitFor(s.probe, timeout: 5) { $0.matches(30, $0.height / 2, RGB.red) } != nil,
                    "the video should still be up")
            try IPC.quit(s)
        }

        @Test func eventsComeOnceInOrderWithTheirEntryIDs() throws {
            let red = try Fixtures.solidVideo("red", seconds: 10)
            let s = try IPC.start([red, try Fixtures.solidImage("blue"), try Fixtures.solidImage("lime")], extra: ["--idle"])
            #expect(IPC.shows(s, RGB.red))
            let c = s.client
            func events(_ name: String) -> [[String: Any]] { c.received.filter { $0["event"] as? String == name } }
            // A seek: the observed position goes from where it was to the target, never to 0.
            _ = try c.request(["observe_property", 1, "time-pos"], id: 1)
            _ = try c.request(["seek", 6, "absolute"], id: 2)
            #expect(c.wait { $0["event"] as? String == "playback-restart" } != nil, "no playback-restart after the seek")
            let positions = c.received.filter { $0["event"] as? String == "property-change" && $0["id"] as? Int == 1 }
                .compactMap { $0["data"] as? Double }
            #expect(!positions.dropFirst().contains { $0 < 0.5 }, "time-pos fell to 0 during the seek: \(positions)")
            // Straight from the third item to the first: the second is not opened on the way.
            _ = try c.request(["set_property", "playlist-pos", 2], id: 3)
            #expect(c.wait { $0["event"] as? String == "file-loaded" && $0["playlist_entry_id"] as? Int == 3 } != nil)
            _ = try c.request(["set_property", "playlist-pos", 0], id: 4)
            #expect(c.wait { $0["event"] as? String == "file-loaded" && $0["playlist_entry_id"] as? Int == 1 } != nil)
            let started = events("start-file").compactMap { $0["playlist_entry_id"] as? Int }
            #expect(started.suffix(2) == [3, 1] && !started.contains(2), "start-file ids \(started)")
            // loadfile replace: one start-file, one file-loaded, for the new entry.
            let lime = try Fixtures.solidImage("lime")
            let reply = try c.request(["loadfile", lime, "replace"], id: 5)
            let id = (reply["data"] as? [String: Any])?["playlist_entry_id"] as? Int
            #expect(c.wait { $0["event"] as? String == "file-loaded" && $0["playlist_entry_id"] as? Int == id } != nil)
            #expect(IPC.shows(s, 0x00FF00))
            // Anything sent twice would be here by now: the picture is up.
            #expect(events("start-file").filter { $0["playlist_entry_id"] as? Int == id }.count == 1)
            #expect(events("file-loaded").filter { $0["playlist_entry_id"] as? Int == id }.count == 1)
            // At the end, next does nothing (mpv's default); stop leaves the idle window.
            #expect(try c.request(["playlist-next"], id: 6)["error"] as? String == "error running command")
            #expect(IPC.shows(s, 0x00FF00), "playlist-next on the last entry must leave it on screen")
            _ = try c.request(["stop"], id: 7)
            #expect(c.wait { $0["event"] as? String == "idle" } != nil, "no idle event after stop")
            #expect(try c.request(["get_property", "idle-active"], id: 8)["data"] as? Bool == true)
            _ = try c.request(["loadfile", red, "append-play"], id: 9)
            #expect(IPC.shows(s, RGB.red), "loadfile did not fill the idle window")
            _ = try c.request(["quit", 3], id: 10)
            #expect(c.wait { $0["event"] as? String == "shutdown" } != nil, "no shutdown event")
            #expect(s.run.finish(timeout: 5)?.status == 3, "quit 3 ends with status 3, as in mpv")
        }
    }
}
