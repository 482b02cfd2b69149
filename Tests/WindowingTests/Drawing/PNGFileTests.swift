import Foundation
import Testing
import TestSupport
import Windowing

/// The program's own icons are read with libpng: the pixels come out as the icon has them,
/// and a file that is not a whole PNG of a sensible size gives nil, not a crash.
@Suite("PNG files read with libpng")
struct PNGFileTests {
    @Test func readsTheColoursAndAlphaOfAnRGBAPNG() throws {
        // Red over the left half at full alpha, blue over the right at alpha 128 (0x80).
        let png = try Fixtures.make("libpng-rgba.png", ["-f", "lavfi", "-i", "color=c=red@1.0:s=4x2,format=rgba",
                                                        "-f", "lavfi", "-i", "color=c=blue@0.5:s=4x2,format=rgba",
                                                        "-filter_complex", "[0][1]hstack,format=rgba", "-frames:v", "1"])
        let image = try #require(RGBAImage(pngFile: png))
        #expect(image.width == 8 && image.height == 2)
        // Premultiplied: the left pixel as it was, the right one's blue at half.
        #expect(Array(image.pixels[0..<4]) == [255, 0, 0, 255])
        let right = Array(image.pixels[(7 * 4)..<(8 * 4)])
        #expect(right[0] == 0 && right[1] == 0 && (127...129).contains(right[2]) && (127...129).contains(right[3]), "\(right)")
    }

    @Test func theProgramsOwnIconsAllRead() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        for side in [16, 32, 48, 64, 128] {
            let image = try #require(RGBAImage(pngFile: "\(root)/assets/icons/hicolor/\(side)x\(side)/apps/mediaview.png"))
            #expect(image.width == side && image.height == side)
        }
    }

    @Test func badFilesGiveNil() throws {
        let dir = Fixtures.directory + "/libpng-bad-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.solidImage("green", width: 64, height: 64)))
        let cut = dir + "/cut.png"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        let text = dir + "/text.png"
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        let empty = dir + "/empty.png"
        try Data().write(to: URL(fileURLWithPath: empty))
        // Over the 1024-pixel side the icons never reach.
        let wide = try Fixtures.solidImage("green", width: 2000, height: 4)
        for path in [cut, text, empty, wide, dir + "/missing.png", dir] {
            let image = RGBAImage(pngFile: path)
            #expect(image == nil, "\(path) read as \(image.map { "\($0.width)x\($0.height)" } ?? "")")
        }
    }
}
