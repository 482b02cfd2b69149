import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// SPEC: a truncated still shows the fail indicator and is reported in one line (exit 1);
    /// an animation or a video cut short plays the frames it has, and fails only when not one
    /// frame of it decodes.
    @Suite struct TruncatedMedia {
        static let quick = ["--autoexit", "--image-duration", "0.3", "--no-audio"]

        /// The first `fraction` of `source`'s bytes, as a file named `name`.
        static func cut(_ source: String, _ name: String, keeping fraction: Double) throws -> String {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            return try Fixtures.bytes(name, data.prefix(Int(Double(data.count) * fraction)))
        }

        /// How many frames the program showed, from the `stats` line of its event log.
        static func framesShown(_ log: String) throws -> Int {
            let stats = try Events.read(log).first { $0["event"] as? String == "stats" }
            return try #require(stats?["frames"] as? Int, "no stats event in \(log)")
        }

        /// FFmpeg's PNG decoder gives nothing for a cut PNG and, with frame threads, drops its
        /// error: the program used to finish on a blank window with exit 0 and no word.
        @Test func firstThirdOfAPNGPhotoFailsWithOneLine() throws {
            let photo = try Fixtures.make("photo-2mp.png", ["-f", "lavfi", "-i", "testsrc2=s=1600x1200,noise=alls=20:allf=t",
                                                            "-frames:v", "1"])
            let path = try Self.cut(photo, "photo-third.png", keeping: 1.0 / 3)
            let r = try mediaview(Self.quick + [path], timeout: 30)
            #expect(!r.timedOut)
            #expect(r.status == 1, "a third of a PNG exited \(r.status); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("photo-third.png") == true, "\(errs)")
            #expect(errs.first?.contains("damaged or cut short") == true, "\(errs)")
        }

        @Test func theWholePNGPhotoStillShows() throws {
            let photo = try Fixtures.make("photo-2mp.png", ["-f", "lavfi", "-i", "testsrc2=s=1600x1200,noise=alls=20:allf=t",
                                                            "-frames:v", "1"])
            let r = try mediaview(Self.quick + [photo], timeout: 30)
            #expect(r.status == 0 && r.stderr.isEmpty, "exit \(r.status); stderr: \(r.stderr)")
        }

        /// A GIF cut short is an animation with fewer frames: it plays them, as browsers do.
        /// One cut inside its first frame has nothing to show and fails.
        @Test func aGIFCutShortPlaysWhatItHasAndOneWithNoFrameFails() throws {
            let gif = try Fixtures.make("count-3s.gif", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10", "-t", "3"])
            let dir = try Scratch.directory("cut-gif")
            let third = try Self.cut(gif, "count-third.gif", keeping: 1.0 / 3)
            let r = try mediaview(Self.quick + ["--events", dir + "/third.jsonl", third], timeout: 30)
            #expect(r.status == 0 && r.stderr.isEmpty, "exit \(r.status); stderr: \(r.stderr)")
            #expect(try Self.framesShown(dir + "/third.jsonl") >= 2)

            let head = try Self.cut(gif, "count-head.gif", keeping: 800.0 / Double(try Data(contentsOf: URL(fileURLWithPath: gif)).count))
            let h = try mediaview(Self.quick + [head], timeout: 30)
            #expect(h.status == 1, "a GIF with no whole frame exited \(h.status); stderr: \(h.stderr)")
            let errs = lines(h.stderr)
            #expect(errs.count == 1 && errs.first?.contains("count-head.gif") == true, "\(errs)")
        }

        /// A streamable MP4 (index first) cut in half plays its first half and ends normally;
        /// one with its index at the end cannot be opened at all (BadInputTests covers that).
        @Test func aStreamableMP4CutInHalfPlaysItsFirstHalf() throws {
            let clip = try Fixtures.make("count-4s-faststart.mp4", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25", "-t", "4",
                                                                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                                                                    "-movflags", "+faststart"])
            let dir = try Scratch.directory("cut-mp4")
            let half = try Self.cut(clip, "count-half.mp4", keeping: 0.5)
            let r = try mediaview(Self.quick + ["--events", dir + "/half.jsonl", half], timeout: 30)
            #expect(r.status == 0 && r.stderr.isEmpty, "exit \(r.status); stderr: \(r.stderr)")
            let frames = try Self.framesShown(dir + "/half.jsonl")
            #expect(frames >= 20 && frames < 100, "\(frames) frames of a 100-frame clip cut in half")
        }
    }
}
