import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// AVIF, HEIC, animated JPEG XL and SVG go through decoders of their own (libavif, libheif,
/// libjxl, librsvg): each must give the picture's colour, its frames with their own
/// durations, and refuse a picture over the budget before decoding it.
@Suite struct PictureFormatTests {
    static let red = "rgb(200,40,40)"
    static let green = "rgb(30,180,60)"

    static func avif() throws -> String {
        let src = try Fixtures.truecolourPNG(red)
        return try Fixtures.tool("pf-red.avif", "avifenc") { [src, $0] }
    }

    static func animatedAVIF() throws -> String {
        let a = try Fixtures.truecolourPNG(red), b = try Fixtures.truecolourPNG(green)
        // 10 ticks of 1/100 s: 0.1 s a frame.
        return try Fixtures.tool("pf-anim.avif", "avifenc") { ["--timescale", "100", "--duration", "10", a, b, $0] }
    }

    static func heic() throws -> String {
        let src = try Fixtures.truecolourPNG(red)
        return try Fixtures.tool("pf-red.heic", "heif-enc") { ["-q", "90", src, "-o", $0] }
    }

    static func animatedJXL() throws -> String {
        let a = try Fixtures.truecolourPNG(red, width: 64, height: 48), b = try Fixtures.truecolourPNG(green, width: 64, height: 48)
        let gif = try Fixtures.tool("pf-anim-src.gif", "convert") { ["-delay", "20", a, b, "-loop", "0", $0] }
        return try Fixtures.tool("pf-anim.jxl", "cjxl") { [gif, $0, "-q", "100"] }
    }

    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">\
        <rect width="40" height="30" fill="rgb(20,90,200)"/></svg>
        """

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func open(_ bytes: [UInt8], name: String, maxPixels: Int = 100_000_000,
                      target: (width: Int, height: Int)? = nil) throws -> PictureSource {
        var o = PlayerOptions()
        o.source.maxPixels = maxPixels
        o.targetSize = target
        let p = try PictureSources.open(bytes, name: name, options: o, colour: PictureColour(displayProfile: nil, name: name))
        return try #require(p, "\(name) was not taken by a picture decoder")
    }

    private func colour(_ f: Frame) -> (r: Double, g: Double, b: Double) {
        VideoFrame(frame: f, pts: 0, duration: 0, serial: 0, rotation: 0).averageColor()
    }

    private func near(_ c: (r: Double, g: Double, b: Double), _ r: Double, _ g: Double, _ b: Double) -> Bool {
        abs(c.r - r) <= 4 && abs(c.g - g) <= 4 && abs(c.b - b) <= 4
    }

    @Test func anAVIFStillIsOnePictureInItsColour() throws {
        let p = try open(try bytes(try Self.avif()), name: "red.avif")
        #expect(p.info.kind == .image && p.info.width == 128 && p.info.height == 96)
        let f = try #require(try p.next())
        #expect(near(colour(f.frame), 200, 40, 40), "got \(colour(f.frame))")
        #expect(try p.next() == nil)
    }

    @Test func anAnimatedAVIFHasItsFramesAndTheirDurations() throws {
        let p = try open(try bytes(try Self.animatedAVIF()), name: "anim.avif")
        #expect(p.info.kind == .animated)
        let a = try #require(try p.next()), b = try #require(try p.next())
        #expect(try p.next() == nil)
        #expect(abs(a.duration - 0.1) < 0.01 && abs(b.pts - 0.1) < 0.01, "durations \(a.duration), \(b.pts)")
        #expect(near(colour(a.frame), 200, 40, 40) && near(colour(b.frame), 30, 180, 60))
        p.rewind()
        #expect(near(colour(try #require(try p.next()).frame), 200, 40, 40), "a loop starts at the first frame")
    }

    @Test func aHEICPhotoIsOnePictureInItsColour() throws {
        let p = try open(try bytes(try Self.heic()), name: "red.heic")
        #expect(p.info.kind == .image && p.info.width == 128 && p.info.height == 96)
        #expect(near(colour(try #require(try p.next()).frame), 200, 40, 40))
    }

    @Test func anAnimatedJPEGXLPlaysItsFramesWithTheirDelays() throws {
        let p = try open(try bytes(try Self.animatedJXL()), name: "anim.jxl")
        #expect(p.info.kind == .animated && p.info.width == 64)
        let a = try #require(try p.next()), b = try #require(try p.next())
        #expect(abs(a.duration - 0.2) < 0.01, "duration \(a.duration)")
        #expect(near(colour(a.frame), 200, 40, 40) && near(colour(b.frame), 30, 180, 60))
    }

    @Test func aJPEGXLStillIsLeftToFFmpeg() throws {
        let src = try Fixtures.truecolourPNG(Self.red)
        let still = try Fixtures.tool("pf-still.jxl", "cjxl") { [src, $0] }
        let o = PlayerOptions()
        #expect(try PictureSources.open(try bytes(still), name: "still.jxl", options: o,
                                        colour: PictureColour(displayProfile: nil, name: "still.jxl")) == nil)
    }

    @Test func anSVGIsDrawnAtTheSizeItIsShown() throws {
        let p = try open(Array(Self.svg.utf8), name: "blue.svg", target: (400, 400))
        #expect(p.info.isScalable && p.info.width == 40 && p.info.height == 30)
        let f = try #require(try p.next())
        #expect(f.frame.raw.pointee.width == 400 && f.frame.raw.pointee.height == 300)
        #expect(near(colour(f.frame), 20, 90, 200), "got \(colour(f.frame))")
    }

    @Test(arguments: ["red.avif", "red.heic", "anim.jxl", "huge.svg"])
    func aPictureOverTheBudgetIsRefusedBeforeDecoding(name: String) throws {
        let data: [UInt8]
        switch name {
        case "red.avif": data = try bytes(try Self.avif())
        case "red.heic": data = try bytes(try Self.heic())
        case "anim.jxl": data = try bytes(try Self.animatedJXL())
        default: data = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="2000000" height="2000000"/>"#.utf8)
        }
        #expect {
            _ = try open(data, name: name, maxPixels: name == "huge.svg" ? 100_000_000 : 1000)
        } throws: { error in
            let m = (error as? AVError)?.message ?? ""
            return m.hasPrefix(name) && m.contains("over the limit") && !m.contains("\n")
        }
    }

    /// An AVIF whose nclx box says Display P3 is converted to sRGB as lcms2 converts P3.
    @Test func anAVIFInDisplayP3IsConverted() throws {
        let src = try Fixtures.truecolourPNG("rgb(200,60,60)")
        let avif = try Fixtures.tool("pf-p3.avif", "avifenc") { ["-l", "--cicp", "12/13/0", src, $0] }
        let expected = try ColourProfiles.sRGB(of: 0xC83C3C, inProfile: try ColourProfiles.displayP3())
        let p = try open(try bytes(avif), name: "p3.avif")
        let c = colour(try #require(try p.next()).frame)
        let (r, g, b) = (Double(expected >> 16 & 0xFF), Double(expected >> 8 & 0xFF), Double(expected & 0xFF))
        #expect(abs(r - 200) + abs(g - 60) + abs(b - 60) > 10, "P3 must differ from sRGB here: \(expected)")
        #expect(abs(c.r - r) <= 3 && abs(c.g - g) <= 3 && abs(c.b - b) <= 3, "got \(c), lcms2 says \(r), \(g), \(b)")
    }

    /// The budget is on the area: a long panorama whose one side is longer than the square
    /// root of the budget still shows.
    @Test func aPanoramaWithinTheBudgetShows() throws {
        let src = try Fixtures.truecolourPNG(Self.red, width: 1200, height: 100)
        let heic = try Fixtures.tool("pf-panorama.heic", "heif-enc") { ["-q", "90", src, "-o", $0] }
        let p = try open(try bytes(heic), name: "panorama.heic", maxPixels: 200_000)
        #expect(p.info.width == 1200 && p.info.height == 100)
        #expect(near(colour(try #require(try p.next()).frame), 200, 40, 40))
    }

    /// The size an AVIF declares (its ispe box) is checked before libavif decodes anything.
    @Test func anAVIFDeclaringAHugeSizeIsRefused() throws {
        var data = try bytes(try Self.avif())
        let ispe = try #require(Self.find(Array("ispe".utf8), in: data))
        for (i, b) in [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60].enumerated() { data[ispe + 8 + i] = UInt8(b) }  // 60000x60000
        #expect {
            _ = try open(data, name: "bomb.avif")
        } throws: { error in
            let m = (error as? AVError)?.message ?? ""
            return m.hasPrefix("bomb.avif") && !m.contains("\n")
        }
    }

    /// Entity expansion ("billion laughs") is stopped by the XML parser's limits: an error
    /// or a small drawing, in bounded time, never gigabytes of text.
    @Test(.timeLimit(.minutes(1))) func anEntityBombEnds() throws {
        var doc = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a0 "laughlaughlaugh">"#
        for i in 1...12 { doc += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">" }
        doc += #"]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a12;</text></svg>"#
        do {
            let p = try open(Array(doc.utf8), name: "laughs.svg")
            _ = try? p.next()
        } catch {
            #expect(!"\(error)".contains("\n"))
        }
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        return (0...(hay.count - needle.count)).first { hay[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
