import Foundation
import Testing
import TestSupport

/// `--wid`: the view lives inside another program's window, follows its size, and a click
/// grows it to fullscreen from its own rectangle (the seed's inline view); ESC takes it back.
@Suite(.serialized)
struct EmbedTests {
    @Test("Embedded into a foreign window, clicked to fullscreen and back")
    func embedAndGrow() throws {
        let host = try ProbeWindow(x: 100, y: 80, width: 400, height: 300)
        let image = try Fixtures.solidImage("red", width: 320, height: 240)
        let events = Fixtures.directory + "/embed-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        let p = try Run.start(Run.mediaview, ["--wid", "\(host.id)", "--events", events, image],
                              environment: Run.environment())
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let probe = try ScreenProbe()
        var inside: UInt?
        let end = Date().addingTimeInterval(10)
        while inside == nil && Date() < end {
            usleep(50_000)
            inside = probe.windows(className: "mediaview", pid: p.processIdentifier).first
        }
        let w = try #require(inside, "no mediaview window inside the host")
        let g = try #require(GestureTests.geometry(of: w, probe) { $0.x == 100 && $0.width == 400 })
        #expect(g.x == 100 && g.y == 80 && g.width == 400 && g.height == 300, "fills the host: \(g)")
        #expect(probe.waitFor { _ in probe.grab(x: 100, y: 80, width: 400, height: 300).matches(200, 150, 0xFF0000) } != nil,
                "the picture shows inside the host")

        _ = try Run.process("xdotool", ["mousemove", "300", "230", "click", "1"], timeout: 5)
        let big = try #require(GestureTests.geometry(of: w, probe) { $0.width == 1280 && $0.height == 720 })
        #expect(big.x == 0 && big.y == 0 && big.width == 1280 && big.height == 720, "grown to fullscreen: \(big)")
        #expect(probe.waitFor { $0.matches(640, 360, 0xFF0000) } != nil)

        _ = try Run.process("xdotool", ["key", "Escape"], timeout: 5)
        let back = try #require(GestureTests.geometry(of: w, probe) { $0.width == 400 && $0.x == 100 })
        #expect(back.x == 100 && back.y == 80 && back.width == 400 && back.height == 300, "back inline: \(back)")
    }

    @Test("A window id that does not exist: exit 2 and one line that says so")
    func badWindow() throws {
        let image = try Fixtures.solidImage("red", width: 32, height: 32)
        let r = try Run.process(Run.mediaview, ["--wid", "0x7ffffff0", image], timeout: 10, environment: Run.environment())
        #expect(r.status == 2)
        #expect(r.stderr.contains("0x7ffffff0") || r.stderr.contains("2147483632"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
