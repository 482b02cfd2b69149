import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The resume file when something else has been in the state folder: a FIFO in its
    /// place, a file grown to tens of megabytes, a link planted at the name it is written
    /// beside, and other instances quitting at the same moment.
    @Suite struct HostileState {
        struct Player {
            let run: Launched
            let client: SocketClient
        }

        static func start(_ video: String, state: String, geometry: String = "320x240+0+0") throws -> Player {
            let socket = try Scratch.directory("hostile-state-sock") + "/s"
            let run = try Launched(["--windowed", "--geometry", geometry, "--no-audio", "--input-ipc-server", socket, video],
                                   environment: ["XDG_STATE_HOME": state])
            return Player(run: run, client: try SocketClient(path: socket))
        }

        /// Seeks to `seconds` and waits until the observed position is there.
        static func seek(_ p: Player, to seconds: Double) throws -> Bool {
            // The socket answers before the file has opened, and a seek then is refused (as
            // mpv refuses one with nothing loaded): ask again until one is taken.
            let until = Date().addingTimeInterval(10)
            var id = 100
            while try p.client.request(["seek", seconds, "absolute"], id: id, timeout: 10)["error"] as? String != "success",
                  Date() < until {
                id += 1
                usleep(50_000)
            }
            _ = try p.client.request(["observe_property", 2, "time-pos"], id: 3, timeout: 10)
            return p.client.wait(timeout: 10) { $0["id"] as? Int == 2 && ($0["data"] as? Double ?? 0) >= seconds } != nil
        }

        static func longVideo() throws -> String { try Fixtures.solidVideo("red", seconds: 180, fps: 5) }

        static func stateFolder() throws -> (state: String, folder: String) {
            let state = try Scratch.directory("hostile-state")
            let folder = state + "/mediaview"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return (state, folder)
        }

        @Test func aFIFOInPlaceOfTheResumeFileIsNotWaitedOn() throws {
            let (state, folder) = try Self.stateFolder()
            #expect(mkfifo(folder + "/resume", 0o600) == 0)
            let p = try Self.start(try Self.longVideo(), state: state)
            // The video opens and the player answers, instead of waiting for a writer.
            #expect(try Self.seek(p, to: 100), "the player did not play")
            _ = try p.client.request(["quit"], id: 4, timeout: 5)
            let ended = p.run.finish(timeout: 10)
            #expect(ended?.status == 0, "stderr: \(ended?.stderr ?? "none: it hung")")
        }

        @Test func aHugeResumeFileDoesNotFreezeOpeningOrQuitting() throws {
            let (state, folder) = try Self.stateFolder()
            let path = folder + "/resume"
            // 64 MiB of well-formed lines.
            let line = String(repeating: "0123456789abcdef", count: 4) + " 100.000 1000\n"
            let block = Data(String(repeating: line, count: 8192).utf8)
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            while try handle.offset() < 64 << 20 { handle.write(block) }
            try handle.close()
            let p = try Self.start(try Self.longVideo(), state: state)
            #expect(try Self.seek(p, to: 100), "the player did not play")
            let asked = Date()
            _ = try p.client.request(["quit"], id: 4, timeout: 10)
            let ended = p.run.finish(timeout: 30)
            #expect(ended?.status == 0)
            let seconds = Date().timeIntervalSince(asked)
            #expect(seconds < 3, "quitting took \(seconds) s")
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(size < 512 << 10, "the file is rewritten bounded: \(size) bytes")
        }

        @Test func aLinkPlantedAtTheTemporaryNameDoesNotOverwriteItsTarget() throws {
            let (state, folder) = try Self.stateFolder()
            let victim = state + "/victim.txt"
            try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
            let p = try Self.start(try Self.longVideo(), state: state)
            try FileManager.default.createSymbolicLink(atPath: folder + "/resume.\(p.run.pid).tmp", withDestinationPath: victim)
            #expect(try Self.seek(p, to: 100))
            _ = try p.client.request(["quit"], id: 4, timeout: 5)
            #expect(p.run.finish(timeout: 10)?.status == 0)
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
            let saved = try String(contentsOfFile: folder + "/resume", encoding: .utf8)
            #expect(lines(saved).count == 1, "the position is saved all the same: \(saved)")
        }

        /// The thumbnail places file: a remembered place is where the next minimize puts
        /// the thumbnail; one at the edge of what a number can hold (written by another
        /// program, or a damaged disk) is ignored instead of crashing the program there.
        @Test func aPlaceNoWindowCouldHaveIsIgnoredAndTheThumbnailGoesToTheCorner() throws {
            let probe = try ScreenProbe()
            let screen = probe.grab()
            let layout = "\(screen.width)x\(screen.height)+0+0"
            /// Where the thumbnail lands after Ctrl+Down with `place` remembered; nil if the program died.
            func minimized(_ place: String) throws -> (x: Int, y: Int, width: Int)? {
                let (state, folder) = try Self.stateFolder()
                try "\(layout) \(place)\n".write(toFile: folder + "/thumbnail-places", atomically: true, encoding: .utf8)
                let run = try Launched(["--windowed", "--geometry", "640x480+0+0", "--no-audio", try Fixtures.solidImage("red")],
                                       environment: ["XDG_STATE_HOME": state])
                let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
                try xdotool(["key", "--window", String(window.id), "ctrl+Down"])
                // The window shrinks in an animation: its place is read once it holds still.
                let end = Date().addingTimeInterval(10)
                var last: (x: Int, y: Int, width: Int, height: Int)?
                var still = 0
                while Date() < end, kill(run.pid, 0) == 0 {
                    let g = probe.geometry(of: window.id)
                    still = g != nil && g?.width ?? 640 < 640 && g.map { [$0.x, $0.y, $0.width] } == last.map { [$0.x, $0.y, $0.width] } ? still + 1 : 0
                    last = g
                    if still == 5, let g {
                        kill(run.pid, SIGTERM)
                        _ = run.finish(timeout: 5)
                        return (g.x, g.y, g.width)
                    }
                    usleep(50_000)
                }
                let ended = run.finish(timeout: 5)
                Issue.record("no thumbnail; status \(String(describing: ended?.status)), stderr: \(ended?.stderr ?? run.stderr)")
                return nil
            }
            // The file is read, and its layout matches this screen: the sane place is used.
            let sane = try minimized("100 80 320 240")
            #expect(sane.map { $0.x == 100 && $0.y == 80 && $0.width == 320 } == true, "\(String(describing: sane))")
            for bogus in ["9223372036854775807 9223372036854775807 16384 16384", "-9223372036854775808 0 320 240",
                          "40000 -40000 320 240"] {
                let corner = try minimized(bogus)
                #expect(corner.map { $0.x + $0.width > screen.width / 2 && $0.x + $0.width <= screen.width } == true,
                        "\(bogus): \(String(describing: corner))")
            }
        }

        @Test func fourPlayersQuittingAtOnceEachKeepTheirPosition() throws {
            let (state, folder) = try Self.stateFolder()
            let videos = try Scratch.directory("hostile-four")
            var players: [Player] = []
            for i in 0..<4 {
                let copy = videos + "/film\(i).mp4"
                try FileManager.default.linkItem(atPath: try Self.longVideo(), toPath: copy)
                players.append(try Self.start(copy, state: state, geometry: "160x120+\(i * 170)+0"))
            }
            for (i, p) in players.enumerated() { #expect(try Self.seek(p, to: Double(60 + 10 * i))) }
            for p in players { p.client.send("{\"command\":[\"quit\"]}") }
            for p in players { #expect(p.run.finish(timeout: 15)?.status == 0) }
            let saved = try String(contentsOfFile: folder + "/resume", encoding: .utf8)
            #expect(lines(saved).count == 4, "four positions saved: \(saved)")
        }
    }
}
