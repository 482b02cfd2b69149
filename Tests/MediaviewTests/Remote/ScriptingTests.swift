import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// What scripts rely on: the `--events` log, `--frames` and `--benchmark`.
    @Suite struct Scripting {
        /// The lifecycle events of one item, in the order the seed's delegate hears them.
        static let lifecycle: Set<String> = ["will_present", "presented", "finished", "will_dismiss", "dismissed"]

        /// Two short videos: every line is JSON, `t` never goes back, and each item goes
        /// will_present, presented, finished, will_dismiss, dismissed before the next starts.
        @Test func eventLogOfATwoItemQueue() throws {
            let a = try Fixtures.solidVideo("red", seconds: 1)
            let b = try Fixtures.solidVideo("blue", seconds: 1)
            let dir = try Scratch.directory("events")
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--no-audio", "--windowed", "--geometry", "320x240+0+0",
                                   "--events", log, a, b], timeout: 20)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.hasSuffix("\n"), "the last line is incomplete")
            let events = try Events.read(log)
            #expect(events.count == lines(text).count)
            // Every line: an object with a number `t`, an `event` name; t increases.
            var last = -1.0
            for e in events {
                let t = try #require(e["t"] as? Double, "no t in \(e)")
                #expect(t >= last, "t went back from \(last) to \(t)")
                last = t
                #expect(e["event"] is String)
            }
            #expect(last > 1.5, "two 1 s videos took only \(last) s")
            let order = events.compactMap { e -> String? in
                guard let name = e["event"] as? String, Self.lifecycle.contains(name), let i = e["index"] as? Int else { return nil }
                return "\(name)#\(i)"
            }
            #expect(order == ["will_present#0", "presented#0", "finished#0", "will_dismiss#0", "dismissed#0",
                              "will_present#1", "presented#1", "finished#1", "will_dismiss#1", "dismissed#1"],
                    "\(order)")
            // Each item played, and says where it came from.
            for i in 0...1 {
                #expect(Events.names(events, index: i).contains("played"), "item \(i) never played")
                #expect(events.first { $0["index"] as? Int == i }?["source"] as? String == [a, b][i])
            }
            // A video finishing without a loop says so, and the log ends with the exit status.
            #expect(events.first { $0["event"] as? String == "finished" }?["loop"] as? Bool == false)
            #expect(events.last?["event"] as? String == "exit")
            #expect(events.last?["status"] as? Int == 0)
        }

        /// `--events -` writes the same JSON lines to standard output.
        @Test func eventLogToStdout() throws {
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", "--events", "-", red])
            #expect(r.status == 0)
            let names = try lines(r.stdout).map { line -> String in
                let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return o["event"] as? String ?? ""
            }
            #expect(names.first == "will_present")
            #expect(names.contains("presented") && names.contains("dismissed"))
            #expect(names.last == "exit")
            // A still is not "played": it has nothing to play.
            #expect(!names.contains("played"))
        }

        /// `--frames 5` ends a 10 s video after five frames, at once and successfully.
        @Test func framesLimitEndsEarly() throws {
            let long = try Fixtures.solidVideo("blue", seconds: 10)
            let r = try mediaview(["--frames", "5", "--no-audio", "--windowed", "--geometry", "320x240+0+0", long],
                                  timeout: 15)
            #expect(!r.timedOut)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(r.seconds < 3, "took \(r.seconds) s for 5 frames")
        }

        /// `--loop` replays a video without sound again and again: 60 frames of a 25-frame
        /// video need three passes, each announced as a finish with loop=true.
        @Test func loopKeepsReplaying() throws {
            let short = try Fixtures.solidVideo("red", seconds: 1)
            let dir = try Scratch.directory("loop")
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--loop", "--frames", "60", "--no-audio", "--windowed", "--geometry", "320x240+0+0",
                                   "--events", log, short], timeout: 10)
            #expect(!r.timedOut, "playback stopped looping (killed after 10 s)")
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let finishes = try Events.read(log).filter { $0["event"] as? String == "finished" }
            #expect(finishes.count >= 2, "\(finishes.count) passes ended")
            #expect(finishes.allSatisfy { $0["loop"] as? Bool == true })
            // Real time: 60 frames at 25 fps is 2.4 s.
            #expect(r.seconds > 2 && r.seconds < 5, "took \(r.seconds) s")
        }

        /// `--benchmark` shows frames as fast as they decode and prints one summary line.
        @Test func benchmarkPrintsOneLine() throws {
            let video = try Fixtures.solidVideo("red", seconds: 2, fps: 25)
            let r = try mediaview(["--benchmark", "--windowed", "--geometry", "320x240+0+0", video], timeout: 20)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let out = lines(r.stdout)
            #expect(out.count == 1, "\(out)")
            let line = try #require(out.first)
            let m = try #require(line.wholeMatch(of: /frames=(\d+) seconds=([0-9.]+) fps=([0-9.]+) dropped=(\d+)/),
                                 "not a benchmark line: \(line)")
            let frames = Int(m.1) ?? 0, seconds = Double(m.2) ?? 0, fps = Double(m.3) ?? 0
            #expect(frames >= 45 && frames <= 51, "\(frames) frames of a 50-frame video")
            // Untimed: faster than the video's own 25 fps, so under its 2 s.
            #expect(fps > 25, "\(fps) fps")
            #expect(seconds < 2)
            // fps is frames/seconds before `seconds` was rounded to milliseconds.
            let computed = Double(frames) / max(seconds, 0.001)
            #expect(abs(computed - fps) <= fps * 0.05, "fps \(fps) does not match frames/seconds \(computed)")
        }
    }
}
