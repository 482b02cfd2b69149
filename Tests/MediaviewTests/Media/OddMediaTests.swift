import Foundation
import Testing
import TestSupport

/// Unusual but valid media: each plays to its end in bounded time and shows its picture.
@Suite(.serialized)
struct OddMediaTests {
    /// Plays `file` with --autoexit and returns the status and the events.
    func play(_ file: String, extra: [String] = []) throws -> (Run.Result, [String]) {
        let r = try Run.process(Run.mediaview, ["--autoexit", "--image-duration", "0.2", "--windowed",
                                                "--geometry", "320x240+0+0", "--events", "-"] + extra + [file],
                                timeout: 30, environment: Run.environment())
        let events = r.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
        }
        return (r, events)
    }

    @Test("Odd sizes, codecs and pixel formats play through", arguments: [
        ("tiny 1x1 png", ["-f", "lavfi", "-i", "color=c=red:s=16x16", "-vf", "scale=1:1", "-frames:v", "1"], "odd-1x1.png"),
        ("tall 100x8000 png", ["-f", "lavfi", "-i", "color=c=blue:s=100x8000", "-frames:v", "1"], "odd-100x8000.png"),
        ("VP9 webm", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                      "-cpu-used", "8"], "odd-vp9.webm"),
        ("HEVC 10-bit", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=1", "-c:v", "libx265", "-preset", "ultrafast",
                         "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=none"], "odd-hevc10.mkv"),
        ("H.264 4:4:4", ["-f", "lavfi", "-i", "testsrc2=s=321x241:r=25:d=1", "-c:v", "libx264", "-preset", "ultrafast",
                         "-pix_fmt", "yuv444p"], "odd-444.mp4"),
        ("APNG", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=10:d=1", "-plays", "0", "-f", "apng"], "odd-anim.apng"),
        ("variable frame rate, sound starting late",
         ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=2", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
          "-filter_complex", "[0:v]setpts='PTS+if(gt(N,20),0.02*N/TB,0)'[v];[1:a]adelay=800|800[a]",
          "-map", "[v]", "-map", "[a]", "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac"],
         "odd-vfr-late-audio.mkv"),
    ])
    func oddMedia(name: String, args: [String], file: String) throws {
        let path = try Fixtures.make(file, args)
        let (r, events) = try play(path, extra: ["--no-audio"])
        #expect(!r.timedOut, "\(name) ended")
        #expect(r.status == 0, "\(name): \(r.stderr)")
        #expect(events.contains("loaded") && events.contains("dismissed"), "\(name): \(events)")
        #expect(!events.contains("failed"), "\(name): \(r.stderr)")
    }

    @Test("Animated WebP (decoded with libwebp, which FFmpeg 5.1 cannot) animates with its delays")
    func animatedWebP() throws {
        let path = try redBlueAnimatedWebP()
        let (r, events) = try play(path, extra: ["--image-duration", "1"])
        #expect(r.status == 0 && events.contains("loaded") && !events.contains("failed"), "\(r.stderr)")
        #expect(r.stdout.contains("\"kind\":\"animated\""), "\(r.stdout)")
        let p = try Run.start(Run.mediaview, ["--windowed", "--geometry", "320x240+0+0", path], environment: Run.environment())
        defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
        let seen = try coloursSeenAtCentre(seconds: 4)
        #expect(seen == ["red", "blue"], "both frames showed: \(seen)")
    }
}
