import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// `--enqueue` against something on the socket that is not a well-behaved mediaview:
    /// one that trickles a byte every two seconds, one that never reads, one that answers
    /// the same request over and over. The launch gives up within its time, in one line,
    /// and never claims files were added that were not.
    @Suite struct HostileEnqueue {
        /// What the fake instance does with the one connection it accepts.
        enum Manner: Sendable {
            case trickle
            case neverRead
            case repeatFirstReply(times: Int)
        }

        /// Listens at `path` on a thread of its own and treats the first client as
        /// `manner` says, for at most `seconds`.
        static func fakeInstance(at path: String, _ manner: Manner, seconds: Double = 20) throws -> Thread {
            let listener = try HostilePeer.listen(path)
            let thread = Thread {
                defer { close(listener) }
                let end = Date().addingTimeInterval(seconds)
                var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, Int32(seconds * 1000)) > 0 else { return }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                defer { close(fd) }
                switch manner {
                case .trickle:
                    while Date() < end {
                        guard send(fd, " ", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                        usleep(2_000_000)
                    }
                case .neverRead:
                    // Holds the connection open, reading nothing, until the time is up.
                    while Date() < end { usleep(50_000) }
                case .repeatFirstReply(let times):
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    _ = recv(fd, &buffer, buffer.count, 0)
                    let reply = String(repeating: "{\"request_id\":1,\"error\":\"success\",\"data\":null}\n", count: times)
                    _ = send(fd, reply, reply.utf8.count, Int32(MSG_NOSIGNAL))
                    while Date() < end, recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) != 0 { usleep(50_000) }
                }
            }
            thread.start()
            return thread
        }

        @Test func aPeerTricklingBytesDoesNotKeepTheLaunchWaiting() throws {
            let runtime = try Scratch.directory("runtime")
            _ = try Self.fakeInstance(at: runtime + "/mediaview.socket", .trickle)
            let r = try mediaview(["--enqueue", try Fixtures.solidImage("red")], timeout: 20,
                                  environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(!r.timedOut && r.seconds < 9, "the launch waited \(r.seconds) s")
            #expect(r.status == 2)
            #expect(lines(r.stderr).count == 1, "one line: \(r.stderr)")
        }

        @Test func aPeerThatNeverReadsDoesNotKeepTheLaunchWaiting() throws {
            let runtime = try Scratch.directory("runtime")
            _ = try Self.fakeInstance(at: runtime + "/mediaview.socket", .neverRead)
            // Far more than the socket holds: 3,000 paths of 250 bytes.
            let files = (0..<3000).map { "/tmp/" + String(repeating: "p", count: 240) + "\($0).png" }
            let r = try mediaview(["--enqueue"] + files, timeout: 25, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(!r.timedOut && r.seconds < 14, "the launch waited \(r.seconds) s")
            #expect(r.status == 2)
            #expect(lines(r.stderr).count == 1, "one line: \(r.stderr)")
        }

        @Test func repeatedRepliesAreNotCountedAsItems() throws {
            let runtime = try Scratch.directory("runtime")
            _ = try Self.fakeInstance(at: runtime + "/mediaview.socket", .repeatFirstReply(times: 5))
            let files = try ["red", "blue", "lime", "yellow", "white"].map { try Fixtures.solidImage($0) }
            let r = try mediaview(["--enqueue"] + files, timeout: 20, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(!r.stderr.contains("added"), "five answers to one request are not five items: \(r.stderr)")
            #expect(r.status == 2 && lines(r.stderr).count == 1, "status \(r.status): \(r.stderr)")
        }
    }
}
