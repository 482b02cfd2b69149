import Foundation
import Testing
import TestSupport

/// The environment breaks under a playing viewer: the X server dies, the sound server is
/// killed. Each case uses a server of its own, so killing it touches nothing else.
@Suite(.serialized)
struct BrokenEnvironmentTests {
    func clip() throws -> String { try Fixtures.solidVideo("teal", width: 160, height: 120, seconds: 4, tone: 500) }

    @Test("The X server dies mid-play: the program ends at once with status 1 and says why")
    func xServerDies() throws {
        let (x, display) = try PrivateServers.xvfb()
        defer { PrivateServers.stop(x) }
        let err = Fixtures.directory + "/xdies-\(getpid()).txt"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let events = Fixtures.directory + "/xdies-\(getpid()).jsonl"
        let p = try Run.start(Run.mediaview, ["--no-audio", "--events", events, try clip()],
                              environment: Run.environment(["DISPLAY": display]),
                              stderr: try FileHandle(forWritingTo: URL(fileURLWithPath: err)))
        #expect(Events.waitFor(events, "first_frame", index: 0) != nil, "it never showed a picture")
        #expect(p.isRunning, "it was playing")
        PrivateServers.stop(x)
        let start = Date()
        let ended = Run.wait(p, timeout: 5)
        let took = Date().timeIntervalSince(start)
        #expect(ended && took < 2, "ended \(took) s after the server died")
        #expect(p.terminationStatus == 1)
        let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(text.contains("lost the connection to the X display"), "\(text)")
    }

    @Test("PulseAudio is killed mid-play: the video plays on, silently, with one warning")
    func soundServerKilled() throws {
        let (pa, server) = try PrivateServers.pulse()
        defer { PrivateServers.stop(pa) }
        let err = Fixtures.directory + "/padies-\(getpid()).txt"
        let events = Fixtures.directory + "/padies-\(getpid()).jsonl"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = try Run.start(Run.mediaview, ["--windowed", "--autoexit", "--events", events, try clip()],
                              environment: Run.environment(["PULSE_SERVER": server]),
                              stderr: try FileHandle(forWritingTo: URL(fileURLWithPath: err)))
        // Mid-play: the sound has started.
        #expect(Events.waitFor(events, "played", index: 0) != nil, "it never played")
        PrivateServers.stop(pa)
        #expect(Run.wait(p, timeout: 15), "it went on and finished")
        #expect(p.terminationStatus == 0)
        let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(log.contains("\"finished\""), "the video played to its end")
        let lines = ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("sound") == true, "one warning: \(lines)")
    }
}
