import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// One instance: `--enqueue` hands files to the mediaview already running on the
    /// default socket in `$XDG_RUNTIME_DIR`, and starts one when none runs.
    @Suite struct Enqueue {
        @Test func aSecondLaunchQueuesIntoTheFirst() throws {
            let runtime = try Scratch.directory("runtime")
            let env = ["XDG_RUNTIME_DIR": runtime]
            let probe = try ScreenProbe()
            let first = try Launched(["--windowed", "--geometry", "320x240+0+0", try Fixtures.solidImage("red")],
                                     environment: env)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(first.stderr)")
            let client = try SocketClient(path: runtime + "/mediaview.socket")
            #expect(window.waitFor(probe) { $0.matches(160, 120, RGB.red) } != nil)

            let blue = try Fixtures.solidImage("blue")
            let second = try mediaview(["--enqueue", blue], timeout: 10, environment: env)
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(lines(second.stderr) == ["mediaview: added 1 item to the mediaview running at \(runtime)/mediaview.socket"])
            #expect(ProgramWindow.wait(probe).map { $0.id } == window.id, "no second window may open")
            #expect(try client.request(["get_property", "playlist-count"], id: 1)["data"] as? Int == 2)
            // The running one still shows its picture; the handed file is next in line.
            #expect(window.grab(probe).matches(160, 120, RGB.red))
            // Without --enqueue a launch is a player of its own, quietly without the socket.
            let plain = try mediaview(["--autoexit", "--image-duration", "0.2", "--no-audio", try Fixtures.solidImage("lime")],
                                      environment: env)
            #expect(plain.status == 0 && plain.stderr.isEmpty, "plain second launch: \(plain.stderr)")
            #expect(try client.request(["get_property", "playlist-count"], id: 4)["data"] as? Int == 2)
            _ = try client.request(["playlist-next"], id: 2)
            #expect(window.waitFor(probe) { $0.matches(160, 120, RGB.blue) } != nil, "the enqueued file never showed")
            _ = try client.request(["quit"], id: 3)
            #expect(first.finish(timeout: 5)?.status == 0)
        }

        @Test func withNoInstanceItStartsOne() throws {
            let runtime = try Scratch.directory("runtime")
            let r = try mediaview(["--enqueue", "--autoexit", "--image-duration", "0.3", try Fixtures.solidImage("red")],
                                  environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.stderr.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: runtime + "/mediaview.socket"), "the socket goes with the program")
        }
    }
}
