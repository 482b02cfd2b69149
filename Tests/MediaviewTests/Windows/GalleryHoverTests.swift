import Foundation
import Testing
import TestSupport

extension MediaviewProgram.Gallery {
    /// 6 s of video, red, green then blue for 2 s each, as x264 encodes by default (frames
    /// reordered) with a keyframe every second: a cell that plays shows more than one colour.
    static func colourClip() throws -> String {
        try Fixtures.make("gallery-hover-rgb-6s.mp4", [
            "-f", "lavfi", "-i", "color=c=red:s=320x180:r=25:d=2", "-f", "lavfi", "-i", "color=c=lime:s=320x180:r=25:d=2",
            "-f", "lavfi", "-i", "color=c=blue:s=320x180:r=25:d=2",
            "-filter_complex", "[0:v][1:v][2:v]concat=n=3:v=1[v]", "-map", "[v]",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
    }

    /// The clip above and a yellow still, in that order.
    static func hoverFolder() throws -> String {
        let dir = try Scratch.directory("gallery-hover")
        try FileManager.default.copyItem(atPath: try colourClip(), toPath: dir + "/a clip.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.solidImage("yellow", width: 160, height: 120),
                                         toPath: dir + "/b still.png")
        return dir
    }

    static let yellow: UInt32 = 0xFFFF00

    /// Which of the clip's colours a pixel is, if any.
    static func clipColour(_ pixel: UInt32) -> String? {
        [("red", RGB.red), ("green", UInt32(0x00FF00)), ("blue", RGB.blue)]
            .first { Image.close(pixel, $0.1, tolerance: 40) }?.0
    }

    /// Moves the pointer to a point of the window, then waits for the first `event` of cell
    /// `index` logged after the move (the pointer may have rested on it before the test).
    static func point(_ g: Shown, at p: (x: Int, y: Int), thenWaitFor event: String, index: Int) throws -> [String: Any]? {
        func all() -> [[String: Any]] {
            ((try? Events.read(g.log)) ?? []).filter { $0["event"] as? String == event && $0["index"] as? Int == index }
        }
        let before = all().count
        try xdotool(["mousemove", "--window", String(g.window.id), String(p.x), String(p.y)])
        let start = Date()
        repeat {
            let now = all()
            if now.count > before { return now[before] }
            usleep(20_000)
        } while Date().timeIntervalSince(start) < 10
        return nil
    }

    @Test func aVideoCellPlaysItsKeyframesUnderTheRestingPointerAndAStillDoesNot() throws {
        let g = try Self.show(try Self.hoverFolder(), cache: try Scratch.directory("gallery-hover-cache"), items: 2)
        let probe = try ScreenProbe()
        let clip = g.centre(0), still = g.centre(1)
        // The thumbnail is the picture a tenth of the way in: red.
        let grid = g.window.waitFor(probe) { Self.clipColour($0.pixel(clip.x, clip.y)) == "red" && $0.matches(still.x, still.y, Self.yellow) }
        #expect(grid != nil, "the grid does not show the clip's red thumbnail beside the yellow still")

        // Resting on the still plays nothing: it has no length.
        let rested = try #require(try Self.point(g, at: still, thenWaitFor: "gallery_hover", index: 1),
                                  "no rest on the still was seen")
        #expect(rested["plays"] as? Bool == false)
        let changed = g.window.waitFor(probe, timeout: 1.5) {
            !$0.matches(still.x, still.y, Self.yellow) || Self.clipColour($0.pixel(clip.x, clip.y)) != "red"
        }
        #expect(changed == nil, "a cell changed while the pointer rested on the still")

        // Resting on the clip: its cell goes through its colours, the still's stays yellow.
        let playing = try #require(try Self.point(g, at: clip, thenWaitFor: "gallery_hover", index: 0),
                                   "no rest on the clip was seen")
        #expect(playing["plays"] as? Bool == true)
        var seen: Set<String> = []
        var stillKept = true
        let cycled = g.window.waitFor(probe, timeout: 15) { img in
            if let c = Self.clipColour(img.pixel(clip.x, clip.y)) { seen.insert(c) }
            stillKept = stillKept && img.matches(still.x, still.y, Self.yellow)
            return seen.count >= 3
        }
        #expect(cycled != nil, "the clip's cell showed only \(seen.sorted()) under the resting pointer")
        #expect(stillKept, "the still's cell changed while the clip played")
        let first = try #require(try Events.read(g.log).last {
            $0["event"] as? String == "gallery_hover_picture" && $0["index"] as? Int == 0 && $0["number"] as? Int == 1
        })
        let waited = first["rested_ms"] as? Double ?? 0
        print("gallery hover: first picture \(Int(waited)) ms after the pointer came to the cell")
        #expect(waited >= 400, "the cell played before the pointer rested: \(waited) ms")

        // The grid answers keys while the cell plays: its pictures are decoded elsewhere.
        let pressed = Date()
        try g.key("Right")
        #expect(Events.waitFor(g.log, "gallery_selected", index: 1, timeout: 3) != nil, "the grid stalled under the playing cell")
        print("gallery hover: a key moved the highlight in \(Int(Date().timeIntervalSince(pressed) * 1000)) ms while the cell played")

        // Away from every cell: the clip's cell shows its red thumbnail again, and stays so.
        let ended = try #require(try Self.point(g, at: (x: 400, y: 520), thenWaitFor: "gallery_hover_ended", index: 0),
                                 "the cell did not stop playing")
        #expect((ended["pictures"] as? Int ?? 0) >= 3)
        #expect(g.window.waitFor(probe) { Self.clipColour($0.pixel(clip.x, clip.y)) == "red" } != nil)
        let moved = g.window.waitFor(probe, timeout: 2.5) { Self.clipColour($0.pixel(clip.x, clip.y)) != "red" }
        #expect(moved == nil, "the clip's cell went on changing after the pointer left")
        let stillPlayed = try Events.read(g.log).contains { $0["event"] as? String == "gallery_hover_picture" && $0["index"] as? Int == 1 }
        #expect(!stillPlayed, "the still's cell was given pictures to play")
        #expect(try g.quit()?.status == 0)
    }
}

extension MediaviewProgram.Gallery {
    @Test func aVideoThatCannotBeReadWhenHoveredKeepsItsThumbnail() throws {
        let dir = try Self.hoverFolder()
        let g = try Self.show(dir, cache: try Scratch.directory("gallery-hover-broken-cache"), items: 2)
        let probe = try ScreenProbe()
        let clip = g.centre(0)
        #expect(g.window.waitFor(probe) { Self.clipColour($0.pixel(clip.x, clip.y)) == "red" } != nil)
        // The file is damaged after its thumbnail was made: the cell has nothing to play.
        try Data("this is no video any more".utf8).write(to: URL(fileURLWithPath: dir + "/a clip.mp4"))
        let failed = try Self.point(g, at: clip, thenWaitFor: "gallery_hover_failed", index: 0)
        #expect(failed != nil, "the damaged clip was not given up")
        let changed = g.window.waitFor(probe, timeout: 1.5) { Self.clipColour($0.pixel(clip.x, clip.y)) != "red" }
        #expect(changed == nil, "the damaged clip's cell lost its thumbnail")
        let played = try Events.read(g.log).contains { $0["event"] as? String == "gallery_hover_picture" }
        #expect(!played)
        let ended = try #require(try g.quit())
        #expect(ended.status == 0, "stderr: \(ended.stderr)")
    }
}

extension MediaviewProgram.Gallery {
    @Test func aVideoThatCrashesTheDecoderWhenHoveredStopsOnlyItsOwnPreviews() throws {
        // A test-only name makes the previews' worker abort as it opens the file, as a parser
        // broken by a crafted file would; its thumbnail was made by another worker first.
        let dir = try Scratch.directory("gallery-hover-crash")
        try FileManager.default.copyItem(atPath: try Self.colourClip(), toPath: dir + "/a clip worker-crashes.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.solidImage("yellow", width: 160, height: 120),
                                         toPath: dir + "/b still.png")
        let g = try Self.show(dir, cache: try Scratch.directory("gallery-hover-crash-cache"), items: 2,
                              environment: ["MEDIAVIEW_WORKER_TEST": "1"])
        let probe = try ScreenProbe()
        let clip = g.centre(0)
        #expect(g.window.waitFor(probe) { Self.clipColour($0.pixel(clip.x, clip.y)) == "red" } != nil)
        let failed = try Self.point(g, at: clip, thenWaitFor: "gallery_hover_failed", index: 0)
        #expect(failed != nil, "the clip whose decoder crashed was not given up")
        let changed = g.window.waitFor(probe, timeout: 1.5) { Self.clipColour($0.pixel(clip.x, clip.y)) != "red" }
        #expect(changed == nil, "the clip's cell lost its thumbnail")
        // The program goes on: the grid answers a key, and it quits cleanly.
        try g.key("Right")
        #expect(Events.waitFor(g.log, "gallery_selected", index: 1, timeout: 3) != nil, "the grid stopped answering")
        let ended = try #require(try g.quit())
        #expect(ended.status == 0, "stderr: \(ended.stderr)")
        let lines = ended.stderr.split(separator: "\n").filter { $0.contains("previews") }
        #expect(lines == ["mediaview: a clip worker-crashes.mp4: previews: the decoder stopped: crashed (SIGABRT)"],
                "stderr: \(ended.stderr)")
    }
}
