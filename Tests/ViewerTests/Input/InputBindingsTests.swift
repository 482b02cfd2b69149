import Foundation
import Testing
import Playback
@testable import Viewer

/// input.conf parsing, merging and listing, and the player commands behind it.
@Suite struct InputBindingsTests {
    @Test func commandsParseAndPrintBack() throws {
        let cases: [(String, PlayerCommand)] = [
            ("cycle pause", .togglePause), ("seek 5", .seek(seconds: 5)), ("seek -60", .seek(seconds: -60)),
            ("seek 2.5", .seek(seconds: 2.5)), ("seek 50 absolute-percent", .seekAbsolutePercent(50)),
            ("add volume 2", .volume(delta: 2)), ("add volume -2", .volume(delta: -2)),
            ("cycle mute", .toggleMute), ("playlist-next", .next), ("playlist-prev", .previous),
            ("dismiss", .dismiss), ("cycle fullscreen", .toggleFullscreen), ("cycle loop", .toggleLoop),
            ("rotate 90", .rotate(degrees: 90)), ("rotate -90", .rotate(degrees: -90)),
            ("cycle track", .toggleTrack), ("cycle details", .toggleDetails), ("zoom 0.1", .zoom(delta: 0.1)),
            ("zoom-reset", .zoomReset), ("pan 0 -40", .pan(dx: 0, dy: -40)), ("minimize", .minimize),
            ("restore", .restore), ("quit", .quit), ("seek 90 absolute", .seekAbsolute(seconds: 90)),
            ("screenshot", .screenshot),
        ]
        for (text, command) in cases {
            #expect(try PlayerCommand.parse(text) == command, "\(text)")
            #expect(command.description == text)
        }
    }

    @Test func commandSpellingsFromMpv() throws {
        #expect(try PlayerCommand.parse("  seek\t+5   relative+exact ") == .seek(seconds: 5))
        #expect(try PlayerCommand.parse("no-osd add volume +3") == .volume(delta: 3))
        #expect(try PlayerCommand.parse("osd-msg-bar seek 10") == .seek(seconds: 10))
    }

    @Test func badCommandsSayWhy() {
        func message(_ text: String) -> String? {
            do { _ = try PlayerCommand.parse(text); return nil } catch { return error.description }
        }
        #expect(message("frobnicate") == "unknown command 'frobnicate'")
        #expect(message("seek abc") == "seek needs a number, got 'abc'")
        #expect(message("seek inf") != nil)
        #expect(message("seek") != nil)
        #expect(message("seek 5 sideways") == "unknown seek mode 'sideways'")
        #expect(message("seek 150 absolute-percent") != nil)
        #expect(message("seek -3 absolute") == "an absolute seek needs 0 or more seconds, got '-3'")
        #expect(message("add volume 2.5") == "add volume needs a whole number, got '2.5'")
        #expect(message("add speed fast") == "add speed needs a number, got 'fast'")
        #expect(message("set speed 5") == "set speed needs a speed from 0.25 to 4, got '5'")
        #expect(message("set speed") != nil)
        #expect(message("set volume 5") == "cannot set 'volume' (only speed)")
        #expect(message("multiply speed 0") != nil)
        #expect(message("multiply speed -2") != nil)
        #expect(message("multiply speed 1/0") == "multiply speed cannot divide by zero: '1/0'")
        #expect(message("multiply speed 1/x") != nil)
        #expect(message("frame-step 2")?.hasPrefix("too many arguments") == true)
        #expect(message("rotate 45") != nil)
        #expect(message("rotate 0") != nil)
        #expect(message("cycle") != nil)
        #expect(message("cycle speed") == "cannot cycle 'speed'")
        #expect(message("quit now")?.hasPrefix("too many arguments") == true)
        #expect(message("pan 1") != nil)
        #expect(message("") == "missing command")
    }

    /// mpv's speed and frame-step lines mean the same here, and print back as they parse.
    @Test func speedAndFrameStepCommands() throws {
        #expect(try PlayerCommand.parse("multiply speed 1/1.1") == .speed(.multiply(1 / 1.1)))
        #expect(try PlayerCommand.parse("multiply speed 2.0") == .speed(.multiply(2)))
        #expect(try PlayerCommand.parse("set speed 1.0") == .speed(.set(1)))
        #expect(try PlayerCommand.parse("add speed -0.25") == .speed(.add(-0.25)))
        #expect(try PlayerCommand.parse("frame-step") == .frameStep(forward: true))
        #expect(try PlayerCommand.parse("no-osd frame-back-step") == .frameStep(forward: false))
        for text in ["multiply speed 1/1.1", "multiply speed 1.1", "multiply speed 1/2", "set speed 1", "add speed 0.1",
                     "frame-step", "frame-back-step"] {
            #expect(try PlayerCommand.parse(text).description == text)
        }
        // Ten steps up and ten down come back to exactly 1x; the ends hold.
        var speed = PlaybackSpeed.normal
        for _ in 0..<10 { speed = PlayerCommand.SpeedChange.multiply(1.1).applied(to: speed) }
        for _ in 0..<10 { speed = PlayerCommand.SpeedChange.multiply(1 / 1.1).applied(to: speed) }
        #expect(speed.isNormal && speed.description == "1.00x", "\(speed)")
        for _ in 0..<5 { speed = PlayerCommand.SpeedChange.multiply(2).applied(to: speed) }
        #expect(speed.factor == 4)
        for _ in 0..<9 { speed = PlayerCommand.SpeedChange.multiply(0.5).applied(to: speed) }
        #expect(speed.factor == 0.25 && speed.description == "0.25x")
    }

    @Test func badLinesAreReportedAndTheRestLoads() {
        let text = """
            # my bindings
            SPACE cycle pause

            Ctrl+Foo quit
            x frobnicate   # what
            ctrl+right  seek 30
            z
              j seek abc
            k   cycle mute   # trailing comment
            """
        let (bindings, problems) = InputBindings.parse(text, source: "input.conf")
        #expect(problems == [
            "input.conf:4: unknown key 'Ctrl+Foo'",
            "input.conf:5: unknown command 'frobnicate'",
            "input.conf:7: no command for key 'z'",
            "input.conf:8: seek needs a number, got 'abc'",
        ])
        #expect(bindings.commands == [
            "SPACE": .togglePause, "Ctrl+RIGHT": .seek(seconds: 30), "k": .toggleMute,
        ])
        #expect(bindings.command(for: "Ctrl+RIGHT") == .seek(seconds: 30))
        #expect(bindings.command(for: "x") == nil)
    }

    @Test func windowsLineEndingsAndBOM() {
        let (bindings, problems) = InputBindings.parse("\u{FEFF}a quit\r\nb cycle mute\r\n\r\nc frob\r\n", source: "f")
        #expect(bindings.commands == ["a": .quit, "b": .toggleMute])
        #expect(problems == ["f:4: unknown command 'frob'"])
    }

    @Test func laterLinesWinAndIgnoreUnbinds() {
        let (bindings, problems) = InputBindings.parse("q quit\nq cycle pause\nw quit\nw ignore\n", source: "f")
        #expect(problems.isEmpty)
        #expect(bindings.commands == ["q": .togglePause])
        #expect(bindings.unbound == ["w"])
    }

    @Test func userFileOverridesDefaults() {
        let defaults = InputBindings.parse("SPACE cycle pause\nq quit\nf cycle fullscreen\n", source: "d").bindings
        let user = InputBindings.parse("q ignore\nf dismiss\nCtrl+q quit\nx ignore\n", source: "u").bindings
        let merged = defaults.merging(user)
        #expect(merged.commands == ["SPACE": .togglePause, "f": .dismiss, "Ctrl+q": .quit])
        #expect(merged.command(for: "q") == nil)
        #expect(merged.unbound.isEmpty)
    }

    @Test func listingIsSortedAlignedAndReparses() {
        let bindings = InputBindings(commands: [
            "r": .rotate(degrees: 90), "R": .rotate(degrees: -90), "SPACE": .togglePause,
            "Ctrl+DOWN": .minimize, "MBTN_LEFT_DBL": .toggleFullscreen,
        ])
        let listing = bindings.listing()
        #expect(listing == """
            Ctrl+DOWN      minimize
            MBTN_LEFT_DBL  cycle fullscreen
            r              rotate 90
            R              rotate -90
            SPACE          cycle pause

            """)
        let reparsed = InputBindings.parse(listing, source: "listing")
        #expect(reparsed.problems.isEmpty)
        #expect(reparsed.bindings == bindings)
        #expect(InputBindings().listing() == "")
    }

    @Test func bundledDefaultsLoadCleanly() throws {
        let text = InputBindings.defaultText
        let (bindings, problems) = InputBindings.parse(text, source: "input.conf")
        #expect(problems.isEmpty)
        // SPEC's keyboard row: space pause, arrows seek, f fullscreen, m mute, n/p, q quit.
        let expected: [String: PlayerCommand] = [
            "SPACE": .togglePause, "LEFT": .seek(seconds: -5), "RIGHT": .seek(seconds: 5),
            "DOWN": .seek(seconds: -60), "UP": .seek(seconds: 60), "f": .toggleFullscreen,
            "m": .toggleMute, "n": .next, "p": .previous, "q": .quit, "MBTN_LEFT_DBL": .toggleFullscreen,
            "WHEEL_UP": .volume(delta: 2), "WHEEL_DOWN": .volume(delta: -2), "d": .dismiss,
            "l": .toggleLoop, "r": .rotate(degrees: 90), "t": .toggleTrack, "Ctrl+DOWN": .minimize,
        ]
        for (key, command) in expected {
            #expect(bindings.command(for: key) == command, "\(key)")
        }
    }

    @Test func loadMergesUserFileAndReportsItsLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bindings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("mediaview"),
                                                withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let userFile = directory.appendingPathComponent("mediaview/input.conf").path
        try "q ignore\nSPACE playlist-next\nbogus-key quit\n".write(toFile: userFile, atomically: true, encoding: .utf8)

        #expect(InputBindings.userFilePath(environment: ["XDG_CONFIG_HOME": directory.path, "HOME": "/h"]) == userFile)
        let (bindings, problems) = InputBindings.load(userFile: userFile)
        #expect(problems == ["\(userFile):3: unknown key 'bogus-key'"])
        #expect(bindings.command(for: "SPACE") == .next)
        #expect(bindings.command(for: "q") == nil)
        #expect(bindings.command(for: "f") == .toggleFullscreen)
    }

    @Test("A library user has the default bindings with no file on disk, and a missing user file is no problem")
    func defaultsNeedNoFiles() {
        let missing = "/nonexistent-\(UUID().uuidString)/input.conf"
        let withDefaults = InputBindings.load(userFile: missing)
        #expect(withDefaults.problems.isEmpty)
        #expect(withDefaults.bindings.command(for: "SPACE") == .togglePause)
        #expect(InputBindings.defaults.command(for: "Ctrl+DOWN") == .minimize)
        #expect(InputBindings.parse(InputBindings.defaultText, source: "built-in").problems.isEmpty)
        #expect(PresentationOptions().bindings == InputBindings.defaults)
    }

    @Test func userFilePathFollowsXDG() {
        #expect(InputBindings.userFilePath(environment: ["HOME": "/home/u"]) == "/home/u/.config/mediaview/input.conf")
        // A relative XDG_CONFIG_HOME is invalid by the XDG spec and must be ignored.
        #expect(InputBindings.userFilePath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/home/u"])
                == "/home/u/.config/mediaview/input.conf")
        #expect(InputBindings.userFilePath(environment: [:]) == nil)
    }
}
