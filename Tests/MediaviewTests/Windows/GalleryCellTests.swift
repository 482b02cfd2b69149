import Foundation
import Testing
import TestSupport

extension MediaviewProgram.Gallery {
    /// A clip of 1:15, a still and a sound without cover art.
    static func mixedFolder() throws -> String {
        let dir = try Scratch.directory("gallery-mixed")
        let files = [("a clip.mp4", try Fixtures.solidVideo("red", width: 160, height: 120, seconds: 75, fps: 5)),
                     ("b still.png", try Fixtures.solidImage("red", width: 160, height: 120)),
                     ("c sound.wav", try Fixtures.tone(440, seconds: 1))]
        for (name, path) in files { try FileManager.default.copyItem(atPath: path, toPath: dir + "/" + name) }
        return dir
    }

    /// Pixels in the bottom-right corner of cell `i`'s picture (160x120 fitted to the
    /// thumbnail side, so 4:3 and centred) that are dark and that are white: the length pill
    /// and its text.
    static func pillPixels(_ img: Image, _ g: Shown, _ i: Int) -> (dark: Int, white: Int) {
        let side = g.layout["thumbnail"] as? Int ?? 128
        let c = g.centre(i)
        let maxX = c.x + side / 2, maxY = c.y + side * 3 / 8
        var dark = 0, white = 0
        for y in (maxY - 22)..<(maxY - 2) {
            for x in (maxX - 48)..<(maxX - 2) {
                let p = img.pixel(x, y)
                let channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
                if channels.allSatisfy({ $0 < 0x50 }) { dark += 1 }
                if channels.allSatisfy({ $0 > 0xC0 }) { white += 1 }
            }
        }
        return (dark, white)
    }

    /// The clip's cell shows its length in a dark pill, the still's does not, the sound's
    /// shows the note; the picture left of the pill is the clip's own.
    static func showsLengthOnlyOnTheClip(_ img: Image, _ g: Shown) -> Bool {
        let clip = pillPixels(img, g, 0), still = pillPixels(img, g, 1)
        let side = g.layout["thumbnail"] as? Int ?? 128
        let note = img.fraction(matching: RGB.theme, x: g.centre(2).x - side / 4, y: g.centre(2).y - side / 4,
                                width: side / 2, height: side / 2)
        return clip.dark > 200 && clip.white > 15 && still.dark == 0 && still.white == 0
            && img.matches(g.centre(0).x - side / 4, g.centre(0).y, 0xFF0000) && note > 0.03
    }

    @Test func aVideoCellShowsItsLengthAndASoundCellItsNoteAlsoFromTheCache() throws {
        let dir = try Self.mixedFolder()
        let cache = try Scratch.directory("gallery-mixed-cache")
        let probe = try ScreenProbe()
        for run in ["made", "cache"] {
            let g = try Self.show(dir, cache: cache, items: 3)
            let grid = g.window.waitFor(probe) { Self.showsLengthOnlyOnTheClip($0, g) }
            let seen = grid.map { "clip \(Self.pillPixels($0, g, 0)), still \(Self.pillPixels($0, g, 1))" } ?? "no grid"
            #expect(grid != nil, "\(run): the clip's cell lacks its length pill, or another cell has one (\(seen))")
            let clip = try Events.read(g.log).first {
                $0["event"] as? String == "thumbnail_made" && ($0["path"] as? String)?.hasSuffix("a clip.mp4") == true
            }
            #expect(clip?["from"] as? String == run, "the clip's thumbnail came from \(clip?["from"] ?? "nowhere")")
            let ended = try #require(try g.quit())
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
        }
    }
}
