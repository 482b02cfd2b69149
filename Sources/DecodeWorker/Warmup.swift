import CDelayLoad
import FoundationEssentials
import Glibc
import Playback

/// The worker's warm-up, before Landlock and seccomp: one tiny picture of each format with
/// a library that sets itself up on first use, decoded while files may still be opened.
///
/// librsvg (through Pango) loads fontconfig's configuration and cache and the default sans
/// font on the first text it draws; libheif registers its decoders, libavif and libjxl
/// detect the CPU on first use; FFmpeg and Little CMS build their tables. Confined, any of
/// that would find its files refused and the picture shown without text, or not at all.
enum Warmup {
    /// Decodes each warm-up picture `kind` needs, colour managed, and drops the answers: a
    /// photos worker only sets up FFmpeg and Little CMS with a PNG, a JPEG worker libjpeg-turbo
    /// with a JPEG, a media worker nothing.
    static func run(_ kind: WorkerKind) {
        load(libraries(for: kind))
        if kind == .subtitles { return SubtitleServing.warm() }
        // The viewer's own rule: FFmpeg's log stays quiet, the one line comes from us.
        Playback.silenceFFmpegLog()
        // A media worker only decodes packets: libavcodec needs no warm-up, and reading a
        // picture would load libavformat, whose network and container libraries it never uses.
        if kind == .media || kind == .containers { return }
        if kind == .jpegs {
            if let jpeg = Data(base64Encoded: Self.jpeg.filter { !$0.isNewline }),
               let still = try? StillWork.decodeJPEG([UInt8](jpeg), name: "warm-up.jpg", target: nil, maxPixels: 1 << 20,
                                                     displayProfile: nil),
               let answer = still.answer() {
                close(answer.fd)
            }
            return
        }
        let pixels: [UInt32] = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0x00FF_FFFF]
        var pictures: [(String, [UInt8])] = []
        if let png = PNGEncoder.encodeRGB(pixels, width: 2, height: 2) { pictures.append(("warm-up.png", png)) }
        if kind == .drawings {
            pictures.append(("warm-up.svg", Array(svg.utf8)))
            for (name, text) in [("warm-up.avif", avif), ("warm-up.heic", heic), ("warm-up.jxl", jxl)] {
                if let data = Data(base64Encoded: text.filter { !$0.isNewline }) { pictures.append((name, [UInt8](data))) }
            }
            // Before the SVG: its text then finds these fonts open.
            SVGFonts.holdOpen()
        }
        let sRGBDisplay: [UInt8]? = nil
        for (name, bytes) in pictures {
            if case .still(let picture)? = try? StillWork.decoded(bytes, name: name, target: nil, maxPixels: 1 << 20,
                                                                  displayProfile: sRGBDisplay),
               let answer = picture.answer() {
                close(answer.fd)
            }
        }
    }

    /// The libraries a worker of `kind` decodes with. The programs load them on first use,
    /// which a confined worker could not do (Landlock refuses the files), so they are loaded
    /// and bound here; a photos worker never maps librsvg, libheif, libavif or libjxl.
    static func libraries(for kind: WorkerKind) -> [delayload_library] {
        // libseccomp too: the filter is built after Landlock has closed the file system.
        let photos = [DELAYLOAD_SECCOMP, DELAYLOAD_AVFORMAT, DELAYLOAD_AVCODEC, DELAYLOAD_AVUTIL, DELAYLOAD_SWSCALE,
                      DELAYLOAD_SWRESAMPLE, DELAYLOAD_JPEG, DELAYLOAD_LCMS2, DELAYLOAD_WEBP, DELAYLOAD_WEBPDEMUX, DELAYLOAD_TIFF,
                      DELAYLOAD_PNG, DELAYLOAD_ISAL]
        switch kind {
        case .photos: return photos
        // A JPEG's frames are libavutil's, and a profile's conversion goes through libswscale.
        case .jpegs: return [DELAYLOAD_SECCOMP, DELAYLOAD_AVUTIL, DELAYLOAD_SWSCALE, DELAYLOAD_JPEG, DELAYLOAD_LCMS2]
        case .media: return [DELAYLOAD_SECCOMP, DELAYLOAD_AVCODEC, DELAYLOAD_AVUTIL]
        case .containers: return [DELAYLOAD_SECCOMP, DELAYLOAD_AVFORMAT, DELAYLOAD_AVCODEC, DELAYLOAD_AVUTIL]
        case .subtitles: return [DELAYLOAD_SECCOMP, DELAYLOAD_ASS]
        case .drawings:
            return photos + [DELAYLOAD_AVIF, DELAYLOAD_HEIF, DELAYLOAD_JXL, DELAYLOAD_RSVG, DELAYLOAD_GOBJECT,
                             DELAYLOAD_GLIB, DELAYLOAD_CAIRO]
        }
    }

    /// Loads each library, or ends the worker as a missing library would have at its start.
    private static func load(_ libraries: [delayload_library]) {
        for library in libraries {
            if let why = delayload_load(library) {
                let line = Array("mediaview-worker: \(String(cString: why))\n".utf8)
                _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                exit(127)
            }
        }
    }

    /// Text in each font `SVGFonts` holds open, so fontconfig is loaded and Pango has each
    /// file's shaping data (it keeps that for the life of the process; the file it reads it
    /// from could not be opened later).
    private static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="90" height="40" font-size="12">\
        <text x="0" y="15" font-family="sans-serif">Ag<tspan font-weight="bold">Ag</tspan>\
        <tspan font-style="italic">Ag</tspan><tspan font-style="italic" font-weight="bold">Ag</tspan></text>\
        <text x="0" y="30" font-family="serif">Ag<tspan font-weight="bold">Ag</tspan></text>\
        <text x="30" y="30" font-family="monospace">Ag</text>\
        <text x="60" y="30">Ag<tspan font-weight="bold">Ag</tspan></text></svg>
        """

    /// An 8x8 AVIF made with the format's own encoder.
    private static let avif = """
        AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUEAAADybWV0YQAAAAAAAAAoaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAA
        AGxpYmF2aWYAAAAADnBpdG0AAAAAAAEAAAAeaWxvYwAAAABEAAABAAEAAAABAAABGgAAAB8AAAAoaWluZgAAAAAAAQAAABppbmZl
        AgAAAAABAABhdjAxQ29sb3IAAAAAamlwcnAAAABLaXBjbwAAABRpc3BlAAAAAAAAAAgAAAAIAAAAEHBpeGkAAAAAAwgICAAAAAxh
        djFDgSAAAAAAABNjb2xybmNseAABAA0ABoAAAAAXaXBtYQAAAAAAAAABAAEEAQKDBAAAACdtZGF0EgAKCDgIv2EBDQaQMhEWQAYY
        YYQAAHlM7ivvCzpaVg==
        """

    /// An 8x8 HEIC made with the format's own encoder.
    private static let heic = """
        AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAaxtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
        AA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAAgACAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHQAAEAAAAAAAAAPAACAAEAAAAAAAAA
        AQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADXaXBycAAA
        ALVpcGNvAAAAdWh2Y0MBBAgAAAAAAAAAAAAe8AD8/fr6AAAPAyAAAQAXQAEMAf//BAgAAAMAnbgAAAMAAB66AkAhAAEAKkIBAQQI
        AAADAJ24AAADAAAeoCCBBNluqumubgQEDAgAAAMACAAAAwAIQCIAAQAGRAHBc8GJAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAUaXNw
        ZQAAAAAAAAAIAAAACAAAABBwaXhpAAAAAAMKCgoAAAAaaXBtYQAAAAAAAAACAAECgQIAAgIDhAAAABppcmVmAAAAAAAAAA5kaW1n
        AAIAAQABAAAARG1kYXQAAAA4KAGvBBIXSyT5V/7zq9q3SeDRM4RWJSyjVag3Zz4Pq1a8KaHFB4tn6X1QnBLQ6Mi/4vMRoLq4vbY=
        """

    /// An 8x8 JPEG made by FFmpeg.
    private static let jpeg = """
        /9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgH
        BwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABMAAEBAAAAAAAAAAAAAAAAAAAABgEBAQAAAAAAAAAAAAAAAAAABgcQ
        AQAAAAAAAAAAAAAAAAAAAAARAQAAAAAAAAAAAAAAAAAAAAD/wAARCAAIAAgDASIAAhEAAxEA/9oADAMBAAIRAxEAPwCLAFF/f//Z
        """

    /// An 8x8 JXL made with the format's own encoder.
    private static let jxl = """
        /wpBQELl3iqCCgEAAGgAADgAWABYSiixcQ1poLUDegMYbxLKif5kOgfgwwSiAQCgALF2CgCACpVRxg1ezvV8+aHDYtrGdYa22raw
        JBFKIYkkDdCTBiYrSQA=
        """
}
