import Testing
import TestSupport
@testable import Windowing

private func red(_ p: UInt32) -> UInt32 { (p >> 16) & 0xFF }

@Suite("Canvas drawing")
struct CanvasTests {
    @Test func div255RoundsExactlyOverTheWholeRange() {
        for x in UInt32(0)...65535 {
            #expect(Canvas.div255(x) == (2 * x + 255) / 510, "x = \(x)")
            if Canvas.div255(x) != (2 * x + 255) / 510 { return }
        }
    }

    @Test func blendsAtHalfAlpha() {
        let s = OwnedPixels(width: 4, height: 1, fill: 0x0000FF)
        s.canvas.fillRect(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(rgb: 0xFF0000, alpha: 128))
        s.canvas.fillRect(Rect(x: 1, y: 0, width: 1, height: 1), color: Color(rgb: 0xFFFFFF, alpha: 128))
        // 255 * 128 / 255 = 128 from the source; 255 * 127 / 255 = 127 left of the blue.
        #expect(s.px(0, 0) == 0x80_00_7F)
        #expect(s.px(1, 0) == 0x80_80_FF)
        #expect(s.px(2, 0) == 0x00_00_FF)
        var faded = s.canvas
        faded.opacity = 0.5
        faded.fillRect(Rect(x: 3, y: 0, width: 1, height: 1), color: .white)
        #expect(s.px(3, 0) == 0x80_80_FF)
    }

    @Test func opaqueFillKeepsPaddingByteAndZeroOpacityDrawsNothing() {
        let s = OwnedPixels(width: 2, height: 1, fill: 0xFF00_0000)
        s.canvas.fillRect(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(rgb: 0x123456))
        #expect(s.buffer.pixel(x: 0, y: 0) == 0xFF12_3456)
        s.canvas.faded(by: 0).fillCircle(in: Rect(x: 0, y: 0, width: 2, height: 1), color: .white)
        #expect(s.buffer.pixel(x: 1, y: 0) == 0xFF00_0000)
    }

    @Test func clipIsRespectedByEveryPrimitive() {
        let s = OwnedPixels(width: 60, height: 60)
        let clip = Rect(x: 10, y: 10, width: 20, height: 20)
        var c = s.canvas
        c.clip = clip
        c.fillRect(Rect(x: 0, y: 0, width: 60, height: 60), color: .white)
        c.fillCircle(centerX: 30, centerY: 30, radius: 25, color: .white)
        c.fillTriangle((0, 0), (60, 0), (0, 60), color: .white)
        c.drawLine(from: (0, 59), to: (59, 0), thickness: 5, color: .white)
        c.fillRoundedRect(Rect(x: 0, y: 0, width: 60, height: 60), radius: 8, color: .white)
        c.blit(image: RGBAImage(width: 3, height: 3, color: .white), in: Rect(x: 0, y: 0, width: 60, height: 60))
        #expect(s.px(10, 10) == 0xFF_FFFF && s.px(29, 29) == 0xFF_FFFF)
        let outside = s.pixels { x, y, p in p != 0 && !clip.contains(x: x, y: y) }
        #expect(outside.count == 0)
    }

    @Test func triangleCentreIsThemeAndBoxCornersUntouched() {
        let s = OwnedPixels(width: 64, height: 64)
        let theme = Color.defaultTheme
        s.canvas.fillTriangle((10, 10), (10, 50), (50, 30), color: theme)
        #expect(s.px(23, 30) == theme.rgb)  // the centroid is (23.3, 30)
        #expect(s.px(48, 12) == 0 && s.px(48, 48) == 0 && s.px(9, 30) == 0)
        // Anti-aliased: the slanted edge has partly covered pixels.
        let partial = s.pixels { _, _, p in p != 0 && p != theme.rgb }
        #expect(partial.count > 20)
        // Nothing outside the bounding box grown by the half-pixel ramp.
        #expect(s.pixels { x, y, p in p != 0 && !(9...51).contains(x) || p != 0 && !(9...51).contains(y) }.count == 0)
    }

    @Test func roundedCornersAreAntiAliasedAndSymmetric() {
        let s = OwnedPixels(width: 40, height: 40)
        s.canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 40), radius: 10, color: .white)
        #expect(s.px(0, 0) == 0 && s.px(39, 0) == 0 && s.px(0, 39) == 0 && s.px(39, 39) == 0)
        #expect(s.px(20, 20) == 0xFF_FFFF && s.px(20, 0) == 0xFF_FFFF && s.px(0, 20) == 0xFF_FFFF)
        // Pixel (3, 2): centre (3.5, 2.5) is 9.92 from the arc centre, coverage 0.58.
        let edge = red(s.px(3, 2))
        #expect((130...165).contains(edge))
        #expect(s.px(3, 2) == s.px(2, 3) && s.px(3, 2) == s.px(36, 2) && s.px(3, 2) == s.px(36, 37))
    }

    @Test func discCoverageSumsToItsArea() {
        let s = OwnedPixels(width: 100, height: 100)
        s.canvas.fillCircle(centerX: 50, centerY: 50, radius: 20, color: .white)
        var sum = 0.0
        for y in 0..<100 { for x in 0..<100 { sum += Double(red(s.px(x, y))) / 255 } }
        #expect(abs(sum - Double.pi * 400) < 6)
        // Row 30's centre is 19.5 above the centre: just inside; row 29's is 20.5: outside.
        #expect(s.px(50, 50) == 0xFF_FFFF && s.px(50, 29) == 0 && red(s.px(50, 30)) >= 250)
    }

    @Test func ringLeavesItsHoleAlone() {
        let s = OwnedPixels(width: 100, height: 100)
        s.canvas.strokeCircle(centerX: 50, centerY: 50, radius: 30, lineWidth: 6, color: .white)
        #expect(s.px(50, 50) == 0 && s.px(50, 35) == 0 && s.px(50, 5) == 0)
        #expect(s.px(50, 20) == 0xFF_FFFF && s.px(80, 50) == 0xFF_FFFF)
    }

    @Test func thickLineCoversItsAxisOnly() {
        let s = OwnedPixels(width: 60, height: 60)
        s.canvas.drawLine(from: (10, 10), to: (50, 50), thickness: 4, color: .white)
        #expect(s.px(30, 30) == 0xFF_FFFF && s.px(11, 11) == 0xFF_FFFF)
        #expect(s.px(30, 10) == 0 && s.px(10, 30) == 0 && s.px(5, 5) == 0 && s.px(54, 54) == 0)
    }

    @Test func blitScalesBilinearlyAndBlendsPremultiplied() throws {
        let s = OwnedPixels(width: 4, height: 3, fill: 0x0000FF)
        let two = try #require(RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255]))
        s.canvas.blit(image: two, in: Rect(x: 0, y: 0, width: 4, height: 1))
        // Samples at source x = -0.25 (clamped), 0.25, 0.75, 1.25 (clamped).
        #expect([0, 1, 2, 3].map { red(s.px($0, 0)) } == [0, 64, 191, 255])
        let halfRed = try #require(RGBAImage(width: 1, height: 1, pixels: [255, 0, 0, 128]))
        #expect(halfRed.pixels == [128, 0, 0, 128])
        #expect(halfRed.color(x: 0, y: 0) == Color(rgb: 0xFF0000, alpha: 128))
        s.canvas.blit(image: halfRed, in: Rect(x: 0, y: 1, width: 1, height: 1))
        #expect(s.px(0, 1) == 0x80_00_7F)
        s.canvas.blit(image: RGBAImage(width: 1, height: 1, color: .white), in: Rect(x: 0, y: 2, width: 1, height: 1),
                      opacity: 0.5)
        #expect(s.px(0, 2) == 0x80_80_FF)
        #expect(RGBAImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil)
    }

    @Test func rectHelpers() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.insetBy(dx: 5, dy: 10) == Rect(x: 15, y: 30, width: 20, height: 20))
        #expect(r.insetBy(100).isEmpty)
        #expect(r.contains(x: 10, y: 20) && !r.contains(x: 40, y: 20) && !r.contains(x: 10, y: 60))
        #expect(r.center == (x: 25, y: 40))
        #expect(r.intersection(Rect(x: 0, y: 0, width: 15, height: 25)) == Rect(x: 10, y: 20, width: 5, height: 5))
    }

    @Test func colorParsing() {
        #expect(Color(parsing: "#3d8bfd") == Color(rgb: 0x3D8BFD))
        #expect(Color(parsing: "3D8BFD")?.rgb == 0x3D8BFD)
        #expect(Color(parsing: "#f80") == Color(rgb: 0xFF8800))
        #expect(Color(parsing: "#ff000080") == Color(rgb: 0xFF0000, alpha: 0x80))
        #expect(Color(parsing: " Orange ") == Color(rgb: 0xFFA500))
        #expect(Color(parsing: "grey") == Color(parsing: "gray"))
        #expect(Color(parsing: "pink")?.rgb == 0xFFC0CB)
        for bad in ["", "#", "#12345", "#ggg", "zzzzzz", "notacolor", "#1234567", "０１２", "-12", "+12345"] {
            #expect(Color(parsing: bad) == nil, "\(bad)")
        }
        #expect(Color.defaultTheme.withAlpha(7).a == 7 && Color.defaultTheme.withAlpha(7).rgb == 0x3D8BFD)
        #expect(Color(rgb: 0xFF8800, alpha: 0x40).description == "#ff880040")
    }
}

extension CanvasTests {
    /// FreeType text through fontconfig; fonts-dejavu-core provides the default sans-serif.
    @Suite("Text")
    struct Text {
        @Test func hgDrawsInsideItsMeasuredBoxOnly() throws {
            let font = try FontRenderer(family: "DejaVu Sans", pixelSize: 32)
            let s = OwnedPixels(width: 160, height: 100)
            let m = font.measure("Hg")
            // H is about 0.73 em wide and g 0.64 em: roughly 44 px at 32 px.
            #expect((36...52).contains(m.width))
            #expect((26...34).contains(m.ascent) && (6...10).contains(m.descent))
            let (x, base) = (20, 60)
            let advance = font.draw("Hg", at: x, baseline: base, color: .white, on: s.canvas)
            #expect(advance <= m.width)
            let box = Rect(x: x, y: base - m.ascent, width: m.width, height: m.ascent + m.descent)
            let inside = s.pixels { px, py, p in p != 0 && box.contains(x: px, y: py) }
            let outside = s.pixels { px, py, p in p != 0 && !box.contains(x: px, y: py) }
            #expect(inside.count > 150)
            #expect(outside.count == 0)
            // The g's descender goes below the baseline and the H's stem reaches cap height.
            #expect(inside.contains { $0.1 >= base + 3 })
            #expect(inside.contains { $0.1 <= base - 20 })
            // Anti-aliased: some pixels are neither background nor full white.
            #expect(inside.contains { red(s.px($0.0, $0.1)) < 200 })
        }

        @Test func nonASCIITextMeasuresAndDrawsItsAccents() throws {
            let font = try FontRenderer(pixelSize: 24)
            let text = "Ünïcödé ✓"
            #expect(font.measure(text).width > font.measure("Unicode").width)
            let s = OwnedPixels(width: 240, height: 60)
            font.draw(text, at: 4, baseline: 40, color: .white, on: s.canvas)
            let plain = OwnedPixels(width: 240, height: 60)
            font.draw("Unicode", at: 4, baseline: 40, color: .white, on: plain.canvas)
            func topInk(_ surface: OwnedPixels) -> Int { surface.pixels { _, _, p in p != 0 }.map(\.1).min() ?? 99 }
            // The diaeresis over the capital U rises above the plain U's top.
            #expect(topInk(s) < topInk(plain))
            let check = OwnedPixels(width: 40, height: 40)
            font.draw("✓", at: 4, baseline: 30, color: .white, on: check.canvas)
            #expect(check.pixels { _, _, p in p != 0 }.count > 20)
        }

        @Test func truncationAddsEllipsisAndFits() throws {
            let font = try FontRenderer(pixelSize: 16)
            let long = "The quick brown fox jumps over the lazy dog"
            let cut = font.truncated(long, toWidth: 100)
            #expect(cut.hasSuffix("…") && cut.count > 3)
            #expect(font.measure(cut).width <= 100)
            #expect(long.hasPrefix(String(cut.dropLast())))
            // Maximal: the next character would not have fitted.
            let next = String(long.prefix(cut.count)) + "…"
            #expect(font.measure(next).width > 100 || next.dropLast().last == " ")
            #expect(font.truncated("Hi", toWidth: 100) == "Hi")
            #expect(font.truncated(long, toWidth: 2) == "")
        }

        @Test func clippedTextStaysInsideTheClip() throws {
            let font = try FontRenderer(pixelSize: 20)
            let s = OwnedPixels(width: 120, height: 40)
            var c = s.canvas
            c.clip = Rect(x: 0, y: 0, width: 30, height: 40)
            font.draw("Wide text here", at: 2, baseline: 28, color: .white, shadow: .black, on: c)
            #expect(s.pixels { x, _, p in p != 0 && x >= 30 }.count == 0)
            #expect(s.pixels { _, _, p in p != 0 }.count > 50)
        }

        @Test func missingFontsThrowClearErrors() {
            #expect(throws: FontError.familyNotFound("No Such Family Xyzzy")) {
                try FontRenderer(family: "No Such Family Xyzzy", pixelSize: 12, requireExactFamily: true)
            }
            #expect(throws: FontError.self) { try FontRenderer(path: "/nonexistent/font.ttf", pixelSize: 12) }
            #expect(throws: FontError.invalidSize(0)) { try FontRenderer(pixelSize: 0) }
            // Without the exact requirement fontconfig's substitute is accepted.
            #expect((try? FontRenderer(family: "No Such Family Xyzzy", pixelSize: 12)) != nil)
        }
    }
}
