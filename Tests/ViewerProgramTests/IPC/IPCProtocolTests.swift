import Testing
@testable import ViewerProgram
import Viewer

/// The IPC protocol's own types, without a socket: what each line means and what goes back.
@Suite struct IPCProtocolTests {
    private func parse(_ line: String) throws -> IPCRequest? { try IPCRequest.parse(line) }

    private func failure(_ line: String) -> IPCRequest.Failure? {
        do { _ = try IPCRequest.parse(line); return nil } catch { return error }
    }

    private func command(_ name: String, _ args: [JSONValue]) -> IPCCommand { IPCCommand(name: name, args: args) }

    @Test func mpvRequestsAreUnderstood() throws {
        #expect(try parse(#"{"command":["loadfile","/a b.mp4","append-play"],"request_id":7}"#)
            == IPCRequest(commands: [command("loadfile", ["/a b.mp4", "append-play"])], requestID: 7, wantsReply: true))
        #expect(try parse(#"{"command":["loadfile","x.png"]}"#)?.command == command("loadfile", ["x.png"]))
        // Numbers given as text are numbers, as mpv converts them.
        #expect(try parse(#"{"command":["seek","-5"]}"#)?.command == command("seek", [.double(-5)]))
        #expect(try parse(#"{"command":["seek",30,"absolute+exact"]}"#)?.command == command("seek", [.double(30), "absolute+exact"]))
        #expect(try parse(#"{"command":["set_property","pause",true]}"#)?.command == command("set_property", ["pause", true]))
        #expect(try parse(#"{"command":["observe_property",1,"time-pos"]}"#)?.command == command("observe_property", [1, "time-pos"]))
        #expect(try parse(#"{"command":["add","volume",-2]}"#)?.command == command("add", ["volume", .double(-2)]))
        // The named form, and the async field python-mpv-jsonipc sends.
        #expect(try parse(#"{"command":{"name":"loadfile","url":"/a.gif","flags":"append"},"request_id":2,"async":true}"#)?.command
            == command("loadfile", ["/a.gif", "append"]))
        #expect(try parse(#"{"command":{"name":"seek","target":10}}"#)?.command == command("seek", [.double(10)]))
        // A text line is an input.conf command, which mpv does not answer.
        #expect(try parse("playlist-next") == IPCRequest(commands: [command("playlist-next", [])], requestID: 0, wantsReply: false, prefixes: [[]]))
        #expect(try parse("   ") == nil)
        #expect(try parse("# a comment") == nil)
        // mediaview's own key commands.
        #expect(try parse(#"{"command":["rotate","90"]}"#)?.command == command("rotate", ["90"]))
    }

    @Test func textCommandsAreReadAsMpvReadsThem() throws {
        // umpv's line: the quotes go, escapes inside them are read, `raw` is a prefix.
        let umpv = try #require(try parse(#"raw loadfile "/tmp/a \"b\" c.gif" append"#))
        #expect(umpv.command == command("loadfile", [#"/tmp/a "b" c.gif"#, "append"]))
        #expect(umpv.prefixes == [["raw"]] && !umpv.wantsReply)
        #expect(try parse(#"loadfile "/a/b.gif" append"#)?.command == command("loadfile", ["/a/b.gif", "append"]))
        #expect(try parse("loadfile '/a/it\\s.gif'")?.command == command("loadfile", ["/a/it\\s.gif"]))
        #expect(try parse(#"show-text "\u00e9\x41\n""#)?.command == command("show-text", ["\u{e9}A\n"]))
        #expect(try parse("set volume 30")?.command == command("set", ["volume", "30"]))
        #expect(try parse("async no-osd osd-msg seek 5 absolute")?.prefixes == [["async", "no-osd", "osd-msg"]])
        let two = try #require(try parse("set pause yes; cycle-values loop-file inf no # why"))
        #expect(two.commands == [command("set", ["pause", "yes"]), command("cycle-values", ["loop-file", "inf", "no"])])
        #expect(failure(#"loadfile "/unclosed"#)?.error == .invalidParameter)
        #expect(failure(#"show-text "\q""#)?.error == .invalidParameter)
        #expect(failure("frobnicate")?.wantsReply == false)
    }

    @Test func badLinesGetMpvsErrorStrings() {
        #expect(failure("{not json") == IPCRequest.Failure(error: .invalidParameter, requestID: 0))
        #expect(failure(#"{"command":["frobnicate"],"request_id":4}"#) == IPCRequest.Failure(error: .invalidParameter, requestID: 4))
        #expect(failure(#"{"command":"quit","request_id":5}"#) == IPCRequest.Failure(error: .invalidParameter, requestID: 5))
        #expect(failure(#"{"command":["quit"],"request_id":"five"}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["seek","soon"]}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["get_property"]}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["get_property",{"a":1}]}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":["observe_property",1.5,"pause"]}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":{"name":"seek","when":3}}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":{"url":"x"}}"#)?.error == .invalidParameter)
        #expect(failure(#"{"command":[7]}"#)?.error == .invalidParameter)
    }

    @MainActor @Test func everyCommandHasAHandlerAndEveryHandlerASignature() {
        #expect(Set(IPCCommand.signatures.keys) == Set(IPCController.handlers.keys))
        for (name, signature) in IPCCommand.signatures {
            guard case .object(let o) = signature.listing(name) else { Issue.record("\(name)"); continue }
            #expect(o["name"] == .string(name))
        }
    }

    @Test func subPropertiesAndStrings() {
        let playlist: JSONValue = .array([.object(["filename": "/a.png", "id": 1]), .object(["filename": "/b.mp4", "id": 2])])
        #expect(IPCPropertyPath.resolve(playlist, ["count"]) == 2)
        #expect(IPCPropertyPath.resolve(playlist, ["1", "filename"]) == "/b.mp4")
        #expect(IPCPropertyPath.resolve(playlist, ["2", "filename"]) == nil)
        let meta: JSONValue = .object(["artist": "A", "title": "T"])
        #expect(IPCPropertyPath.resolve(meta, ["by-key", "artist"]) == "A")
        #expect(IPCPropertyPath.resolve(meta, ["list", "count"]) == 2)
        #expect(IPCPropertyPath.string(.double(50.5)) == "50.500000")
        #expect(IPCPropertyPath.string(.bool(true)) == "yes")
    }

    @Test func mpvsToolsOptionsAreAccepted() throws {
        let o = try ProgramOptions.parse(["--no-terminal", "--force-window", "--profile=pseudo-gui", "--idle=once",
                                          "--input-ipc-server=/run/s", "--", "--a.png"])
        #expect(o.desktop.idle == .once && o.inputs == ["--a.png"])
        #expect(o.desktop.ignoredOptions == ["--no-terminal", "--force-window", "--profile=pseudo-gui"])
        #expect(try ProgramOptions.parse(["--idle", "a.png"]).desktop.idle == .yes)
        #expect(throws: OptionError.self) { try ProgramOptions.parse(["--idle=sometimes"]) }
        #expect(throws: OptionError.self) { try ProgramOptions.parse(["--frobnicate"]) }
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
