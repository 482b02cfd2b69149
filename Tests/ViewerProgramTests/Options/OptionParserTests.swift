import Testing
@testable import ViewerProgram
import Viewer

/// The mediaview command line: forms, values, defaults, and the messages for mistakes.
@Suite struct OptionParserTests {
    private func parse(_ args: String...) throws(OptionError) -> ProgramOptions {
        try ProgramOptions.parse(args)
    }

    /// The one-line message a bad command line produces, or nil if it parsed.
    private func failure(_ args: String...) -> String? {
        do {
            _ = try ProgramOptions.parse(args)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func defaultsFollowTheSeedAndSpec() throws {
        let options = try parse()
        #expect(options.inputs.isEmpty)
        #expect(options.imageDuration == 5)
        #expect(options.autoplay && !options.loop && !options.dismissAfterFinish)
        #expect(options.swipeMode == .minimize)
        #expect(options.minimizedAspectRatio == 9.0 / 16.0)
        #expect(options.minimizedWidthRatio == 1.0 / 3.0)
        #expect(options.volume == 100 && !options.muted)
        #expect(options.maxPixels == 100_000_000)
        #expect(options.timeout == 15)
        #expect(options.contentMode == .fit && !options.windowed && options.audioEnabled)
    }

    @Test func inputsKeepOrderAndDashIsAnInput() throws {
        let options = try parse("a.png", "--autoexit", "-", "http://x/b.gif", "--", "--not-an-option", "-h")
        #expect(options.inputs == ["a.png", "-", "http://x/b.gif", "--not-an-option", "-h"])
        #expect(options.autoExit)
        #expect(!options.showHelp)
    }

    @Test func bothValueForms() throws {
        let spaced = try parse("--frames", "30", "--title", "A = B")
        let joined = try parse("--frames=30", "--title=A = B")
        #expect(spaced == joined)
        #expect(joined.frameLimit == 30 && joined.title == "A = B")
        // The value may itself look like an option or be empty where text is allowed.
        #expect(try parse("--title", "--loop").title == "--loop")
        #expect(try parse("--details=").details == "")
    }

    @Test func flags() throws {
        let options = try parse("-h", "--version", "--list-bindings", "--no-audio", "--benchmark", "--loop",
                                "--no-autoplay", "--dismiss-after-finish", "--remaining-time", "--video-aspect-fit",
                                "--hide-close-button", "--hide-play-button", "--no-cache", "--preload", "--mute",
                                "--no-track", "--windowed")
        #expect(options.showHelp && options.showVersion && options.listBindings)
        #expect(!options.audioEnabled && options.benchmark && options.loop && !options.autoplay)
        #expect(options.dismissAfterFinish && options.remainingTime && options.videoAspectFit)
        #expect(options.hideCloseButton && options.hidePlayButton && !options.cacheEnabled)
        #expect(options.preload && options.muted && !options.showTrack && options.windowed)
        #expect(try parse("--windowed", "--fullscreen").windowed == false)
        #expect(try parse("--no-track", "--show-track").showTrack)
    }

    @Test func numbersAreChecked() {
        #expect(failure("--frames", "abc") == "mediaview: --frames needs a whole number, got 'abc'")
        #expect(failure("--frames", "0") == "mediaview: --frames must be at least 1, got '0'")
        #expect(failure("--frames", "2.5") != nil)
        #expect(failure("--image-duration", "0") != nil)
        #expect(failure("--image-duration", "nan") != nil)
        #expect(failure("--image-duration", "inf") != nil)
        #expect(failure("--volume", "101") == "mediaview: --volume must be from 0 to 100, got '101'")
        #expect(failure("--volume", "-1") != nil)
        #expect(failure("--timeout", "-3") != nil)
        #expect(failure("--max-pixels", "0") != nil)
    }

    @Test func interfaceScaleAndPreviews() throws {
        #expect(try parse().uiScalePercent == nil)
        #expect(try parse().trackPreviews)
        #expect(try parse("--ui-scale", "1.5").uiScalePercent == 150)
        #expect(try parse("--ui-scale=2x").uiScalePercent == 200)
        #expect(try parse("--ui-scale", "1").uiScalePercent == 100)
        #expect(try parse("--ui-scale", "2", "--ui-scale", "auto").uiScalePercent == nil)
        #expect(try parse("--no-track-previews").trackPreviews == false)
        #expect(failure("--ui-scale", "3") == "mediaview: --ui-scale must be 1, 1.5, 2 or auto, got '3'")
        #expect(failure("--ui-scale", "") != nil)
        #expect(failure("--ui-scale", "nan") != nil)
        #expect(failure("--ui-scale", "-2") != nil)
    }

    @Test func numbersAreStored() throws {
        let options = try parse("--image-duration", "0.5", "--volume", "0", "--timeout=2.5", "--max-pixels", "4096")
        #expect(options.imageDuration == 0.5 && options.volume == 0 && options.timeout == 2.5 && options.maxPixels == 4096)
    }

    @Test func missingAndUnwantedValues() {
        #expect(failure("--frames") == "mediaview: --frames needs a value (--frames N)")
        #expect(failure("--autoexit=yes") == "mediaview: --autoexit takes no value")
        #expect(failure("--events", "") != nil)
        #expect(failure("--frames", "1\n2") == "mediaview: --frames needs a whole number, got '1 2'")
    }

    @Test func unknownOptionsSuggestTheNearestOne() {
        #expect(failure("--fullscren") == "mediaview: unknown option '--fullscren' (did you mean --fullscreen?)")
        #expect(failure("--theme-colour=red")?.contains("did you mean --theme-color?") == true)
        #expect(failure("--autoexi")?.contains("did you mean --autoexit?") == true)
        #expect(failure("--zzzzzzzz") == "mediaview: unknown option '--zzzzzzzz'")
        #expect(failure("-x")?.hasPrefix("mediaview: unknown option '-x'") == true)
    }

    @Test func geometry() throws {
        #expect(try parse("--geometry", "800x600").geometry == .init(width: 800, height: 600))
        #expect(try parse("--geometry=640X480+10+20").geometry == .init(width: 640, height: 480, x: 10, y: 20))
        #expect(try parse("--geometry", "320x200-1920+0").geometry == .init(width: 320, height: 200, x: -1920, y: 0))
        for bad in ["0x600", "800x0", "-800x600", "800x", "x600", "800", "800x600+10", "800x600+a+b",
                    "800x600+1+2+3", "99999x10", "800x600 ", "８00x600"] {
            #expect(failure("--geometry", bad) != nil, "\(bad)")
        }
    }

    @Test func windowID() throws {
        #expect(try parse("--wid", "12345").parentWindow == 12345)
        #expect(try parse("--wid", "0x1c00007").parentWindow == 0x1C00007)
        #expect(try parse("--wid", "0X1C").parentWindow == 0x1C)
        for bad in ["0", "0x", "-5", "12z", "0x1ffffffff", ""] {
            #expect(failure("--wid", bad) != nil, "\(bad)")
        }
    }

    @Test func swipeAndContentModes() throws {
        #expect(try parse("--swipe-mode", "dismiss").swipeMode == .dismiss)
        #expect(try parse("--swipe-mode=None").swipeMode == ProgramOptions.SwipeMode.none)
        #expect(try parse("--content-mode", "fill").contentMode == .fill)
        #expect(failure("--swipe-mode", "up") == "mediaview: --swipe-mode must be one of none, minimize, dismiss, got 'up'")
        #expect(failure("--content-mode", "stretch") != nil)
    }

    @Test func minimizedAspect() throws {
        #expect(try parse("--minimized-aspect", "landscape").minimizedAspectRatio == 9.0 / 16.0)
        #expect(try parse("--minimized-aspect", "square").minimizedAspectRatio == 1)
        #expect(try parse("--minimized-aspect", "portrait").minimizedAspectRatio == 16.0 / 9.0)
        #expect(try parse("--minimized-aspect", "1.2").minimizedAspectRatio == 1.2)
        #expect(try parse("--minimized-aspect", "6/5").minimizedAspectRatio == 1.2)
        #expect(try parse("--minimized-aspect", "0.1").minimizedAspectRatio == 9.0 / 16.0)   // clamped
        #expect(try parse("--minimized-aspect", "5").minimizedAspectRatio == 16.0 / 9.0)
        for bad in ["0", "-1", "wide", "1/0", "1/2/3", "inf"] {
            #expect(failure("--minimized-aspect", bad) != nil, "\(bad)")
        }
    }

    @Test func minimizedWidthRatio() throws {
        #expect(try parse("--minimized-width-ratio", "0.5").minimizedWidthRatio == 0.5)
        #expect(try parse("--minimized-width-ratio", "1").minimizedWidthRatio == 1)
        #expect(try parse("--minimized-width-ratio", "1/4").minimizedWidthRatio == 0.25)
        for bad in ["0", "1.01", "-0.2", "half"] {
            #expect(failure("--minimized-width-ratio", bad) != nil, "\(bad)")
        }
    }

    @Test func buffers() throws {
        let options = try parse("--top-buffer", "panel", "--bottom-buffer", "taskbar")
        #expect(options.topBuffer == 32 && options.bottomBuffer == 48)
        #expect(try parse("--bottom-buffer=20").bottomBuffer == 20)
        #expect(try parse("--top-buffer", "0").topBuffer == 0)
        #expect(failure("--top-buffer", "-1") != nil)
        #expect(failure("--bottom-buffer", "tall") != nil)
    }

    @Test func themeColors() throws {
        #expect(try parse("--theme-color", "#f80").themeColor == .init(red: 0xFF, green: 0x88, blue: 0))
        #expect(try parse("--theme-color", "#1A2b3C").themeColor == .init(red: 0x1A, green: 0x2B, blue: 0x3C))
        #expect(try parse("--theme-color", "Orange").themeColor == .init(red: 255, green: 165, blue: 0))
        #expect(try parse("--theme-color", "grey").themeColor == (try parse("--theme-color", "gray").themeColor))
        #expect(try parse("--theme-color", "#102030").themeColor?.pixel == 0x102030)
        for bad in ["#12", "#12345", "#1234567", "#ggg", "chartreuse", "f80", "#", "", "#１２３"] {
            #expect(failure("--theme-color", bad) != nil, "\(bad)")
        }
    }

    @Test func textAndPaths() throws {
        let options = try parse("--track-font", "DejaVu Sans", "--play-icon", "p.png", "--fail-icon", "f.png",
                                "--music-icon", "m.png", "--cache-dir", "/tmp/c", "--events", "-",
                                "--input-conf", "k.conf", "--details", "ünïcode ✓")
        #expect(options.trackFont == "DejaVu Sans" && options.playIconPath == "p.png")
        #expect(options.failIconPath == "f.png" && options.musicIconPath == "m.png")
        #expect(options.cacheDirectory == "/tmp/c" && options.eventsPath == "-" && options.inputConfPath == "k.conf")
        #expect(options.details == "ünïcode ✓")
    }

    @Test func laterOptionsWin() throws {
        #expect(try parse("--volume", "10", "--volume", "20").volume == 20)
        #expect(try parse("--swipe-mode", "none", "--swipe-mode=dismiss").swipeMode == .dismiss)
    }

    @Test func helpListsEveryOptionInGroups() {
        let help = ProgramOptions.helpText
        for spec in ProgramOptions.optionTable {
            #expect(help.contains(spec.name), "\(spec.name) missing from help")
        }
        #expect(help.hasPrefix("Usage: mediaview"))
        #expect(help.contains("panel (32)") && help.contains("taskbar (48)"))
        #expect(help.contains("(default 1/3)") && help.contains("(default minimize)"))
        for group in ProgramOptions.groupOrder {
            #expect(help.contains("\n" + group + ":\n"))
        }
        #expect(ProgramOptions.optionTable.allSatisfy { ProgramOptions.groupOrder.contains($0.group) })
        #expect(!help.split(separator: "\n").contains { $0.count > 80 })
    }
}

/// The folder options: -r, --sort, --reverse, --browse-folder.
@Suite struct FolderOptionTests {
    @Test func folderOptionsParse() throws {
        let o = try ProgramOptions.parse(["-r", "--sort", "exif-date", "--reverse", "--browse-folder", "pics"])
        #expect(o.browse.recursive && o.browse.reversed && o.browse.browseFolder)
        #expect(o.browse.order == .exifDate)
        #expect(o.inputs == ["pics"])
        let d = try ProgramOptions.parse(["pics"])
        #expect(d.browse == ProgramOptions.BrowseOptions())
        #expect(d.browse.order == .natural)
        #expect(try ProgramOptions.parse(["--recursive"]).browse.recursive)
    }

    @Test func aBadSortSaysWhatWorks() {
        #expect(throws: OptionError("--sort must be one of name, natural, mtime, size, random, exif-date, got 'date'")) {
            try ProgramOptions.parse(["--sort", "date"])
        }
    }

    @Test func helpListsTheFolderOptions() {
        for name in ["--recursive", "--sort", "--reverse", "--browse-folder"] {
            #expect(ProgramOptions.helpText.contains(name))
        }
    }
}
