import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// The codec and picture libraries and PulseAudio are loaded on first use: a viewer
    /// showing photos or animations that its workers decoded never maps them, and one
    /// playing a video maps FFmpeg when it starts.
    @Suite(.serialized) struct LibraryLoading {
        /// Libraries that parse or convert media, and FFmpeg's utility library under them;
        /// none belongs in a viewer showing a worker's photo, which arrives over the worker's
        /// memory and is drawn by the viewer's own still scaler.
        static let parsers = ["libavutil", "libavcodec", "libavformat", "libswresample", "libswscale", "libjpeg", "libwebp", "libavif",
                              "libheif", "libde265", "libjxl", "librsvg", "liblcms2", "libass", "libdav1d", "libtiff", "libpng16"]
        /// The interface's font libraries: loaded when the first line of text is drawn.
        static let fonts = ["libfreetype.so", "libfontconfig.so"]

        /// The shared objects `pid` maps, by file name. Read with cat: Foundation trusts the
        /// size procfs reports, 0, and reads nothing.
        private func mapped(_ pid: Int32) throws -> Set<String> {
            let maps = try Run.process("cat", ["/proc/\(pid)/maps"]).stdout
            try #require(maps.contains(".so"), "could not read the maps of \(pid)")
            return Set(maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init)
            }.filter { $0.contains(".so") }.map { ($0 as NSString).lastPathComponent })
        }

        private func parsers(in libraries: Set<String>) -> [String] {
            libraries.filter { name in Self.parsers.contains { name.hasPrefix($0 + ".so") || name.hasPrefix($0 + "-") } }.sorted()
        }

        @Test func aPhotoFromTheWorkerLeavesTheParsersOutOfTheViewer() throws {
            let photo = try Fixtures.solidImage("blue", width: 640, height: 480, ext: "jpg")
            let s = try RunningViewer([photo])
            #expect(s.shows(0x0000FF), "the photo is not on screen; stderr: \(s.run.stderr)")
            let libraries = try mapped(s.run.pid)
            #expect(parsers(in: libraries).isEmpty, "the viewer maps \(parsers(in: libraries))")
            // Nor the sound server's library: a photo has no sound. Nor, with no text on
            // screen yet, the font libraries.
            #expect(!libraries.contains { $0.hasPrefix("libpulse.so") }, "\(libraries.sorted())")
            #expect(!libraries.contains { name in Self.fonts.contains { name.hasPrefix($0) } }, "\(libraries.sorted())")
            // The worker that decoded it has them: the photo did go through the parsers. It is
            // a JPEG's own, forked before FFmpeg was loaded: none of FFmpeg's demuxers or
            // decoders, nor the hundred libraries they bring.
            let workers = try Run.process("pgrep", ["-P", String(s.run.pid), "-f", "mediaview-worker jpegs"]).stdout
                .split(separator: "\n").compactMap { Int32($0) }
            let worker = try #require(workers.first, "no worker beside the viewer")
            let theirs = try mapped(worker)
            #expect(parsers(in: theirs).contains { $0.hasPrefix("libjpeg") })
            #expect(!theirs.contains { $0.hasPrefix("libavformat") || $0.hasPrefix("libavcodec") }, "\(theirs.sorted())")
        }

        /// The first text drawn loads FreeType and fontconfig: `i` over a photo shows its facts
        /// in white letters, and only then does the viewer map the font libraries (with the
        /// libpng FreeType links) and still none of the parsers.
        @Test func theFirstTextLoadsTheFontLibraries() throws {
            let v = try RunningViewer([try Fixtures.cameraPhoto()])
            #expect(v.shows(RGB.red))
            let before = try mapped(v.run.pid)
            #expect(!before.contains { name in Self.fonts.contains { name.hasPrefix($0) } }, "\(before.sorted())")
            try v.key("i")
            let letters = v.window.waitFor(v.probe, timeout: 5) { img in
                img.fraction(matching: 0xFFFFFF, x: 16, y: 16, width: 280, height: 150, tolerance: 60) > 0.01
            }
            #expect(letters != nil, "i drew no text")
            let after = try mapped(v.run.pid)
            for font in Self.fonts { #expect(after.contains { $0.hasPrefix(font) }, "no \(font) after text: \(after.sorted())") }
            #expect(parsers(in: after).allSatisfy { $0.hasPrefix("libpng16.so") }, "the viewer maps \(parsers(in: after))")
            #expect(v.run.stderr.isEmpty, "\(v.run.stderr)")
        }

        /// A GIF plays frame by frame from a worker: the viewer shows each colour in turn and
        /// never maps a parser of its own.
        @Test func aGIFFromTheWorkerLeavesTheParsersOutOfTheViewer() throws {
            let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 30, size: 96)
            let s = try RunningViewer([gif])
            #expect(s.shows(0xFF0000) && s.shows(0x0000FF) && s.shows(0xFF0000),
                    "the GIF does not play red, blue, red again; stderr: \(s.run.stderr)")
            let libraries = try mapped(s.run.pid)
            #expect(parsers(in: libraries).isEmpty, "the viewer maps \(parsers(in: libraries))")
            #expect(s.run.stderr.isEmpty, "\(s.run.stderr)")
        }

        /// A sandboxed film leaves FFmpeg's demuxers and decoders, and the hundred libraries
        /// they link, in its workers: the viewer maps only libavutil, libswscale and
        /// libswresample (the stand-in container, packets, conversion into the window and the
        /// sound's resampling) and still plays picture and sound.
        @Test func aSandboxedFilmLeavesFFmpegsCodecsInTheWorkers() throws {
            let clip = try Fixtures.solidVideo("red", seconds: 3, tone: 440)
            let s = try RunningViewer([clip], until: "played", sound: true)
            #expect(s.shows(0xFF0000), "the video is not on screen; stderr: \(s.run.stderr)")
            let libraries = try mapped(s.run.pid)
            let codecs = ["libavcodec", "libavformat", "libx264", "libx265", "libdav1d", "libvpx", "librsvg"]
            let inViewer = libraries.filter { name in codecs.contains { name.hasPrefix($0 + ".so") || name.hasPrefix($0 + "-") } }
            #expect(inViewer.isEmpty, "the viewer maps \(inViewer.sorted())")
            #expect(libraries.contains { $0.hasPrefix("libswscale.so") }, "\(libraries.sorted())")
            let workers = try Run.process("pgrep", ["-P", String(s.run.pid), "-f", "mediaview-worker media"]).stdout
                .split(separator: "\n").compactMap { Int32($0) }
            let worker = try #require(workers.first, "no media worker beside the viewer")
            #expect(try mapped(worker).contains { $0.hasPrefix("libavcodec.so") })
            #expect(s.run.stderr.isEmpty, "\(s.run.stderr)")
        }

        /// With the sandbox off the viewer decodes the film itself, and loads FFmpeg when it plays.
        @Test func aFilmWithoutTheSandboxLoadsFFmpegWhenItPlays() throws {
            let clip = try Fixtures.solidVideo("red", seconds: 3)
            let s = try RunningViewer(["--sandbox=off", clip])
            #expect(s.shows(0xFF0000), "the video is not on screen; stderr: \(s.run.stderr)")
            let libraries = try mapped(s.run.pid)
            #expect(libraries.contains { $0.hasPrefix("libavcodec.so") }, "\(libraries.sorted())")
            #expect(s.run.stderr.isEmpty, "\(s.run.stderr)")
        }
    }
}
