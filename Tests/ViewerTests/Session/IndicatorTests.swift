import Testing
import TestSupport
@testable import Windowing
@testable import Viewer

private func red(_ p: UInt32) -> UInt32 { (p >> 16) & 0xFF }

/// The viewer's indicators, drawn into a plain buffer: the look a user sees over the media.
@Suite("Indicators")
struct IndicatorTests {
    @Test func playIndicatorUsesThemeOverDarkenedBackground() {
        let s = OwnedPixels(width: 100, height: 100, fill: 0x808080)
        let theme = Color(rgb: 0xE03020)
        Indicators.drawPlayIndicator(on: s.canvas, in: Rect(x: 0, y: 0, width: 100, height: 100), theme: theme)
        #expect(s.px(48, 50) == theme.rgb)               // triangle
        #expect(s.px(50, 2) == theme.rgb)                // ring
        #expect(s.px(50, 20) == 0x46_46_46)              // black at 45 % over 0x80
        #expect(s.px(0, 0) == 0x80_80_80 && s.px(99, 99) == 0x80_80_80)
        let t = OwnedPixels(width: 100, height: 100, fill: 0x808080)
        Indicators.drawPlayIndicator(on: t.canvas, in: Rect(x: 0, y: 0, width: 100, height: 100), theme: theme, pulse: 1)
        // Pulsing mixes 45 % white in: 0x20 blue becomes 0x20 + 0.45 * 0xDF = 0x84.
        #expect(t.px(48, 50) & 0xFF == 0x84 && red(t.px(48, 50)) > red(theme.rgb))
    }

    @Test func progressTrackShowsPlayedBufferedAndRest() {
        let s = OwnedPixels(width: 212, height: 20)
        let theme = Color.defaultTheme
        let rect = Rect(x: 0, y: 0, width: 212, height: 20)
        Indicators.drawProgressTrack(on: s.canvas, in: rect, progress: 0.25, buffered: 0.5, theme: theme, hover: false)
        // Bar is x 8..<204, y 8..<12 when not hovered.
        #expect(s.px(40, 9) == theme.rgb)
        #expect(s.px(100, 9) != 0 && s.px(100, 9) != theme.rgb && red(s.px(100, 9)) > red(s.px(180, 9)))
        #expect(red(s.px(180, 9)) > 0 && s.px(100, 4) == 0 && s.px(100, 12) == 0)
        // Pixel 105's centre is 97.5 px into the 196 px bar.
        #expect(abs(Indicators.progressFraction(atX: 105, in: rect) - 97.5 / 196) < 1e-9)
        #expect(Indicators.progressFraction(atX: 0, in: rect) == 0 && Indicators.progressFraction(atX: 211, in: rect) == 1)
    }
}
