import Testing
@testable import ViewerProgram
import Viewer

/// The IPC protocol's own types, without a socket: what each line means and what goes back.
@Suite struct IPCProtocolTests {
    private func parse(_ line: String) throws -> IPCRequest? { try IPCRequest.parse(line) }

    private func failure(_ line: String) -> IPCRequest.Failure? {
        do { _ = try IPCRequest.parse(line); return nil } catch { return error }
    }

    @Test func mpvRequestsAreUnderstood() throws {
        #expect(try parse(#"{"command":["loadfile","/a b.mp4","append-play"],"request_id":7}"#)
            == IPCRequest(command: .loadfile("/a b.mp4", .appendPlay), requestID: 7, wantsReply: true))
        #expect(try parse(#"{"command":["loadfile","x.png"]}"#)?.command == .loadfile("x.png", .replace))
        #expect(try parse(#"{"command":["seek","-5"]}"#)?.command == .seek(-5, .relative))
        #expect(try parse(#"{"command":["seek",30,"absolute+exact"]}"#)?.command == .seek(30, .absolute))
        #expect(try parse(#"{"command":["seek",50,"absolute-percent"]}"#)?.command == .seek(50, .absolutePercent))
        #expect(try parse(#"{"command":["set_property","pause",true]}"#)?.command == .setProperty("pause", .bool(true)))
        #expect(try parse(#"{"command":["observe_property",1,"time-pos"]}"#)?.command == .observeProperty(id: 1, name: "time-pos"))
        #expect(try parse(#"{"command":["cycle","pause"]}"#)?.command == .binding(.togglePause))
        #expect(try parse(#"{"command":["add","volume",-2]}"#)?.command == .binding(.volume(delta: -2)))
        // A text line is an input.conf command, which mpv does not answer.
        #expect(try parse("playlist-next") == IPCRequest(command: .playlistNext, requestID: 0, wantsReply: false))
        #expect(try parse("   ") == nil)
    }

    @Test func badLinesGetMpvsErrorStrings() {
        #expect(failure("{not json") == IPCRequest.Failure(error: .invalidParameter, requestID: 0))
        #expect(failure(#"{"command":["frobnicate"],"request_id":4}"#) == IPCRequest.Failure(error: .invalidParameter, requestID: 4))
        #expect(failure(#"{"command":"quit","request_id":5}"#) == IPCRequest.Failure(error: .invalidParameter, requestID: 5))
        #expect(failure(#"{"command":["quit"],"request_id":"five"}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["loadfile","x","insert-at"]}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["seek","soon"]}"#)?.error == .invalidParameter)
        #expect(failure("frobnicate")?.wantsReply == false)
    }

    @Test func theSocketOptions() throws {
        #expect(try ProgramOptions.parse(["--input-ipc-server", "/run/s"]).desktop.ipcServerPath == "/run/s")
        // Empty turns the default socket off, as in mpv.
        #expect(try ProgramOptions.parse(["--input-ipc-server="]).desktop.ipcServerPath == "")
        let o = try ProgramOptions.parse(["--enqueue", "--no-resume", "a.mp4"])
        #expect(o.desktop.enqueue && !o.desktop.resume && o.inputs == ["a.mp4"])
        #expect(ViewerApp.defaultIPCPath(["XDG_RUNTIME_DIR": "/run/user/1000/"]) == "/run/user/1000/mediaview.socket")
        #expect(ViewerApp.defaultIPCPath(["XDG_RUNTIME_DIR": "relative"]) == nil)
        #expect(ViewerApp.defaultIPCPath([:]) == nil)
    }

    @Test func repliesAndEventsAreOneLineOfJSON() {
        #expect(IPCRequest.reply(requestID: 3, data: .double(1.5)) == #"{"data":1.5,"error":"success","request_id":3}"# + "\n")
        #expect(IPCRequest.reply(requestID: 0, error: .propertyNotFound) == #"{"error":"property not found","request_id":0}"# + "\n")
        #expect(IPCRequest.event("property-change", ["id": 1, "name": "pause", "data": true])
            == #"{"data":true,"event":"property-change","id":1,"name":"pause"}"# + "\n")
    }

    @Test func linesAreFramedAndBounded() {
        var c = IPCConnection()
        #expect(c.take(Array("a\nb".utf8)) == [.text("a")])
        #expect(c.take(Array("c\n".utf8)) == [.text("bc")])
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: IPCRequest.maxLineBytes + 10) + Array("\nnext\n".utf8)
        #expect(c.take(huge) == [.tooLong, .text("next")])
    }
}
