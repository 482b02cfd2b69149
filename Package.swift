// swift-tools-version:6.0
import PackageDescription

/// mediaview: an X11 media viewer and the Swift library it is built from.
///
/// Dependencies point one way: mediaview -> ViewerProgram -> MPRIS -> Viewer -> Windowing, Playback, SessionBus;
/// Playback -> Web, ThumbnailCache -> MediaCore, Playback -> Subtitles; all of them -> C modules.
/// Windowing never imports FFmpeg; Playback never imports X11.
/// The stubs that load the codec and picture libraries on first use are x86-64 assembly;
/// on other processors the libraries are linked as usual.
#if arch(x86_64)
let delayLoadedElsewhere: [LinkerSetting] = []
#else
let delayLoadedElsewhere: [LinkerSetting] = ["avformat", "avcodec", "avutil", "swscale", "swresample", "webpdemux",
    "webp", "jpeg", "lcms2", "avif", "heif", "jxl", "rsvg-2", "gobject-2.0", "glib-2.0", "cairo", "ass", "rubberband",
    "pulse", "seccomp", "tiff", "png16", "freetype", "fontconfig", "isal"]
    .map { .linkedLibrary($0) }
#endif

let package = Package(
    name: "mediaview",
    products: [
        .library(name: "Viewer", targets: ["Viewer"]),
        .library(name: "MPRIS", targets: ["MPRIS"]),
        .library(name: "ViewerUIKitCompat", targets: ["ViewerUIKitCompat"]),
        .executable(name: "mediaview", targets: ["mediaview"]),
        .executable(name: "mediaview-worker", targets: ["mediaview-worker"]),
    ],
    targets: [
        .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11 xext xrandr"),
        // The codec and picture libraries' modules name no library to link: CDelayLoad loads
        // each on the first call of one of its functions (see its header).
        .target(name: "CDelayLoad", path: "Sources/CDelayLoad", linkerSettings: delayLoadedElsewhere),
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        // No pkgConfig: libpulse's .pc file adds -D_REENTRANT and -pthread, which SwiftPM refuses
        // (with a warning in every app that depends on the library); CDelayLoad loads it.
        .systemLibrary(name: "CPulse", path: "Sources/CPulse"),
        // FreeType and fontconfig for the interface's text, loaded by CDelayLoad when text is
        // first drawn; a C target so that its include folder can bring FreeType's headers.
        .target(name: "CFreeType", dependencies: ["CDelayLoad"], path: "Sources/CFreeType"),
        // libpng, for PNG files the program ships; CDelayLoad loads it on the first call.
        .systemLibrary(name: "CPNG", path: "Sources/CPNG"),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP"),
        .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1"),
        // libjpeg-turbo for JPEG stills, scaled while decoding; C because its errors longjmp.
        .target(name: "CJPEG", dependencies: ["CDelayLoad"], path: "Sources/CJPEG"),
        // PNG and TIFF pictures too large to hold whole, read a few rows at a time: C because
        // libpng's errors longjmp and libtiff's go to a handler for the whole process.
        .target(name: "CRows", dependencies: ["CDelayLoad"], path: "Sources/CRows"),
        // Pictures FFmpeg 5.1 cannot open or animate: AVIF, HEIC, animated JPEG XL, SVG drawn at
        // the size shown; and Little CMS to show them (and every other still) in the display's colours.
        .systemLibrary(name: "CAVIF", path: "Sources/CAVIF"),
        .systemLibrary(name: "CHEIF", path: "Sources/CHEIF"),
        .systemLibrary(name: "CJXL", path: "Sources/CJXL"),
        .systemLibrary(name: "CRSVG", path: "Sources/CRSVG"),
        .systemLibrary(name: "CLCMS", path: "Sources/CLCMS"),
        // libass draws subtitles over the video.
        .systemLibrary(name: "CASS", path: "Sources/CASS"),
        // Rubber Band keeps the sound's pitch when media plays faster or slower.
        .systemLibrary(name: "CRubberBand", path: "Sources/CRubberBand"),
        // The decode worker's confinement (prctl, rlimits, namespaces, Landlock, seccomp) and
        // fd passing: C because Landlock has no libc wrapper and SCM_RIGHTS needs CMSG macros.
        .target(name: "CSandbox", dependencies: ["CDelayLoad"], path: "Sources/CSandbox"),
        // The video scaler's horizontal pass: C for SSSE3's byte shuffle, chosen at run time.
        .target(name: "CScale", path: "Sources/CScale"),
        // Video frames a worker decodes straight into memfds the viewer maps: C because
        // libavcodec calls its buffer allocator and their free callbacks from its own threads.
        .target(name: "CFrameShare", dependencies: ["CDelayLoad"], path: "Sources/CFrameShare"),
        // What every media module shares: the error type, locks and threads, file names.
        .target(name: "MediaCore", dependencies: ["CFFmpeg", "CDelayLoad"]),
        // Where a source's bytes come from: memory, the disk cache, or the HTTP client
        // (copied into the caches on the way); and the options a source is opened with.
        .target(name: "Web", dependencies: ["MediaCore", "CFFmpeg"]),
        // Subtitle events bounded and drawn with libass; what decodes them (FFmpeg) stays in Playback.
        .target(name: "Subtitles", dependencies: ["CASS", "CDelayLoad"]),
        // The desktop's shared thumbnail cache (freedesktop.org): PNG files, their text
        // chunks, and folders only their owner may write; decoding the pictures stays in Playback.
        .target(name: "ThumbnailCache", dependencies: ["MediaCore", "CFFmpeg"]),
        .target(name: "Playback", dependencies: ["MediaCore", "Web", "Subtitles", "ThumbnailCache", "CSandbox", "CScale", "CFrameShare", "CFFmpeg", "CPulse", "CWebP", "CJPEG", "CRows",
                                                 "CAVIF", "CHEIF", "CJXL", "CRSVG", "CLCMS", "CASS", "CRubberBand", "CDelayLoad"]),
        .target(name: "Windowing", dependencies: ["CX11", "CFreeType", "CPNG", "CDelayLoad"]),
        // The session bus (libdbus), joined to the main loop; no X11, no FFmpeg.
        .target(name: "SessionBus", dependencies: ["CDBus"]),
        .target(name: "Viewer", dependencies: ["Playback", "MediaCore", "Web", "Subtitles", "ThumbnailCache", "Windowing"]),
        // MediaView's spellings that need Foundation (CGFloat, Notification), kept out of
        // Viewer so the program stays free of Foundation.
        .target(name: "ViewerUIKitCompat", dependencies: ["Viewer"]),
        // A queue as an MPRIS2 player on the session bus, through the queue's public API.
        .target(name: "MPRIS", dependencies: ["Viewer", "Playback", "MediaCore", "Web", "SessionBus"]),
        // The program's policy: options, the event log, signals, the exit status.
        .target(name: "ViewerProgram", dependencies: ["Viewer", "MPRIS", "Playback", "MediaCore", "Web", "ThumbnailCache"]),
        .executableTarget(name: "mediaview", dependencies: ["ViewerProgram"]),
        // Decodes stills for the viewer in a sandboxed process (no files, no network, seccomp).
        .executableTarget(name: "mediaview-worker", dependencies: ["Playback", "Subtitles", "CSandbox", "CDelayLoad"], path: "Sources/DecodeWorker"),
        // The parsers under libFuzzer (make fuzz), or a replay of the corpus (make test).
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzParsers", dependencies: ["FuzzDriver", "ViewerProgram", "Viewer", "MPRIS", "SessionBus", "Playback",
                                                              "Web", "ThumbnailCache", "Windowing"]),
        // Media bytes through demux, decode, scale and the still decoders (make fuzz-media).
        .executableTarget(name: "FuzzMedia", dependencies: ["FuzzDriver", "Playback"]),
        // Shared by the test targets: fixtures made with ffmpeg, pixel and sound probes.
        // lcms2 there too: the colour tests make their ICC profiles and compute the colours they expect.
        .target(name: "TestSupport", dependencies: ["CX11", "Windowing", "CLCMS", "CDelayLoad"], path: "Tests/TestSupport"),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "MediaCore", "Web", "Subtitles", "ThumbnailCache", "TestSupport"]),
        // The HTTP client and the caches, through a player against the test HTTP servers.
        .testTarget(name: "SubtitlesTests", dependencies: ["Subtitles"]),
        // The thumbnail cache's files, with pictures made and read through Playback.
        .testTarget(name: "ThumbnailCacheTests", dependencies: ["ThumbnailCache", "Playback", "TestSupport"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "MediaCore", "Playback", "TestSupport"]),
        .testTarget(name: "WindowingTests", dependencies: ["Windowing", "CX11", "TestSupport"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "Playback", "MediaCore", "Web", "TestSupport"]),
        .testTarget(name: "ViewerProgramTests", dependencies: ["ViewerProgram", "TestSupport"]),
        .testTarget(name: "MediaviewTests", dependencies: ["mediaview", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
