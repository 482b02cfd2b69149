import Foundation
import Testing
import TestSupport

extension MediaviewProgram.Gallery {
    /// A camera photo taken sideways (red, its EXIF thumbnail blue with a lime top-left
    /// quarter) and two whose EXIF thumbnail is damaged: pointing past the end, and text.
    static func cameraFolder() throws -> String {
        let dir = try Scratch.directory("gallery-camera")
        let files = [("a sideways.jpg", try Fixtures.cameraJPEG(orientation: 6)),
                     ("b past the end.jpg", try Fixtures.cameraJPEG(thumbnail: .offsetPastTheEnd)),
                     ("c not a jpeg.jpg", try Fixtures.cameraJPEG(thumbnail: .notAJPEG))]
        for (name, path) in files { try FileManager.default.copyItem(atPath: path, toPath: dir + "/" + name) }
        return dir
    }

    /// The sideways photo's cell shows its embedded thumbnail upright (96x128, the lime
    /// quarter now top right), the damaged ones the red photo itself.
    static func showsCameraCells(_ img: Image, _ g: Shown) -> Bool {
        let side = g.layout["thumbnail"] as? Int ?? 128
        let c = g.centre(0)
        let lime = img.matches(c.x + side * 3 / 16, c.y - side / 4, 0x00FF00)
        let blue = img.matches(c.x - side * 3 / 16, c.y + side / 4, 0x0000FF)
            && img.matches(c.x - side * 3 / 16, c.y - side / 4, 0x0000FF)
        return lime && blue && img.matches(g.centre(1).x, g.centre(1).y, 0xFF0000)
            && img.matches(g.centre(2).x, g.centre(2).y, 0xFF0000)
    }

    @Test func cameraPhotosShowTheirOwnThumbnailUprightAndBadEXIFQuietlyShowsThePhoto() throws {
        let g = try Self.show(try Self.cameraFolder(), cache: try Scratch.directory("gallery-camera-cache"), items: 3)
        #expect(g.window.waitFor(try ScreenProbe()) { Self.showsCameraCells($0, g) } != nil,
                "the sideways photo's cell is not its embedded thumbnail upright, or a damaged one's not the photo")
        let made = try Events.read(g.log).filter { $0["event"] as? String == "thumbnail_made" }
        #expect(made.count == 3 && made.allSatisfy { $0["from"] as? String == "made" }, "\(made)")
        let ended = try #require(try g.quit())
        #expect(ended.status == 0)
        #expect(lines(ended.stderr).isEmpty, "stderr: \(ended.stderr)")
    }
}
