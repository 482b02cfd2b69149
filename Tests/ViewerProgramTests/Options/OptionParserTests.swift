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

    @Test func defaultsFollowMediaViewAndTheDesktop() throws {
        let options = try parse()
        #expect(options.inputs.isEmpty)
        #expect(options.scripts.imageDuration == 5)
        #expect(options.playback.autoplay && !options.playback.loop && !options.playback.dismissAfterFinish)
        #expect(options.minimizing.swipeMode == .minimize)
        #expect(options.minimizing.aspectRatio == 9.0 / 16.0)
        #expect(options.minimizing.widthRatio == 1.0 / 3.0)
        #expect(options.playback.volume == 100 && !options.playback.muted)
        #expect(options.cache.maxPixels == 100_000_000)
        #expect(options.cache.timeout == 15)
        #expect(options.playback.contentMode == .fit && !options.window.windowed && options.scripts.audioEnabled)
    }

    @Test func inputsKeepOrderAndDashIsAnInput() throws {
        let options = try parse("a.png", "--autoexit", "-", "http://x/b.gif", "--", "--not-an-option", "-h")
        #expect(options.inputs == ["a.png", "-", "http://x/b.gif", "--not-an-option", "-h"])
        #expect(options.scripts.autoexit)
        #expect(!options.information.showHelp)
    }

    @Test func bothValueForms() throws {
        let spaced = try parse("--frames", "30", "--title", "A = B")
        let joined = try parse("--frames=30", "--title=A = B")
        #expect(spaced == joined)
        #expect(joined.scripts.frameLimit == 30 && joined.look.title == "A = B")
        // The value may itself look like an option or be empty where text is allowed.
        #expect(try parse("--title", "--loop").look.title == "--loop")
        #expect(try parse("--details=").look.details == "")
    }

    @Test func flags() throws {
        let options = try parse("-h", "--version", "--list-bindings", "--no-audio", "--benchmark", "--loop",
                                "--no-autoplay", "--dismiss-after-finish", "--remaining-time", "--video-aspect-fit",
                                "--hide-close-button", "--hide-play-button", "--no-cache", "--preload", "--mute",
                                "--no-track", "--windowed")
        #expect(options.information.showHelp && options.information.showVersion && options.information.listBindings)
        #expect(!options.scripts.audioEnabled && options.scripts.benchmark && options.playback.loop && !options.playback.autoplay)
        #expect(options.playback.dismissAfterFinish && options.look.remainingTime && options.playback.videoAspectFit)
        #expect(options.look.hideCloseButton && options.look.hidePlayButton && !options.cache.enabled)
        #expect(options.cache.preload && options.playback.muted && !options.look.showTrack && options.window.windowed)
        #expect(try parse("--windowed", "--fullscreen").window.windowed == false)
        #expect(try parse("--no-track", "--show-track").look.showTrack)
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

    @Test func pointerHidingReadsMpvsValues() throws {
        #expect(try parse().window.pointerHiding == .withControls)
        #expect(try parse("--cursor-autohide=no").window.pointerHiding == .never)
        #expect(try parse("--cursor-autohide", "always").window.pointerHiding == .always)
        #expect(try parse("--cursor-autohide=1000").window.pointerHiding == .afterIdle(seconds: 1))
        #expect(try parse("--cursor-autohide=0").window.pointerHiding == .afterIdle(seconds: 0))
        #expect(try parse("--cursor-autohide=with-controls").window.pointerHiding == .withControls)
        // Each value reads back as the word or number that makes it again.
        for hiding in [PointerHiding.withControls, .never, .always, .afterIdle(seconds: 1.25)] {
            #expect(try ProgramOptions.pointerHiding(ProgramOptions.cursorAutohide(hiding)) == hiding)
        }
        for bad in ["yes", "-5", "1.5", "", "99999999999999999999"] {
            #expect(failure("--cursor-autohide=" + bad)
                    == "mediaview: --cursor-autohide must be no, always, with-controls or milliseconds, got '\(bad)'")
        }
    }

    @Test func interfaceScaleAndPreviews() throws {
        #expect(try parse().look.uiScalePercent == nil)
        #expect(try parse().look.trackPreviews)
        #expect(try parse("--ui-scale", "1.5").look.uiScalePercent == 150)
        #expect(try parse("--ui-scale=2x").look.uiScalePercent == 200)
        #expect(try parse("--ui-scale", "1").look.uiScalePercent == 100)
        #expect(try parse("--ui-scale", "2", "--ui-scale", "auto").look.uiScalePercent == nil)
        #expect(try parse("--no-track-previews").look.trackPreviews == false)
        #expect(failure("--ui-scale", "3") == "mediaview: --ui-scale must be 1, 1.5, 2 or auto, got '3'")
        #expect(failure("--ui-scale", "") != nil)
        #expect(failure("--ui-scale", "nan") != nil)
        #expect(failure("--ui-scale", "-2") != nil)
    }

    @Test func numbersAreStored() throws {
        let options = try parse("--image-duration", "0.5", "--volume", "0", "--timeout=2.5", "--max-pixels", "4096")
        #expect(options.scripts.imageDuration == 0.5 && options.playback.volume == 0 && options.cache.timeout == 2.5 && options.cache.maxPixels == 4096)
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
        #expect(try parse("--geometry", "800x600").window.geometry == .init(width: 800, height: 600))
        #expect(try parse("--geometry=640X480+10+20").window.geometry == .init(width: 640, height: 480, x: 10, y: 20))
        #expect(try parse("--geometry", "320x200-1920+0").window.geometry == .init(width: 320, height: 200, x: -1920, y: 0))
        for bad in ["0x600", "800x0", "-800x600", "800x", "x600", "800", "800x600+10", "800x600+a+b",
                    "800x600+1+2+3", "99999x10", "800x600 ", "８00x600"] {
            #expect(failure("--geometry", bad) != nil, "\(bad)")
        }
    }

    @Test func windowID() throws {
        #expect(try parse("--wid", "12345").window.parentWindow == 12345)
        #expect(try parse("--wid", "0x1c00007").window.parentWindow == 0x1C00007)
        #expect(try parse("--wid", "0X1C").window.parentWindow == 0x1C)
        for bad in ["0", "0x", "-5", "12z", "0x1ffffffff", ""] {
            #expect(failure("--wid", bad) != nil, "\(bad)")
        }
    }

    @Test func swipeAndContentModes() throws {
        #expect(try parse("--swipe-mode", "dismiss").minimizing.swipeMode == .dismiss)
        #expect(try parse("--swipe-mode=None").minimizing.swipeMode == ProgramOptions.SwipeMode.none)
        #expect(try parse("--content-mode", "fill").playback.contentMode == .fill)
        #expect(failure("--swipe-mode", "up") == "mediaview: --swipe-mode must be one of none, minimize, dismiss, got 'up'")
        #expect(failure("--content-mode", "stretch") != nil)
    }

    @Test func minimizedAspect() throws {
        #expect(try parse("--minimized-aspect", "landscape").minimizing.aspectRatio == 9.0 / 16.0)
        #expect(try parse("--minimized-aspect", "square").minimizing.aspectRatio == 1)
        #expect(try parse("--minimized-aspect", "portrait").minimizing.aspectRatio == 16.0 / 9.0)
        #expect(try parse("--minimized-aspect", "1.2").minimizing.aspectRatio == 1.2)
        #expect(try parse("--minimized-aspect", "6/5").minimizing.aspectRatio == 1.2)
        #expect(try parse("--minimized-aspect", "0.1").minimizing.aspectRatio == 9.0 / 16.0)   // clamped
        #expect(try parse("--minimized-aspect", "5").minimizing.aspectRatio == 16.0 / 9.0)
        for bad in ["0", "-1", "wide", "1/0", "1/2/3", "inf"] {
            #expect(failure("--minimized-aspect", bad) != nil, "\(bad)")
        }
    }

    @Test func minimizedWidthRatio() throws {
        #expect(try parse("--minimized-width-ratio", "0.5").minimizing.widthRatio == 0.5)
        #expect(try parse("--minimized-width-ratio", "1").minimizing.widthRatio == 1)
        #expect(try parse("--minimized-width-ratio", "1/4").minimizing.widthRatio == 0.25)
        for bad in ["0", "1.01", "-0.2", "half"] {
            #expect(failure("--minimized-width-ratio", bad) != nil, "\(bad)")
        }
    }

    @Test func buffers() throws {
        let options = try parse("--top-buffer", "panel", "--bottom-buffer", "taskbar")
        #expect(options.minimizing.topBuffer == 32 && options.minimizing.bottomBuffer == 48)
        #expect(try parse("--bottom-buffer=20").minimizing.bottomBuffer == 20)
        #expect(try parse("--top-buffer", "0").minimizing.topBuffer == 0)
        #expect(failure("--top-buffer", "-1") != nil)
        #expect(failure("--bottom-buffer", "tall") != nil)
    }

    @Test func themeColors() throws {
        #expect(try parse("--theme-color", "#f80").look.themeColor == .init(red: 0xFF, green: 0x88, blue: 0))
        #expect(try parse("--theme-color", "#1A2b3C").look.themeColor == .init(red: 0x1A, green: 0x2B, blue: 0x3C))
        #expect(try parse("--theme-color", "Orange").look.themeColor == .init(red: 255, green: 165, blue: 0))
        #expect(try parse("--theme-color", "grey").look.themeColor == (try parse("--theme-color", "gray").look.themeColor))
        #expect(try parse("--theme-color", "#102030").look.themeColor?.pixel == 0x102030)
        for bad in ["#12", "#12345", "#1234567", "#ggg", "chartreuse", "f80", "#", "", "#１２３"] {
            #expect(failure("--theme-color", bad) != nil, "\(bad)")
        }
    }

    @Test func textAndPaths() throws {
        let options = try parse("--track-font", "DejaVu Sans", "--play-icon", "p.png", "--fail-icon", "f.png",
                                "--music-icon", "m.png", "--cache-dir", "/tmp/c", "--events", "-",
                                "--input-conf", "k.conf", "--details", "ünïcode ✓")
        #expect(options.look.trackFont == "DejaVu Sans" && options.look.playIconPath == "p.png")
        #expect(options.look.failIconPath == "f.png" && options.look.musicIconPath == "m.png")
        #expect(options.cache.directory == "/tmp/c" && options.scripts.eventsPath == "-" && options.information.inputConfPath == "k.conf")
        #expect(options.look.details == "ünïcode ✓")
    }

    @Test func laterOptionsWin() throws {
        #expect(try parse("--volume", "10", "--volume", "20").playback.volume == 20)
        #expect(try parse("--swipe-mode", "none", "--swipe-mode=dismiss").minimizing.swipeMode == .dismiss)
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
        #expect(o.folders.recursive && o.folders.reversed && o.folders.browseFolder)
        #expect(o.folders.sort == .exifDate)
        #expect(o.inputs == ["pics"])
        let d = try ProgramOptions.parse(["pics"])
        #expect(d.folders == ProgramOptions.Folders())
        #expect(d.folders.sort == .natural)
        #expect(try ProgramOptions.parse(["--recursive"]).folders.recursive)
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
