import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Subtitle scripts that ask libass for gigabytes or minutes: the video opens, the
    /// window answers, memory stays bounded, and the ordinary line of the same script shows.
    @Suite struct HostileSubtitles {
        /// Where the hostile script comes from.
        enum Carrier: String, CaseIterable, Sendable {
            /// `film.ass` beside `film.mp4`.
            case beside
            /// An ASS track inside a Matroska file.
            case mkv
        }

        /// An ASS script whose first event is a line of white blocks at the bottom for all
        /// 20 s, followed by `hostile` events due over the same time.
        static func script(_ hostile: [String]) -> String {
            let header = """
                [Script Info]
                ScriptType: v4.00+
                PlayResX: 384
                PlayResY: 288

                [V4+ Styles]
                Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, \
                Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, \
                MarginV, Encoding
                Style: Default,DejaVu Sans,18,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1

                [Events]
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

                """
            let good = "Dialogue: 0,0:00:00.00,0:00:20.00,Default,,0,0,0,,{\\fs40}\u{2588}\u{2588}\u{2588}\u{2588}\u{2588}\u{2588}"
            let rest = hostile.map { "Dialogue: 0,0:00:00.01,0:00:20.00,Default,,0,0,0,,\($0)" }
            return header + ([good] + rest).joined(separator: "\n") + "\n"
        }

        /// A 20 s blue video carrying `script` as `carrier` says.
        static func media(_ label: String, _ script: String, _ carrier: Carrier) throws -> String {
            let video = try Fixtures.solidVideo("blue", width: 640, height: 360, seconds: 20)
            let dir = try Scratch.directory("hostile-sub-\(label)")
            let ass = dir + "/film.ass"
            try script.write(toFile: ass, atomically: true, encoding: .utf8)
            switch carrier {
            case .beside:
                try FileManager.default.copyItem(atPath: video, toPath: dir + "/film.mp4")
                return dir + "/film.mp4"
            case .mkv:
                let out = dir + "/film.mkv"
                let r = try Run.process("ffmpeg", ["-loglevel", "error", "-y", "-i", video, "-i", ass, "-map", "0:v", "-map", "1:s",
                                                   "-c:v", "copy", "-c:s", "ass", out], timeout: 60)
                guard r.status == 0 else { throw FixtureError("ffmpeg: \(r.stderr)") }
                try FileManager.default.removeItem(atPath: ass)
                return out
            }
        }

        /// The most memory the process has held, in MiB (VmHWM).
        static func peakMiB(_ pid: Int32) -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 / 1024 }
        }

        /// Plays `media` in a 960x540 window: the video opens within 30 s (a busy machine
        /// reads 20,000 lines slowly), a key is answered within 5 s, the ordinary line shows,
        /// and the peak memory stays under 600 MiB.
        private func playsBounded(_ media: String, _ what: String) throws {
            let log = try Scratch.directory("hostile-sub-log") + "/events.jsonl"
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "960x540+0+0", "--no-audio", "--events", log, media])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let opened = Events.waitFor(log, "first_frame", index: 0, timeout: 30)
            try #require(opened != nil, "\(what): the video did not open within 30 s; peak \(Self.peakMiB(run.pid) ?? -1) MiB")
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            try xdotool(["key", "--window", String(window.id), "space"])
            #expect(Events.waitFor(log, "paused", index: 0, timeout: 5) != nil, "\(what): a key was not answered within 5 s")
            let shown = window.waitFor(probe, timeout: 5) { Subtitles.subtitlePixels($0) > 300 }
            #expect(shown != nil, "\(what): the ordinary line of the script is not drawn")
            let peak = try #require(Self.peakMiB(run.pid))
            #expect(peak < 600, "\(what): the program held \(peak) MiB")
            #expect(run.process.isRunning, "\(what): the program ended; stderr: \(run.stderr)")
        }

        /// Borders and shadows of 10,000 pixels.
        @Test(arguments: Carrier.allCases)
        func hugeBordersAndShadowsAreBounded(carrier: Carrier) throws {
            let line = "{\\an8\\1c&H0000FF&\\bord10000\\shad10000}Hello"
            try playsBounded(try Self.media("bord", Self.script([line]), carrier), "\\bord10000\\shad10000 (\(carrier))")
        }

        /// 200 letters at the largest size and scale each tag allows on its own.
        @Test func hugeLettersWithinEachTagsBoundAreNotDrawn() throws {
            let line = "{\\an8\\1c&H0000FF&\\fs400\\fscx400\\fscy400}" + String(repeating: "W", count: 200)
            try playsBounded(try Self.media("letters", Self.script([line]), .beside), "200 W at \\fs400\\fscx400\\fscy400")
        }

        /// 20,000 short red lines due at once (libass places each against all the others).
        @Test func twentyThousandLinesAtOnceLeaveTheWindowAnswering() throws {
            let lines = (0..<19_999).map { "{\\an8\\1c&H0000FF&\\fs8}x\($0)" }
            try playsBounded(try Self.media("crowd", Self.script(lines), .beside), "20,000 lines at once")
        }
    }
}
