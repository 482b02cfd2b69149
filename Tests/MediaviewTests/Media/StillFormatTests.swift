import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// AVIF, HEIC, animated JPEG XL and SVG on screen as stills and animations, colour
    /// management of tagged pictures, and what bad pictures of these kinds get.
    @Suite struct StillFormats {
        static let red: UInt32 = 0xC82828      // rgb(200,40,40)
        static let green: UInt32 = 0x1EB43C    // rgb(30,180,60)
        static let blue: UInt32 = 0x145AC8     // rgb(20,90,200)

        static func avif() throws -> String {
            let src = try Fixtures.truecolourPNG("rgb(200,40,40)")
            return try Fixtures.tool("sf-red.avif", "avifenc") { [src, $0] }
        }

        static func heic() throws -> String {
            let src = try Fixtures.truecolourPNG("rgb(200,40,40)")
            return try Fixtures.tool("sf-red.heic", "heif-enc") { ["-q", "90", src, "-o", $0] }
        }

        static func svg() throws -> String {
            try Fixtures.bytes("sf-blue.svg", Data("""
                <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">\
                <rect width="40" height="30" fill="rgb(20,90,200)"/></svg>
                """.utf8))
        }

        /// Red for 0.3 s, then green for 0.3 s, looping.
        static func animatedJXL() throws -> String {
            let a = try Fixtures.truecolourPNG("rgb(200,40,40)", width: 64, height: 48)
            let b = try Fixtures.truecolourPNG("rgb(30,180,60)", width: 64, height: 48)
            let gif = try Fixtures.tool("sf-anim-src.gif", "convert") { ["-delay", "30", a, b, "-loop", "0", $0] }
            return try Fixtures.tool("sf-anim.jxl", "cjxl") { [gif, $0, "-q", "100"] }
        }

        static func animatedAVIF() throws -> String {
            let a = try Fixtures.truecolourPNG("rgb(200,40,40)"), b = try Fixtures.truecolourPNG("rgb(30,180,60)")
            return try Fixtures.tool("sf-anim.avif", "avifenc") { ["--timescale", "10", "--duration", "3", a, b, $0] }
        }

        private func centre(_ window: ProgramWindow, _ probe: ScreenProbe, shows rgb: UInt32, tolerance: Int = 12) -> Bool {
            window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, rgb, tolerance: tolerance) } != nil
        }

        /// Each still shows in its colour and stays for --image-duration: its end comes about
        /// two seconds after its first frame (waited for in the log, not timed to the frame).
        @Test(arguments: ["avif", "heic"])
        func aStillShowsForTheImageDuration(format: String) throws {
            let media = format == "avif" ? try Self.avif() : try Self.heic()
            let log = try Scratch.directory("stillfmt") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", "--events", log, media])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: Self.red), "the \(format) never showed red; stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 15), "did not exit after --image-duration")
            #expect(end.status == 0, "stderr: \(end.stderr)")
            let events = try Events.read(log)
            let loaded = events.first { $0["event"] as? String == "loaded" }
            #expect(loaded?["kind"] as? String == "image", "a \(format) is a still: \(String(describing: loaded))")
            let shown = try #require(events.first { $0["event"] as? String == "first_frame" }?["t"] as? Double)
            let gone = try #require(events.first { $0["event"] as? String == "will_dismiss" }?["t"] as? Double)
            #expect(gone - shown >= 1.8 && gone - shown < 8, "shown for \(gone - shown) s with --image-duration 2")
        }

        @Test func anSVGShowsInItsColour() throws {
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", try Self.svg()])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            // Fitted 4:3 into 320x240: the drawing fills the window, edge to edge.
            let img = try #require(window.waitFor(probe) { $0.matches(160, 120, Self.blue, tolerance: 6) },
                                   "the SVG never showed; stderr: \(run.stderr)")
            #expect(img.matches(2, 2, Self.blue, tolerance: 6) && img.matches(317, 237, Self.blue, tolerance: 6))
            #expect(run.finish(timeout: 10)?.status == 0)
        }

        /// Animated JPEG XL and animated AVIF play like GIFs: both colours come by in turn.
        @Test(arguments: ["jxl", "avif"])
        func anAnimationPlaysItsFrames(format: String) throws {
            let media = format == "jxl" ? try Self.animatedJXL() : try Self.animatedAVIF()
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "4", media])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: Self.red), "no red frame; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: Self.green), "no green frame; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: Self.red), "the animation did not loop; stderr: \(run.stderr)")
            #expect(run.finish(timeout: 15)?.status == 0)
        }

        /// A picture tagged with a wide-gamut profile shows its colour converted to sRGB (the
        /// display here has no profile), within 3 of what lcms2 computes, not its raw values.
        @Test(arguments: ["png", "jpg", "webp", "avif", "heic"])
        func aTaggedPictureShowsItsConvertedColour(ext: String) throws {
            let icc = try ColourProfiles.wideGamut()
            let raw: UInt32 = 0xC83C3C  // rgb(200,60,60)
            // Lossless where the format has it, so the colour in the file is exactly the raw one.
            let tagged = try Fixtures.tool("sf-wide-src.png", "convert") {
                ["-size", "128x96", "xc:rgb(200,60,60)", "-profile", icc, "PNG24:" + $0]
            }
            let media: String
            switch ext {
            case "avif":
                let plain = try Fixtures.truecolourPNG("rgb(200,60,60)")
                media = try Fixtures.tool("sf-wide.avif", "avifenc") { ["-l", "--icc", icc, plain, $0] }
            case "heic":
                media = try Fixtures.tool("sf-wide.heic", "heif-enc") { ["-L", tagged, "-o", $0] }
            case "webp":
                media = try Fixtures.tool("sf-wide.webp", "convert") { [tagged, "-define", "webp:lossless=true", $0] }
            case "jpg":
                media = try Fixtures.tool("sf-wide.jpg", "convert") { [tagged, "-quality", "100", $0] }
            default:
                media = tagged
            }
            let expected = try ColourProfiles.sRGB(of: raw, inProfile: icc)
            #expect(!Image.close(raw, expected, tolerance: 12), "the profile must change the colour visibly")
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", media])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let img = window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, expected, tolerance: 3) }
            let seen = window.grab(probe)
            let centre = seen.pixel(seen.width / 2, seen.height / 2) & 0xFFFFFF
            #expect(img != nil, "centre is \(String(centre, radix: 16)), lcms2 says \(String(expected, radix: 16)) (raw \(String(raw, radix: 16)))")
            let end = run.finish(timeout: 10)
            #expect(end?.status == 0 && end?.stderr.contains("colour profile") == false, "stderr: \(end?.stderr ?? "")")
        }

        /// A damaged profile: one warning line, and the picture shows as it is.
        @Test func aDamagedProfileWarnsOnceAndStillShows() throws {
            let plain = try Fixtures.tool("sf-plain.jpg", "convert") { ["-size", "128x96", "xc:rgb(200,60,60)", "-quality", "100", $0] }
            let bad = try Fixtures.bytes("sf-bad-icc.jpg",
                                         ColourProfiles.jpeg(try Data(contentsOf: URL(fileURLWithPath: plain)),
                                                             withICC: ColourProfiles.damaged))
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", bad])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: 0xC83C3C, tolerance: 4), "stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 10))
            #expect(end.status == 0)
            let warnings = lines(end.stderr).filter { $0.contains("colour profile") }
            #expect(warnings.count == 1 && warnings.first?.contains("sf-bad-icc.jpg") == true, "stderr: \(end.stderr)")
        }

        /// Pictures that declare enormous sizes are refused in one line each, and the queue
        /// goes on to the next item.
        @Test func bombsAreRefusedInOneLineAndTheQueueGoesOn() throws {
            var avif = try Data(contentsOf: URL(fileURLWithPath: try Self.avif()))
            let ispe = try #require(avif.range(of: Data("ispe".utf8))?.lowerBound)
            for (i, b) in [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60].enumerated() { avif[ispe + 8 + i] = UInt8(b) }
            let avifBomb = try Fixtures.bytes("sf-bomb.avif", avif)
            let svgBomb = try Fixtures.bytes("sf-bomb.svg", Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="3000000" height="3000000"><rect width="10" height="10"/></svg>"#.utf8))
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", avifBomb, svgBomb, try Self.svg()])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(centre(window, probe, shows: Self.blue), "the queue did not go on; stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 15))
            #expect(end.status == 1, "some item failed, so the status is 1")
            for name in ["sf-bomb.avif", "sf-bomb.svg"] {
                #expect(lines(end.stderr).filter { $0.contains(name) }.count == 1, "\(name): stderr: \(end.stderr)")
            }
        }
    
        /// With a profile on the root window (as colord or xiccd set it), an untagged picture
        /// is taken as sRGB and converted to the display's colours; a damaged one is warned
        /// about once and pictures show as sRGB.
        @Test(arguments: [false, true])
        func theDisplaysProfileIsUsed(damaged: Bool) throws {
            let icc = try ColourProfiles.wideGamut()
            let bytes = damaged ? ColourProfiles.damaged : [UInt8](try Data(contentsOf: URL(fileURLWithPath: icc)))
            let raw: UInt32 = 0xC83C3C
            let expected = damaged ? raw : try ColourProfiles.display(raw, withProfile: icc)
            #expect(damaged || !Image.close(raw, expected, tolerance: 12), "the profile must change the colour visibly")
            let media = try Fixtures.truecolourPNG("rgb(200,60,60)")
            let probe = try ScreenProbe()
            probe.setDisplayProfile(bytes)
            defer { probe.setDisplayProfile(nil) }
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "2", media])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let img = window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, expected, tolerance: 3) }
            let seen = window.grab(probe)
            let centre = seen.pixel(seen.width / 2, seen.height / 2) & 0xFFFFFF
            #expect(img != nil, "centre is \(String(centre, radix: 16)), expected \(String(expected, radix: 16))")
            let end = try #require(run.finish(timeout: 10))
            #expect(end.status == 0)
            let warnings = lines(end.stderr).filter { $0.contains("colour profile") }
            #expect(warnings.count == (damaged ? 1 : 0), "stderr: \(end.stderr)")
        }

        /// A profile colord loads while the viewer runs (a calibration applied, another
        /// monitor) is used for the pictures shown after it: the next one, opened ahead in
        /// the old colours, and the one before it, shown in them, both come back converted.
        @Test func aProfileSetWhileRunningIsUsedForWhatIsShownNext() throws {
            let icc = try ColourProfiles.wideGamut()
            let raw: UInt32 = 0xC83C3C
            let expected = try ColourProfiles.display(raw, withProfile: icc)
            let first = try Fixtures.truecolourPNG("rgb(200,60,60)")
            let second = try Fixtures.truecolourPNG("rgb(200,60,60)", width: 130, height: 96)
            let v = try RunningViewer([first, second])
            defer { v.run.process.terminate() }
            #expect(v.shows(raw), "without a profile the picture shows its own colour")
            v.probe.setDisplayProfile([UInt8](try Data(contentsOf: URL(fileURLWithPath: icc))))
            defer { v.probe.setDisplayProfile(nil) }
            try v.key("Right")
            #expect(Events.waitFor(v.log, "presented", index: 1) != nil, "Right did not present the second picture")
            #expect(v.shows(expected), "the next picture kept the old display's colours")
            try v.key("Left")
            #expect(v.shows(expected), "the picture shown before kept the old display's colours")
        }
    }
}
