import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The pointer says what the user can do where it rests, as in the players and viewers
    /// people come from: it hides over a playing video with the controls (mpv, Firefox),
    /// and over a fullscreen picture left alone (eog); over a picture zoomed past the window
    /// it is an open hand, and a closed one while the picture is dragged (Loupe, eog).
    @Suite struct Pointer {
        private func start(_ args: [String]) throws -> (Launched, ProgramWindow, ScreenProbe, String) {
            let log = try Scratch.directory("pointer") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--no-audio", "--events", log] + args)
            let window = try #require(ProgramWindow.wait(probe, of: run), "no window; stderr: \(run.stderr)")
            try #require(Events.waitFor(log, "first_frame", index: 0, timeout: 20) != nil, "no first frame; stderr: \(run.stderr)")
            return (run, window, probe, log)
        }

        @Test func thePointerHidesOverAPlayingVideoAndComesBackWithAMoveOrAPause() throws {
            let clip = try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 20)
            let (run, w, probe, _) = try start(["--windowed", "--geometry", "640x360+0+0", clip])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            _ = try xdotool(["mousemove", "300", "200"])
            #expect(probe.waitForPointer(timeout: 3) { $0.visible }.ok, "the pointer is not shown after it moved")
            let hidden = probe.waitForPointer(timeout: 8) { !$0.visible && $0.name == "none" }
            #expect(hidden.ok, "the pointer stayed over the playing video: \(String(describing: hidden.last))")
            _ = try xdotool(["mousemove", "320", "210"])
            let back = probe.waitForPointer(timeout: 3) { $0.visible }
            #expect(back.ok, "a move did not bring the pointer back: \(String(describing: back.last))")
            #expect(probe.waitForPointer(timeout: 8) { !$0.visible }.ok, "the pointer did not hide again")
            _ = try xdotool(["key", "--window", String(w.id), "space"])
            let paused = probe.waitForPointer(timeout: 3) { $0.visible }
            #expect(paused.ok, "pausing did not bring the pointer back with the controls: \(String(describing: paused.last))")
            #expect(!probe.waitForPointer(timeout: 3.5) { !$0.visible }.ok, "the pointer hid over a paused video")
        }

        /// mpv's `--cursor-autohide`: `no` leaves the pointer over a playing video, `always`
        /// hides it even just after a move.
        @Test(arguments: [("no", false), ("always", true)])
        func cursorAutohideChoosesWhenThePointerHides(value: String, hides: Bool) throws {
            let clip = try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 20)
            let (run, _, probe, _) = try start(["--windowed", "--geometry", "640x360+0+0", "--cursor-autohide=" + value, clip])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            _ = try xdotool(["mousemove", "300", "200"])
            _ = try xdotool(["mousemove", "310", "205"])
            if hides {
                // Sooner than the controls' 2.5 s.
                let hidden = probe.waitForPointer(timeout: 1.5) { !$0.visible && $0.name == "none" }
                #expect(hidden.ok, "--cursor-autohide=always left the pointer: \(String(describing: hidden.last))")
            } else {
                #expect(probe.waitForPointer(timeout: 3) { $0.visible }.ok, "the pointer is not shown after a move")
                #expect(!probe.waitForPointer(timeout: 4) { !$0.visible }.ok, "--cursor-autohide=no hid the pointer")
            }
        }

        /// A script changes it while the video plays through mpv's `cursor-autohide` property:
        /// the pointer follows at once, the value reads back in mpv's words or milliseconds,
        /// and a value mpv would refuse is refused and changes nothing.
        @Test func aScriptSetsCursorAutohideWhileAVideoPlays() throws {
            let clip = try Fixtures.solidVideo("blue", width: 320, height: 240, seconds: 30)
            let socket = try Scratch.directory("pointer-ipc") + "/mpv.sock"
            let (run, _, probe, _) = try start(["--windowed", "--geometry", "640x360+0+0", "--input-ipc-server=" + socket, clip])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            func ask(_ lines: [String]) throws -> [[String: Any]] { try MediaviewProgram.IPCLines.socat(socket, lines) }
            func value(_ replies: [[String: Any]], _ id: Int) -> Any? { replies.first { $0["request_id"] as? Int == id }?["data"] }
            let first = try ask([#"{"command":["get_property","cursor-autohide"],"request_id":1}"#])
            #expect(value(first, 1) as? String == "with-controls", "\(first)")

            _ = try ask([#"{"command":["set_property","cursor-autohide","always"],"request_id":2}"#])
            _ = try xdotool(["mousemove", "300", "200", "mousemove", "310", "205"])
            // Sooner than the controls' 2.5 s.
            let hidden = probe.waitForPointer(timeout: 1.5) { !$0.visible && $0.name == "none" }
            #expect(hidden.ok, "cursor-autohide=always left the pointer: \(String(describing: hidden.last))")

            let bad = try ask([#"{"command":["set_property","cursor-autohide",1000],"request_id":3}"#,
                               #"{"command":["set_property","cursor-autohide","maybe"],"request_id":4}"#,
                               #"{"command":["set_property","cursor-autohide",-5],"request_id":5}"#,
                               #"{"command":["set_property","cursor-autohide",true],"request_id":6}"#,
                               #"{"command":["set_property","cursor-autohide",1.5],"request_id":7}"#,
                               #"{"command":["get_property","cursor-autohide"],"request_id":8}"#])
            // mpv's own answers to the same requests.
            #expect(MediaviewProgram.IPCLines.error(bad, 3) == "success", "\(bad)")
            for id in 4...6 {
                #expect(MediaviewProgram.IPCLines.error(bad, id) == "unsupported format for accessing property", "\(id): \(bad)")
            }
            #expect(MediaviewProgram.IPCLines.error(bad, 7) == "error accessing property", "\(bad)")
            #expect(value(bad, 8) as? Int == 1000, "a refused value changed it: \(bad)")

            // false is mpv's `no`, and `no` reads back as false.
            let off = try ask([#"{"command":["set_property","cursor-autohide",false],"request_id":9}"#,
                               #"{"command":["get_property","cursor-autohide"],"request_id":10}"#])
            #expect(value(off, 10) as? Bool == false, "\(off)")
            _ = try xdotool(["mousemove", "320", "210"])
            #expect(probe.waitForPointer(timeout: 3) { $0.visible }.ok, "the pointer is not shown after a move")
            #expect(!probe.waitForPointer(timeout: 4) { !$0.visible }.ok, "cursor-autohide=no hid the pointer")
        }

        @Test func aZoomedPictureShowsAHandThatClosesWhileDragging() throws {
            let big = try Fixtures.solidImage("blue", width: 1600, height: 1200)
            let (run, w, probe, log) = try start(["--windowed", "--geometry", "640x360+0+0", big])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            _ = try xdotool(["mousemove", "300", "200"])
            let fitted = probe.waitForPointer(timeout: 3) { $0.visible }
            #expect(fitted.ok && fitted.last?.name != "grab", "a fitted picture shows \(String(describing: fitted.last))")
            _ = try xdotool(["key", "--window", String(w.id), "ctrl+0"])
            let open = probe.waitForPointer(timeout: 5) { $0.name == "grab" && $0.visible }
            #expect(open.ok, "the zoomed picture does not show an open hand: \(String(describing: open.last))")
            _ = try xdotool(["mousedown", "1", "mousemove", "330", "220", "mousemove", "360", "240"])
            let closed = probe.waitForPointer(timeout: 5) { $0.name == "grabbing" }
            _ = try xdotool(["mouseup", "1"])
            #expect(closed.ok, "dragging does not show a closed hand: \(String(describing: closed.last))")
            #expect(Events.waitFor(log, "panned", timeout: 5) != nil, "the drag did not pan the picture")
            #expect(probe.waitForPointer(timeout: 5) { $0.name == "grab" }.ok, "the hand did not open after the drag")
            _ = try xdotool(["key", "--window", String(w.id), "ctrl+0"])
            let again = probe.waitForPointer(timeout: 5) { $0.name != "grab" && $0.visible }
            #expect(again.ok, "fitted again, the pointer is still \(String(describing: again.last))")
        }

        @Test func aFullscreenPictureLeftAloneHidesThePointer() throws {
            let (run, _, probe, _) = try start([try Fixtures.solidImage("red")])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            for x in [500, 520] {
                _ = try xdotool(["mousemove", String(x), "400"])
                #expect(probe.waitForPointer(timeout: 3) { $0.visible }.ok, "a move did not show the pointer")
                // Shown with the controls for a while after the move, then gone.
                #expect(!probe.waitForPointer(timeout: 1) { !$0.visible }.ok, "the pointer hid at once after a move")
                #expect(probe.waitForPointer(timeout: 8) { !$0.visible && $0.name == "none" }.ok,
                        "the pointer stayed over the fullscreen picture")
            }
        }
    }
}
