import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Track previews in the real program: in the minimized thumbnail, and over files whose
    /// keyframes are an hour apart or that have no index, while the video plays on.
    @Suite struct TrackPreviewProgramTests {
        @Test("Hovering the thumbnail's progress line shows the hovered time's picture, small enough to leave the video in view")
        func thumbnailPreview() throws {
            let log = try Scratch.directory("thumb-preview") + "/events.jsonl"
            let state = try Scratch.directory("thumb-preview-state")
            let run = try Launched(["--no-audio", "--no-autoplay", "--swipe-mode", "minimize", "--minimized-reset",
                                    "--events", log, try Fixtures.colourSeconds()], environment: ["XDG_STATE_HOME": state])
            let probe = try ScreenProbe()
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "never showed; stderr: \(run.stderr)")
            let big = try #require(ProgramWindow.wait(probe, of: run), "no window")
            try xdotool(["key", "--window", String(big.id), "ctrl+Down"])
            try #require(Events.waitFor(log, "did_end_minimizing") != nil, "did not minimize")
            var thumb: ProgramWindow?
            let end = Date().addingTimeInterval(5)
            while Date() < end {
                if let w = ProgramWindow.wait(probe, of: run), w.width < 1000 { thumb = w; break }
                usleep(50_000)
            }
            let t = try #require(thumb, "no thumbnail window")
            // Three quarters along the line: 4.5 s of 6, the cyan second; the video is paused
            // on its first (red) second.
            let x = t.width * 3 / 4
            try xdotool(["mousemove", "\(t.x + t.width / 2)", "\(t.y + t.height / 2)"])
            try xdotool(["mousemove", "\(t.x + x)", "\(t.y + t.height - 6)"])
            let shown = Events.waitFor(log, "track_preview", index: 0)
            #expect(shown != nil, "no preview reached the thumbnail")
            let img = try #require(t.waitFor(probe, timeout: 5) { img in
                (0..<img.height).contains { img.matches(x, $0, 0x00FFFF) }
            }, "no cyan preview above the pointer")
            let rows = (0..<img.height).filter { img.matches(x, $0, 0x00FFFF) }
            let cols = (0..<img.width).filter { img.matches($0, rows[rows.count / 2], 0x00FFFF) }
            #expect(cols.count <= img.width / 3 + 2 && rows.count <= img.height * 2 / 5 + 2,
                    "preview \(cols.count) x \(rows.count) in a \(img.width) x \(img.height) thumbnail")
            #expect(cols.count >= 40, "preview only \(cols.count) px wide")
            #expect(img.fraction(matching: 0xFF0000) > 0.5, "the paused red picture is mostly still in view")
            kill(run.pid, SIGTERM)
            _ = run.finish(timeout: 5)
        }

        @Test("Hovering files with one keyframe an hour, or no index, leaves playback going: frames keep coming, the program ends on time")
        func hostileFilesKeepPlaying() throws {
            for clip in [try Fixtures.oneKeyframeHour(), try Fixtures.oneKeyframeHourStream()] {
                // 5 frames a second: 25 frames is 5 s of playing while the track is hovered.
                let (ended, events) = try sweepTrack(of: clip, frames: 25, step: 50, pause: 0.15)
                #expect(ended?.status == 0, "\(clip): \(String(describing: ended?.stderr))")
                let frames = events.first { $0["event"] as? String == "stats" }?["frames"] as? Int ?? 0
                #expect(frames >= 25, "\(clip): \(frames) frames shown")
                #expect(Events.names(events).contains("track_hover"), "\(clip): the track was never hovered")
            }
        }

        /// Plays `media` silently in a 640x360 window for `frames` frames while a pointer sweeps
        /// along the track (its band is the bottom 48 px), `step` pixels at a time, resting
        /// `pause` seconds at each place; how the program ended, and its event log.
        private func sweepTrack(of media: String, frames: Int, step: Int, pause: Double,
                                extra: [String] = []) throws -> (Launched.Ended?, [[String: Any]]) {
            let log = try Scratch.directory("swept-track") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "640x360+0+0", "--no-audio", "--frames", String(frames),
                                    "--events", log] + extra + [media])
            let probe = try ScreenProbe()
            _ = try #require(ProgramWindow.wait(probe, of: run), "no window for \(media)")
            try #require(Events.waitFor(log, "first_frame", index: 0) != nil, "never showed \(media); stderr: \(run.stderr)")
            for x in stride(from: 120, through: 520, by: step) {
                try xdotool(["mousemove", "\(x)", "332", "sleep", String(pause)])
            }
            let ended = run.finish(timeout: 30)
            return (ended, try Events.read(log))
        }

        /// A preview worker is handed a stream's bytes, not an address to fetch a playlist's
        /// parts from: on HLS and DASH, FFmpeg tried its own HTTP there and the worker was
        /// killed by the sandbox, said in a line each time. A web playlist has no previews,
        /// without a word, and plays on while its track is hovered.
        @Test("Hovering the track of an HLS or DASH stream says nothing and the stream plays on", arguments: ["hls", "dash"])
        func webPlaylistsHoveredSayNothing(kind: String) throws {
            let url = kind == "hls" ? try Fixtures.servedHLS() : try Fixtures.servedDASH()
            let (ended, events) = try sweepTrack(of: url, frames: 60, step: 100, pause: 0.2, extra: ["--no-cache"])
            #expect(ended?.status == 0, "\(String(describing: ended?.stderr))")
            // DASH says once that it is read here (WebTests); nothing about previews.
            let said = ended.map { lines($0.stderr) } ?? ["no end"]
            #expect(said.filter { !$0.contains("a DASH stream is read outside the sandbox") } == [], "\(said)")
            #expect(Events.names(events).contains("track_hover"), "the track was never hovered")
        }
    }
}
