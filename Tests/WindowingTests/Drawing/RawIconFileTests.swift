import Foundation
import Testing
import TestSupport
import Windowing

/// The window's icons are read from raw bytes at every start, so the viewer needs no PNG
/// decoder: they must be the same pictures as the PNGs the desktop's icon theme gets, and a
/// file of the wrong length must give nil, not a torn icon.
@Suite("Raw icon files")
struct RawIconFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theWindowIconsAreThePixelsOfTheThemesPNGs() throws {
        for side in [16, 32, 48, 64, 128] {
            let raw = try #require(RGBAImage(rgbaFile: "\(Self.root)/assets/icons/window/mediaview-\(side)x\(side).rgba",
                                             width: side, height: side), "no raw icon of \(side)")
            let png = try #require(RGBAImage(pngFile: "\(Self.root)/assets/icons/hicolor/\(side)x\(side)/apps/mediaview.png"))
            #expect(raw == png, "the \(side)x\(side) raw icon differs from its PNG: run scripts/make-icons.sh")
            // Not a blank square: the icon has both clear and opaque pixels.
            let alphas = Set(stride(from: 3, to: raw.pixels.count, by: 4).map { raw.pixels[$0] })
            #expect(alphas.contains(0) && alphas.contains(255), "\(side): alphas \(alphas.sorted().prefix(5))")
        }
    }

    @Test func filesOfTheWrongLengthOrSizeGiveNil() throws {
        let dir = Fixtures.directory + "/raw-icons-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let whole = [UInt8](repeating: 200, count: 4 * 4 * 4)
        try Data(whole).write(to: URL(fileURLWithPath: dir + "/whole.rgba"))
        try Data(whole.dropLast()).write(to: URL(fileURLWithPath: dir + "/short.rgba"))
        try Data(whole + [1]).write(to: URL(fileURLWithPath: dir + "/long.rgba"))
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.rgba"))
        let image = try #require(RGBAImage(rgbaFile: dir + "/whole.rgba", width: 4, height: 4))
        // Straight alpha in the file, premultiplied in the image: 200 * 200 / 255.
        #expect(Array(image.pixels[0..<4]) == [157, 157, 157, 200])
        for (path, w, h) in [(dir + "/short.rgba", 4, 4), (dir + "/long.rgba", 4, 4), (dir + "/empty.rgba", 4, 4),
                             (dir + "/whole.rgba", 8, 2 * 4), (dir + "/whole.rgba", 0, 16), (dir + "/whole.rgba", -4, -4),
                             (dir + "/whole.rgba", 1 << 40, 1), (dir + "/missing.rgba", 4, 4), (dir, 4, 4)] {
            #expect(RGBAImage(rgbaFile: path, width: w, height: h) == nil, "\(path) read as \(w)x\(h)")
        }
    }
}
