import Foundation
@testable import Subtitles
import Testing

/// Events as libass draws them over the video: fonts a screen cannot hold lowered, a play
/// resolution of a few pixels taken as the usual one, and a script of the most events a
/// track keeps taken whole.
@Suite struct SubtitleDrawingTests {
    /// Font sizes a screen cannot hold are lowered, in the styles and in the lines, and the
    /// renderer's pictures stay within the frame.
    @Test func hugeFontsAreBounded() throws {
        #expect(SubtitleBounds.bounded("0,,Default,,0,0,0,,{\\fs100000\\fscx9000}big") == "0,,Default,,0,0,0,,{\\fs400\\fscx400}big")
        #expect(SubtitleBounds.bounded("{\\fs20}small") == "{\\fs20}small")
        let library = try #require(ASSLibrary())
        let renderer = try #require(ASSRenderer(library: library))
        let track = try #require(ASSTrack(library: library))
        track.setHeader("""
            [Script Info]
            ScriptType: v4.00+
            PlayResY: 288

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,Sans,100000,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

            """)
        #expect(track.raw.pointee.styles[Int(track.raw.pointee.n_styles) - 1].FontSize == Double(SubtitleBounds.maxFontSize))
        track.add(SubtitleCue(start: 0, duration: 2, fields: SubtitleBounds.bounded("0,Default,,0,0,0,,{\\fs99999}W")))
        renderer.setSize(width: 320, height: 240)
        var image = renderer.render(track, at: 1000)
        var count = 0
        while let i = image {
            count += 1
            #expect(i.pointee.dst_x >= 0 && i.pointee.dst_y >= 0 && i.pointee.dst_x + i.pointee.w <= 320
                    && i.pointee.dst_y + i.pointee.h <= 240)
            image = i.pointee.next
        }
        #expect(count > 0, "the line was not drawn at all")
        // A play resolution of 3 pixels would scale every line up a hundredfold (7.6 GB for
        // the fuzzer's 444-byte script): it is taken as the usual 384x288.
        let tiny = try #require(ASSTrack(library: library))
        tiny.setHeader("[Script Info]\nScriptType: v4.00+\nPlayResX: 3\n")
        #expect(tiny.raw.pointee.PlayResX == 384 && tiny.raw.pointee.PlayResY == 288)
    }

    /// How long libass takes to take a bounded script whole and draw a frame of it (printed
    /// for the record, not asserted: timing belongs to `make bench`).
    /// A line whose start FFmpeg's demuxer cannot read stays in the header it hands over,
    /// where libass reads it as an event all the same: its borders and shadows are bounded
    /// as every other line's, not drawn 10,000 pixels wide (5.7 GB for the fuzzer's script).
    @Test func aLineLeftInTheHeaderIsBoundedToo() throws {
        let library = try #require(ASSLibrary())
        let track = try #require(ASSTrack(library: library))
        track.setHeader(ASSTrack.plainHeader
                        + "Dialogue: 0,0:00:00.00,0:00:05.00,Default,,0,0,0,,{\\bord10000\\shad10000\\fs99999}Hello\r\n")
        let texts = (0..<Int(track.raw.pointee.n_events)).compactMap { track.raw.pointee.events[$0].Text.map { String(cString: $0) } }
        #expect(texts == ["{\\bord50\\shad50\\fs400}Hello"], "libass holds \(texts)")
    }

    @Test func aBoundedScriptIsTakenWhole() throws {
        let library = try #require(ASSLibrary())
        let renderer = try #require(ASSRenderer(library: library))
        let track = try #require(ASSTrack(library: library))
        track.setHeader("")
        let start = Date()
        for i in 0..<SubtitleCues.maxCues {
            track.add(SubtitleCue(start: Double(i % 3600), duration: 0.5, fields: "0,Default,,0,0,0,,line \(i)"))
        }
        renderer.setSize(width: 320, height: 240)
        var drawn = 0
        var image = renderer.render(track, at: 10_100)
        while let i = image { drawn += 1; image = i.pointee.next }
        print("libass took \(SubtitleCues.maxCues) events and drew a frame in \(Date().timeIntervalSince(start)) s")
        #expect(track.count == SubtitleCues.maxCues && drawn > 0)
    }
}
