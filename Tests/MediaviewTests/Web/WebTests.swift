import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Web media and the disk cache, end to end: the real program against the test
    /// server's real faults, HTTPS with a CA made for the run, offline replay, and a
    /// `kill -9` in the middle of a download.
    @Suite struct Web {
        static let quick = ["--autoexit", "--image-duration", "0.3", "--no-audio"]

        var http: String { get throws { try TestEnvironment.http } }

        /// Copies `fixture` into the served directory under a fresh name; returns the URL
        /// and the served file.
        func serve(_ fixture: String) throws -> (url: String, file: String) {
            let root = try TestEnvironment.httpRoot
            let name = "web-\(UUID().uuidString.prefix(8)).\((fixture as NSString).pathExtension)"
            try FileManager.default.copyItem(atPath: fixture, toPath: root + "/" + name)
            return (try http + "/" + name, root + "/" + name)
        }

        static func mode(_ path: String) -> mode_t {
            var st = stat()
            stat(path, &st)
            return st.st_mode & 0o777
        }

        /// Every fault of SPEC's "What bad input gets" in one queue: each item fails with
        /// one human line on stderr and a `failed` event, the good items around them play,
        /// and the status is 1.
        @Test func faultMatrixFailsEachItemAndGoesOn() throws {
            let h = try http
            let faults: [(String, String)] = [
                (h + "/status/404/gone.png", "HTTP 404 Not Found"),
                (h + "/status/500/broken.png", "server error"),
                (h + "/redirect-loop/loop.jpg", "redirects"),
                (h + "/reset/1000/03-video.mp4", "reset"),
                (h + "/reset/150000/03-video.mp4", "reset"),
                (h + "/stall/100/01-still.jpg", "timed out after 2 s"),
                (h + "/stall/150000/03-video.mp4", "timed out after 2 s"),
                (h + "/html/page.jpg", "web page"),
                (h + "/lie-length/no-range/01-still.jpg", "announced"),
                // WebP from the web is fetched whole first (for libwebp): the same faults.
                (h + "/status/404/gone.webp", "HTTP 404 Not Found"),
                (h + "/html/page.webp", "web page"),
            ]
            let good = [h + "/redirect/3/01-still.jpg", h + "/01-still.jpg"]
            let dir = try Scratch.directory("faults")
            let log = dir + "/events.jsonl"
            let inputs = [good[0]] + faults.map(\.0) + [good[1]]
            let r = try mediaview(Self.quick + ["--timeout", "2", "--cache-dir", dir + "/cache", "--events", log] + inputs,
                                  timeout: 40)
            #expect(!r.timedOut, "mediaview hung")
            #expect(r.status == 1)
            let errs = lines(r.stderr)
            #expect(errs.count == faults.count, "want one line per fault: \(errs)")
            let events = try Events.read(log)
            for (i, (url, words)) in faults.enumerated() {
                let idx = i + 1
                let failed = events.first { $0["event"] as? String == "failed" && $0["index"] as? Int == idx }
                let reason = failed?["reason"] as? String ?? ""
                #expect(reason.contains(words), "\(url): \(reason)")
                #expect(errs.contains { $0.hasPrefix("mediaview: ") && $0.contains(url) && $0.contains(words) },
                        "no stderr line for \(url)")
            }
            for idx in [0, inputs.count - 1] {
                let names = Events.names(events, index: idx)
                #expect(names.contains("loaded") && !names.contains("failed"), "item \(idx): \(names)")
            }
            // Nothing that failed entered the cache; only the two good stills did.
            let cached = try FileManager.default.contentsOfDirectory(atPath: dir + "/cache/image")
            #expect(cached.count <= 2, "\(cached)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/cache/video") == [])
        }

        @Test func httpsPlaysWithTheTrustedCAAndRefusesOtherwise() throws {
            let base = try TestEnvironment.require("MEDIAVIEW_TEST_HTTPS")
            let ca = try TestEnvironment.require("MEDIAVIEW_TEST_CA")
            let url = base + "/01-still.jpg"
            let ok = try mediaview(Self.quick + ["--no-cache", url], environment: ["MEDIAVIEW_CA_FILE": ca])
            #expect(ok.status == 0, "stderr: \(ok.stderr)")
            let refused = try mediaview(Self.quick + ["--no-cache", url], environment: ["MEDIAVIEW_CA_FILE": ""])
            #expect(refused.status == 1)
            let errs = lines(refused.stderr)
            #expect(errs.count == 1 && errs.first?.contains("certificate not trusted") == true, "\(errs)")
        }

        /// An HLS stream from the web, plain or with AES-128 segments, plays to its end
        /// without a word, twice over with the same cache: sandboxed, its playlist and
        /// segments are parsed by a worker, each part (the key too) fetched by the viewer;
        /// with the sandbox off, by FFmpeg here. No cache keeps the playlist, whose parts
        /// are named relative to its address: a kept copy made the second play look for
        /// them beside the copy and fail.
        @Test(arguments: [false, true], ["auto", "off"])
        func hlsFromTheWebPlaysToItsEndTwice(encrypted: Bool, sandbox: String) throws {
            let url = try Fixtures.servedHLS(encrypted: encrypted)
            let dir = try Scratch.directory("hls")
            for play in 1...2 {
                let log = dir + "/events-\(play).jsonl"
                let r = try mediaview(["--autoexit", "--no-audio", "--sandbox", sandbox, "--cache-dir", dir + "/cache",
                                       "--events", log, url], timeout: 30)
                #expect(r.status == 0 && lines(r.stderr).isEmpty, "play \(play), stderr: \(r.stderr)")
                let names = Events.names(try Events.read(log))
                #expect(names.contains("first_frame") && names.contains("finished"), "play \(play): \(names)")
            }
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/cache/video")) ?? []
            let playlists = kept.filter { name in
                let head = FileManager.default.contents(atPath: dir + "/cache/video/" + name)?.prefix(7)
                return head.map { String(decoding: $0, as: UTF8.self) } == "#EXTM3U"
            }
            #expect(playlists.isEmpty, "playlists kept in the cache: \(playlists)")
        }

        /// A DASH stream: this FFmpeg's DASH reader fetches its parts with its own HTTP, which a
        /// worker does not have (it was killed by the sandbox on its first segment). Auto plays
        /// it to its end here after one line saying so; strict refuses it in one line; off
        /// plays it without a word.
        @Test(arguments: [("auto", 0, "a DASH stream is read outside the sandbox"),
                          ("strict", 1, "a DASH stream cannot be read in the sandbox"), ("off", 0, "")])
        func dashFromTheWebSaysWhereItIsRead(sandbox: String, status: Int32, said: String) throws {
            let url = try Fixtures.servedDASH()
            let log = try Scratch.directory("dash") + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--no-audio", "--no-cache", "--sandbox", sandbox, "--events", log, url], timeout: 30)
            #expect(r.status == status, "stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            if said.isEmpty {
                #expect(errs.isEmpty, "\(errs)")
            } else {
                #expect(errs.count == 1 && errs[0].hasPrefix("mediaview: ") && errs[0].contains(said) && errs[0].contains(url), "\(errs)")
            }
            let names = Events.names(try Events.read(log))
            if status == 0 {
                #expect(names.contains("first_frame") && names.contains("finished"), "\(names)")
            } else {
                #expect(names.contains("failed") && !names.contains("first_frame"), "\(names)")
            }
        }

        /// Played once over http, then the file is removed from the server: the second run
        /// plays it from the cache; with `--no-cache` it fails, so the cache was the source.
        @Test func videoReplaysOfflineFromTheCache() throws {
            let fixture = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 1, tone: 440)
            let (url, file) = try serve(fixture)
            let dir = try Scratch.directory("offline")
            let cacheDir = dir + "/c"
            let log = dir + "/first.jsonl"
            let first = try mediaview(Self.quick + ["--cache-dir", cacheDir, "--events", log, url])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let downloaded = try Events.read(log).first { $0["event"] as? String == "downloaded" }
            let path = try #require(downloaded?["path"] as? String, "no downloaded event")
            #expect(downloaded?["kind"] as? String == "video")
            // Named by hash: no trace of the URL's text, and private directories.
            let name = (path as NSString).lastPathComponent
            #expect(path.hasPrefix(cacheDir + "/video/"))
            #expect(name.count == 64 + 4 && name.hasSuffix(".mp4") && !name.contains("web-"))
            #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: fixture))
            for d in ["", "/image", "/video", "/audio", "/temp"] { #expect(Self.mode(cacheDir + d) == 0o700) }

            try FileManager.default.removeItem(atPath: file)
            let second = try mediaview(Self.quick + ["--cache-dir", cacheDir, url])
            #expect(second.status == 0, "offline replay failed: \(second.stderr)")
            let without = try mediaview(Self.quick + ["--no-cache", "--cache-dir", cacheDir, url])
            #expect(without.status == 1 && without.stderr.contains("404"), "\(without.stderr)")
        }

        /// `kill -9` in the middle of a slow download: the cache holds no file under a
        /// final name, only a temporary, which the next run removes; a complete download
        /// then stores a byte-identical copy.
        @Test func killedMidDownloadLeavesNoPartialFile() throws {
            let dir = try Scratch.directory("kill")
            let cacheDir = dir + "/c"
            let slow = try http + "/trickle/50000/03-video.mp4"
            let p = try Launched(["--autoexit", "--no-audio", "--cache-dir", cacheDir, slow])
            let start = Date()
            var temps: [String] = []
            while Date().timeIntervalSince(start) < 10 {
                temps = (try? FileManager.default.contentsOfDirectory(atPath: cacheDir + "/temp")) ?? []
                if !temps.isEmpty { break }
                usleep(50_000)
            }
            #expect(temps.count == 1, "no download in progress: \(temps)")
            usleep(700_000)
            kill(p.pid, SIGKILL)
            _ = p.finish(timeout: 5)
            for d in ["image", "video", "audio"] {
                #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDir + "/" + d) == [],
                        "a partial file under a final name in \(d)")
            }

            let fast = try http + "/03-video.mp4"
            let r = try mediaview(Self.quick + ["--cache-dir", cacheDir, fast], timeout: 30)
            #expect(r.status == 0, "\(r.stderr)")
            let stored = try FileManager.default.contentsOfDirectory(atPath: cacheDir + "/video")
            #expect(stored.count == 1)
            let source = try TestEnvironment.httpRoot + "/03-video.mp4"
            #expect(FileManager.default.contents(atPath: cacheDir + "/video/" + (stored.first ?? ""))
                == FileManager.default.contents(atPath: source))
            #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDir + "/temp") == [],
                    "the killed run's temporary was not cleaned up")
        }

        /// An animated WebP from the web animates (libwebp, fetched whole into the cache
        /// first) and is named by its address, not its cache file.
        @Test func animatedWebPFromTheWebAnimates() throws {
            let (url, _) = try serve(try redBlueAnimatedWebP())
            let dir = try Scratch.directory("webpweb")
            let p = try Run.start(Run.mediaview, ["--windowed", "--geometry", "320x240+0+0", "--cache-dir", dir,
                                                  "--events", dir + "/events.jsonl", url],
                                  environment: Run.environment())
            defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
            let seen = try coloursSeenAtCentre(seconds: 6)
            #expect(seen == ["red", "blue"], "both frames showed: \(seen)")
            let loaded = try Events.read(dir + "/events.jsonl").first { $0["event"] as? String == "loaded" }
            #expect(loaded?["kind"] as? String == "animated", "\(String(describing: loaded))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/image").count == 1,
                    "the WebP was not kept in the cache")
        }

        /// With `--no-cache` an animated WebP from the web still animates: it is fetched
        /// whole into memory, not into the disk cache.
        @Test func animatedWebPFromTheWebAnimatesWithoutTheCache() throws {
            let (url, _) = try serve(try redBlueAnimatedWebP())
            let dir = try Scratch.directory("webpnocache")
            let home = dir + "/home"
            let p = try Run.start(Run.mediaview, ["--windowed", "--geometry", "320x240+0+0", "--no-cache",
                                                  "--events", dir + "/events.jsonl", url],
                                  environment: Run.environment(["XDG_CACHE_HOME": home]))
            defer { kill(p.processIdentifier, SIGTERM); Run.wait(p, timeout: 5) }
            let seen = try coloursSeenAtCentre(seconds: 6)
            #expect(seen == ["red", "blue"], "both frames showed: \(seen)")
            let loaded = try Events.read(dir + "/events.jsonl").first { $0["event"] as? String == "loaded" }
            #expect(loaded?["kind"] as? String == "animated", "\(String(describing: loaded))")
            #expect(!FileManager.default.fileExists(atPath: home + "/mediaview"), "something was written to the disk cache")
        }

        /// AVIF, HEIC and SVG from the web show as the files do (fetched whole, then decoded
        /// by their own libraries).
        @Test func stillFormatsFromTheWebShow() throws {
            let red = try Fixtures.truecolourPNG("rgb(200,40,40)")
            let avif = try Fixtures.tool("web-red.avif", "avifenc") { [red, $0] }
            let heic = try Fixtures.tool("web-red.heic", "heif-enc") { ["-q", "90", red, "-o", $0] }
            let svg = try Fixtures.bytes("web-red.svg", Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="rgb(200,40,40)"/></svg>"#.utf8))
            let probe = try ScreenProbe()
            for media in [avif, heic, svg] {
                let (url, _) = try serve(media)
                let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--no-cache", "--autoexit",
                                        "--image-duration", "1", url])
                let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
                #expect(window.waitFor(probe) { $0.matches(160, 120, 0xC82828, tolerance: 12) } != nil,
                        "\(media) from the web never showed; stderr: \(run.stderr)")
                #expect(run.finish(timeout: 10)?.status == 0)
            }
        }

        /// A cache directory that cannot be used: everything still plays, one warning.
        @Test func brokenCacheDirectoryWarnsOnceAndPlays() throws {
            let dir = try Scratch.directory("brokencache")
            let notADir = dir + "/file"
            _ = FileManager.default.createFile(atPath: notADir, contents: Data("x".utf8))
            let h = try http
            let r = try mediaview(Self.quick + ["--cache-dir", notADir, h + "/01-still.jpg", h + "/redirect/1/01-still.jpg"])
            #expect(r.status == 0)
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("playing without caching") == true, "\(errs)")
        }
    }
}
