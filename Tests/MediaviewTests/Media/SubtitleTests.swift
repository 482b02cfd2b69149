import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Subtitles as a person sees them: lines drawn over the video while they are due,
    /// hidden with `v`, stepped through with `j`; sound tracks heard switching with `#`.
    @Suite struct Subtitles {
        /// Pixels of a subtitle in `color` (white or yellow) in the lower half of the picture.
        static func subtitlePixels(_ img: Image, yellow: Bool = false) -> Int {
            var n = 0
            for y in img.height / 2..<img.height {
                for x in 0..<img.width {
                    let p = img.pixel(x, y)
                    let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    if yellow ? (r > 200 && g > 200 && b < 90) : (r > 200 && g > 200 && b > 200) { n += 1 }
                }
            }
            return n
        }

        /// Plays `media` in a 320x240 window and grabs it until it ends: for each grab, the
        /// colour at the left middle (which second of `colourSeconds` shows) and how many
        /// subtitle pixels there are.
        private func watch(_ args: [String]) throws -> (seen: [(colour: UInt32, subtitle: Int)], end: Launched.Ended?) {
            let probe = try ScreenProbe()
            let run = try Launched(["--autoexit", "--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-track"] + args)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            var seen: [(UInt32, Int)] = []
            let start = Date()
            while Date().timeIntervalSince(start) < 12 {
                let img = window.grab(probe)
                guard img.width == 320 else { break }
                seen.append((img.pixel(4, img.height / 2) & 0xFFFFFF, Self.subtitlePixels(img)))
                if run.process.isRunning == false { break }
                usleep(20_000)
            }
            return (seen, run.finish(timeout: 10))
        }

        /// The second of `colourSeconds` a colour is, if it is one of them.
        private func second(of colour: UInt32) -> Int? {
            Fixtures.secondColours.firstIndex { Image.close($0.rgb, colour, tolerance: 40) }
        }

        /// Asserts that the subtitle showed in every grab of second 2 (blue), and in none
        /// of the seconds before or after.
        private func expectOnlyInSecondTwo(_ seen: [(colour: UInt32, subtitle: Int)], _ what: String) {
            let during = seen.filter { second(of: $0.colour) == 2 }
            let outside = seen.filter { second(of: $0.colour).map { $0 != 2 } ?? false }
            #expect(during.count >= 5, "\(what): only \(during.count) grabs of the cue's second")
            #expect(outside.count >= 20, "\(what): only \(outside.count) grabs outside it")
            #expect(during.allSatisfy { $0.subtitle > 300 },
                    "\(what): the cue was missing while due: \(during.map(\.subtitle))")
            let stray = outside.filter { $0.subtitle > 0 }
            #expect(stray.isEmpty, "\(what): subtitle pixels outside the cue: \(stray.map { (second(of: $0.colour) ?? -1, $0.subtitle) })")
        }

        /// A SubRip file beside the video, with its base name, shows its line from 2 s to 3 s:
        /// not before, not after.
        @Test func srtBesideTheVideoShowsOnlyWhileDue() throws {
            let dir = try Scratch.directory("sub-beside")
            let video = dir + "/film.mp4"
            try FileManager.default.copyItem(atPath: try Fixtures.colourSeconds(), toPath: video)
            try Fixtures.srtText([Fixtures.Cue(2, 3, Fixtures.blocks())]).write(toFile: dir + "/film.srt", atomically: true, encoding: .utf8)
            let (seen, end) = try watch([video])
            let e = try #require(end, "the program did not end")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
            expectOnlyInSecondTwo(seen, "film.srt")
        }

        /// The same line inside the video (SubRip in Matroska, mov_text in MP4) shows the same way.
        @Test(arguments: [("srt", "mkv"), ("mov_text", "mp4")])
        func embeddedTrackShowsOnlyWhileDue(codec: String, ext: String) throws {
            let srt = try Fixtures.srt("embedded-cue.srt", [Fixtures.Cue(2, 3, Fixtures.blocks())])
            let video = try Fixtures.withSubtitles(try Fixtures.colourSeconds(), srt, codec: codec, ext: ext, name: "colour-seconds-\(codec)")
            let (seen, end) = try watch([video])
            let e = try #require(end, "the program did not end")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
            expectOnlyInSecondTwo(seen, "\(codec) in \(ext)")
        }

        /// `v` hides and shows the subtitles; `j` steps from the file's track (white) to the
        /// video's own (yellow), then to none, then back to the first.
        @Test func keysHideAndCycleSubtitleTracks() throws {
            let embedded = try Fixtures.srt("yellow-20s.srt", [Fixtures.Cue(0, 20, Fixtures.blocks("#ffff00"))])
            let video = try Fixtures.withSubtitles(try Fixtures.solidVideo("blue", seconds: 20), embedded, codec: "srt",
                                                   ext: "mkv", name: "blue-20s-yellow-sub")
            let external = try Fixtures.srt("white-20s.srt", [Fixtures.Cue(0, 20, Fixtures.blocks())])
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-track", "--sub-file", external, video])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            func key(_ name: String) throws { try xdotool(["key", "--window", String(window.id), name]) }
            func shows(white: Bool, yellow: Bool) -> Bool {
                window.waitFor(probe, timeout: 6) { img in
                    let w = Self.subtitlePixels(img), y = Self.subtitlePixels(img, yellow: true)
                    return (white ? w > 300 : w == 0) && (yellow ? y > 300 : y == 0)
                } != nil
            }
            #expect(shows(white: true, yellow: false), "the --sub-file track is not shown first")
            try key("v")
            #expect(shows(white: false, yellow: false), "v did not hide the subtitles")
            try key("v")
            #expect(shows(white: true, yellow: false), "a second v did not show them again")
            try key("j")
            #expect(shows(white: false, yellow: true), "j did not step to the video's own track")
            try key("j")
            #expect(shows(white: false, yellow: false), "j after the last track did not turn subtitles off")
            try key("j")
            #expect(shows(white: true, yellow: false), "j from off did not come back to the first track")
            // xdotool may find the window gone as it finishes: the quit is what is checked.
            try pressQuit(on: window.id)
            let e = try #require(run.finish(timeout: 10), "q did not end the program")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
        }

        /// `#` switches from the English sound track (440 Hz) to the German one (1000 Hz),
        /// which is heard from then on without a silence.
        @Test func sharpSwitchesTheSoundTrack() throws {
            let video = try Fixtures.twoToneVideo(440, 1000, seconds: 5)
            let log = try Scratch.directory("audio-track") + "/events.jsonl"
            let recording = try AudioProbe.startRecording()
            usleep(300_000)
            let probe = try ScreenProbe()
            let run = try Launched(["--autoexit", "--windowed", "--geometry", "320x240+0+0", "--events", log, video])
            var end: Launched.Ended?
            do {
                let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
                try #require(Events.waitFor(log, "first_frame") != nil, "no first frame; stderr: \(run.stderr)")
                // A second of the first track, heard before the switch.
                try #require(Events.waitFor(log, "played") != nil)
                usleep(1_200_000)
                try xdotool(["key", "--window", String(window.id), "numbersign"])
                end = run.finish(timeout: 15)
            } catch {
                _ = AudioProbe.finish(recording)
                throw error
            }
            usleep(200_000)
            let samples = AudioProbe.finish(recording)
            let e = try #require(end, "the program did not finish the 5 s video")
            #expect(e.status == 0 && e.stderr.isEmpty, "status \(e.status), stderr: \(e.stderr)")
            // The loud tenths of a second, in order: the first ones are the English track,
            // the last ones the German one.
            let tenth = 4800
            let loud = stride(from: 0, to: samples.count - tenth, by: tenth).filter {
                AudioProbe.rms(samples[$0..<$0 + tenth]) > 1000
            }
            try #require(loud.count >= 30, "only \(loud.count) loud tenths of a second")
            let first = Array(samples[loud[0]..<loud[0] + 5 * tenth])
            let last = Array(samples[loud[loud.count - 6]..<loud[loud.count - 6] + 5 * tenth])
            let before = AudioProbe.dominantFrequency(first), after = AudioProbe.dominantFrequency(last)
            #expect(before.map { abs($0 - 440) <= 10 } == true, "heard \(String(describing: before)) Hz first, want 440")
            #expect(after.map { abs($0 - 1000) <= 10 } == true, "heard \(String(describing: after)) Hz last, want 1000")
            // From the first sound to the last, the switch does not stall the sound: no quiet
            // stretch of a second (measured: 0-70 ms on a quiet machine, 540 ms once while
            // the whole suite ran beside other builds, when the sink restarts late).
            let ms10 = 480
            let fine = stride(from: loud[0], to: loud[loud.count - 1], by: ms10).map { AudioProbe.rms(samples[$0..<$0 + ms10]) > 300 }
            var longest = 0, quiet = 0
            for l in fine { quiet = l ? 0 : quiet + 1; longest = max(longest, quiet) }
            #expect(longest * 10 < 1000, "the sound stopped for \(longest * 10) ms")
        }

        /// A subtitle file that is not one says so in one line, and the video plays on; a
        /// `--sub-file` that is not there says so in one line too.
        @Test func brokenOrMissingSubtitleFileIsOneLine() throws {
            var noise = Data("1\n00:00:xx --> garbage\n".utf8)
            for i in 0..<4096 { noise.append(UInt8((i * 7919 + 13) % 251)) }
            let broken = try Fixtures.bytes("broken.srt", noise)
            let video = try Fixtures.solidVideo("blue", seconds: 1)
            let log = try Scratch.directory("broken-sub") + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--no-audio", "--events", log, "--sub-file", broken,
                                   "--sub-file", "/nonexistent/missing.srt", video])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let said = lines(r.stderr)
            #expect(said.count == 2, "want one line each: \(said)")
            #expect(said.contains { $0.contains("broken.srt") }, "\(said)")
            #expect(said.contains { $0.contains("missing.srt") && $0.contains("No such file") }, "\(said)")
            let names = Events.names(try Events.read(log))
            #expect(names.contains("first_frame") && names.contains("finished"), "the video did not play: \(names)")
        }

        /// A subtitle file is read in a sandboxed worker of its own: one that crashes it costs
        /// only its own subtitles, said in one line; the video plays on with the other file's.
        @Test func aSubtitleFileThatStopsItsReaderCostsOnlyItsSubtitles() throws {
            let dir = try Scratch.directory("crashing-sub")
            let crashing = dir + "/film worker-crashes.srt"
            try Data("1\n00:00:00,000 --> 00:00:05,000\nnever shown\n".utf8).write(to: URL(fileURLWithPath: crashing))
            let good = try Fixtures.srt("white-sub.srt", [Fixtures.Cue(0, 20, Fixtures.blocks())])
            let video = try Fixtures.solidVideo("blue", seconds: 2)
            let log = dir + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-track", "--events", log,
                                    "--sub-file", crashing, "--sub-file", good, video],
                                   environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            let probe = try ScreenProbe()
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let shown = window.waitFor(probe, timeout: 10) { Self.subtitlePixels($0) > 300 }
            #expect(shown != nil, "the other file's subtitles are not drawn; stderr: \(run.stderr)")
            run.process.terminate()
            let ended = run.finish(timeout: 10)
            let said = lines(ended?.stderr ?? run.stderr).filter { !$0.contains("stopped by signal") }
            #expect(said == ["mediaview: subtitles film worker-crashes.srt: the decoder stopped: crashed (SIGABRT)"], "\(said)")
            let names = Events.names(try Events.read(log))
            #expect(names.contains("first_frame"), "the video did not play: \(names)")
        }

        /// Subtitles are drawn by a sandboxed worker: one that crashes on a script, or never
        /// finishes drawing it, costs the video its subtitles, said in one line, and the
        /// video plays on to its end.
        @Test(arguments: [("crash", "crashed (SIGABRT)"), ("hang", "took too long")])
        func aScriptThatStopsTheSubtitleRendererCostsOnlyTheSubtitles(trigger: String, said: String) throws {
            let dir = try Scratch.directory("stopping-renderer")
            let script = dir + "/\(trigger).ass"
            try Data("""
                [Script Info]
                Title: mediaview-test: \(trigger)
                ScriptType: v4.00+

                [Events]
                Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: 0,0:00:00.00,0:00:05.00,Default,,0,0,0,,Crash here

                """.utf8).write(to: URL(fileURLWithPath: script))
            let video = try Fixtures.solidVideo("blue", seconds: 4)
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", log,
                                   "--sub-file", script, video], environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let name = URL(fileURLWithPath: video).lastPathComponent
            #expect(lines(r.stderr) == ["mediaview: \(name): subtitles: the decoder stopped: \(said)"], "\(r.stderr)")
            let names = Events.names(try Events.read(log))
            #expect(names.contains("first_frame") && names.contains("finished"), "the video did not play to its end: \(names)")
        }

        /// A script sees the tracks as mpv describes them (`track-list`), and choosing with
        /// `sid` and `sub-visibility` changes what is on screen.
        @Test func scriptsReadAndChooseTracks() throws {
            let embedded = try Fixtures.srt("yellow-20s.srt", [Fixtures.Cue(0, 20, Fixtures.blocks("#ffff00"))])
            let video = try Fixtures.withSubtitles(try Fixtures.solidVideo("blue", seconds: 20), embedded, codec: "srt",
                                                   ext: "mkv", name: "blue-20s-yellow-sub")
            let s = try MediaviewProgram.IPC.start([video], extra: ["--no-track"])
            func yellow(_ on: Bool) -> Bool {
                s.window.waitFor(s.probe, timeout: 5) { on ? Self.subtitlePixels($0, yellow: true) > 300 : Self.subtitlePixels($0, yellow: true) == 0 } != nil
            }
            #expect(yellow(true), "the video's subtitle track is not shown")
            let list = try s.client.request(["get_property", "track-list"], id: 1)["data"] as? [[String: Any]] ?? []
            let subs = list.filter { $0["type"] as? String == "sub" }
            #expect(subs.count == 1 && subs.first?["codec"] as? String == "subrip" && subs.first?["external"] as? Bool == false
                    && subs.first?["selected"] as? Bool == true, "track-list: \(list)")
            #expect(try s.client.request(["get_property", "sid"], id: 2)["data"] as? Int == 1)
            #expect(try s.client.request(["set_property", "sid", "no"], id: 3)["error"] as? String == "success")
            #expect(yellow(false), "sid no did not hide the track")
            #expect(try s.client.request(["get_property", "sid"], id: 4)["data"] as? Bool == false)
            #expect(try s.client.request(["set_property", "sid", 1], id: 5)["error"] as? String == "success")
            #expect(yellow(true), "sid 1 did not bring it back")
            #expect(try s.client.request(["set_property", "sub-visibility", false], id: 6)["error"] as? String == "success")
            #expect(yellow(false), "sub-visibility false did not hide it")
            #expect(try s.client.request(["set_property", "sid", 7], id: 7)["error"] as? String == "error accessing property")
            try MediaviewProgram.IPC.quit(s)
        }

        /// Fullscreen, the subtitle is drawn at the picture's scale; minimized into the
        /// corner thumbnail it is still there, smaller, inside the thumbnail.
        @Test func subtitlesScaleFromFullscreenToTheThumbnail() throws {
            let external = try Fixtures.srt("white-20s.srt", [Fixtures.Cue(0, 20, Fixtures.blocks())])
            let video = try Fixtures.solidVideo("blue", seconds: 20)
            let state = try Scratch.directory("sub-thumbnail")
            let probe = try ScreenProbe()
            let run = try Launched(["--no-audio", "--no-track", "--swipe-mode", "minimize", "--sub-file", external, video],
                                   environment: ["XDG_STATE_HOME": state])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            var big = 0
            let full = window.waitFor(probe) { img in
                big = Self.subtitlePixels(img)
                return img.width >= 1000 && big > 300
            }
            #expect(full != nil, "no subtitle fullscreen (\(big) pixels)")
            try xdotool(["key", "--window", String(window.id), "ctrl+Down"])
            var small = 0
            var thumbnail: (x: Int, y: Int, width: Int, height: Int)?
            let end = Date().addingTimeInterval(8)
            repeat {
                usleep(100_000)
                guard let g = probe.geometry(of: window.id), g.width < 1000 else { continue }
                thumbnail = g
                small = Self.subtitlePixels(probe.grab(x: g.x, y: g.y, width: g.width, height: g.height))
            } while Date() < end && !(small > 100 && small < big / 2)
            #expect(thumbnail != nil, "did not minimize")
            // Smaller with the picture: a third of the width is about a ninth of the pixels.
            #expect(small > 100 && small < big / 2, "thumbnail subtitle \(small) pixels, fullscreen \(big)")
            kill(run.process.processIdentifier, SIGTERM)
            #expect(run.finish(timeout: 10) != nil, "the program did not end on SIGTERM")
        }

        /// Subtitles hidden with `v` stay hidden on the next video, as mpv's choice does.
        @Test func hiddenSubtitlesStayHiddenOnTheNextVideo() throws {
            let external = try Fixtures.srt("white-20s.srt", [Fixtures.Cue(0, 20, Fixtures.blocks())])
            let first = try Fixtures.solidVideo("blue", seconds: 20), second = try Fixtures.solidVideo("red", seconds: 20)
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-track", "--sub-file", external,
                                    first, second])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            func key(_ name: String) throws { try xdotool(["key", "--window", String(window.id), name]) }
            #expect(window.waitFor(probe, timeout: 6) { Self.subtitlePixels($0) > 300 } != nil, "no subtitle on the first video")
            try key("v")
            #expect(window.waitFor(probe, timeout: 6) { Self.subtitlePixels($0) == 0 } != nil, "v did not hide it")
            try key("n")
            let red = window.waitFor(probe, timeout: 6) { $0.matches(4, $0.height / 2, RGB.red) }
            #expect(red != nil, "the second video did not show")
            // A few frames of the second video: none has the subtitle.
            var seen = 0
            for _ in 0..<10 {
                seen = max(seen, Self.subtitlePixels(window.grab(probe)))
                usleep(50_000)
            }
            #expect(seen == 0, "the second video shows subtitles again (\(seen) pixels)")
            try key("v")
            #expect(window.waitFor(probe, timeout: 6) { Self.subtitlePixels($0) > 300 } != nil, "v did not show them on the second video")
            kill(run.process.processIdentifier, SIGTERM)
            #expect(run.finish(timeout: 10) != nil, "the program did not end on SIGTERM")
        }
    }
}
