import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Passwords and tokens in addresses stay out of everything a user might share: stderr,
    /// the event log, the window title and the cache's file names.
    @Suite struct SecretURLs {
        static let secrets = ["alice", "s3cretPW", "TOK1", "KEY2", "SIG3", "AT4", "TOK5"]

        @Test func credentialsNeverShow() throws {
            let base = try TestEnvironment.http
            let host = base.replacingOccurrences(of: "http://", with: "")
            let good = "http://alice:s3cretPW@\(host)/01-still.jpg?token=TOK1&key=KEY2&sig=SIG3&access_token=AT4"
            let bad = "http://alice:s3cretPW@\(host)/status/404/gone.png?size=2&token=TOK5"
            let dir = try Scratch.directory("secrets")
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--autoexit", "--image-duration", "1.5",
                                    "--no-audio", "--cache-dir", dir + "/cache", "--events", dir + "/events.jsonl",
                                    good, bad])
            let window = try #require(ProgramWindow.wait(probe), "no window")
            var title = ""
            let start = Date()
            while !title.contains("01-still") && Date().timeIntervalSince(start) < 5 {
                title = try Run.process("xprop", ["-id", String(window.id), "_NET_WM_NAME"], timeout: 5,
                                        environment: Run.environment(["LC_ALL": "C.UTF-8"])).stdout
                usleep(100_000)
            }
            let ended = try #require(run.finish(timeout: 20), "hung")
            #expect(ended.status == 1, "the 404 fails: \(ended.stderr)")
            #expect(title.contains("01-still.jpg"), "title: \(title)")
            #expect(ended.stderr.contains("404") && ended.stderr.contains("gone.png"), "\(ended.stderr)")
            let log = String(decoding: FileManager.default.contents(atPath: dir + "/events.jsonl") ?? Data(), as: UTF8.self)
            #expect(log.contains("01-still.jpg"))
            var names: [String] = []
            for d in ["image", "video", "audio", "temp"] {
                names += (try? FileManager.default.contentsOfDirectory(atPath: dir + "/cache/" + d)) ?? []
            }
            #expect(!names.isEmpty, "the still was not cached")
            for s in Self.secrets {
                #expect(!ended.stderr.contains(s), "stderr shows \(s): \(ended.stderr)")
                #expect(!log.contains(s), "the event log shows \(s)")
                #expect(!title.contains(s), "the title shows \(s): \(title)")
                #expect(!names.joined().contains(s), "a cache name shows \(s): \(names)")
            }
        }
    }
}
