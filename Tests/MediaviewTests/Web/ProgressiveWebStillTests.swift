import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A photo on a slow link shows while it downloads, as in a browser: a progressive JPEG
    /// whole and blurry first, a baseline one from the top down, and a download that breaks
    /// leaves what came on screen with its one line.
    @Suite struct ProgressiveWebStill {
        /// 640x480, red above and blue below, with noise so the file is large enough
        /// (about 200 KB) to take seconds on a slow link and to have detail to sharpen.
        static func photo(progressive: Bool) throws -> String {
            let baseline = try Fixtures.make("slow-photo.jpg", [
                "-f", "lavfi", "-i", "color=c=red:s=640x480", "-vf",
                "drawbox=y=240:w=640:h=240:color=blue:t=fill,noise=alls=24:allf=t", "-frames:v", "1", "-q:v", "2",
            ])
            guard progressive else { return baseline }
            let path = Fixtures.directory + "/slow-photo-progressive.jpg"
            if !FileManager.default.fileExists(atPath: path) {
                let r = try Run.process("convert", [baseline, "-quality", "95", "-interlace", "JPEG", path], timeout: 60)
                guard r.status == 0 else { throw FixtureError("convert failed: \(r.stderr)") }
            }
            return path
        }

        /// Serves `fixture` under a fresh name; the name and its length.
        func serve(_ fixture: String, ext: String? = "jpg") throws -> (name: String, length: Int) {
            let name = "slow-\(UUID().uuidString.prefix(8))" + (ext.map { "." + $0 } ?? "")
            try FileManager.default.copyItem(atPath: fixture, toPath: try TestEnvironment.httpRoot + "/" + name)
            let size = try FileManager.default.attributesOfItem(atPath: fixture)[.size] as? Int ?? 0
            return (name, size)
        }

        /// When the server began answering for `name` (seconds since 1970), from its log.
        func requestTime(_ name: String) throws -> Double? {
            let text = String(decoding: FileManager.default.contents(atPath: try TestEnvironment.httpLog) ?? Data(), as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains(name) {
                if let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let t = o["time"] as? Double {
                    return t
                }
            }
            return nil
        }

        /// The mean colour of a band of rows of the window's picture.
        static func mean(_ img: Image, rows: Range<Int>) -> (r: Int, g: Int, b: Int) {
            var r = 0, g = 0, b = 0, n = 0
            for y in rows { for x in 10..<(img.width - 10) {
                let p = img.pixel(x, y)
                r += Int(p >> 16 & 0xFF); g += Int(p >> 8 & 0xFF); b += Int(p & 0xFF); n += 1
            } }
            return n == 0 ? (0, 0, 0) : (r / n, g / n, b / n)
        }

        static func reddish(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r > 140 && c.b < 90 }
        static func bluish(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.b > 140 && c.r < 90 }
        static func dark(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r < 40 && c.g < 40 && c.b < 40 }

        /// Detail: the mean difference between neighbouring pixels across the red band.
        static func detail(_ img: Image) -> Double {
            var sum = 0, n = 0
            for y in 20..<100 { for x in 20..<(img.width - 21) {
                sum += abs(Int(img.pixel(x, y) >> 16 & 0xFF) - Int(img.pixel(x + 1, y) >> 16 & 0xFF)); n += 1
            } }
            return Double(sum) / Double(max(1, n))
        }

        /// What the program has written to stderr so far.
        static func stderr(_ run: Launched) -> String {
            String(decoding: FileManager.default.contents(atPath: run.errPath) ?? Data(), as: UTF8.self)
        }

        /// The program's stderr lines once the first has come (within 20 s), and half a
        /// second more: a second line would come right after the first.
        static func linesOnceTheFirstCame(_ run: Launched) -> [String] {
            let deadline = Date().addingTimeInterval(20)
            while lines(stderr(run)).isEmpty && Date() < deadline { usleep(100_000) }
            usleep(500_000)
            return lines(stderr(run))
        }

        /// Starts the viewer on `url` in a 320x240 window (the photo shown at half size).
        func launch(_ url: String, _ extra: [String] = []) throws -> (Launched, ProgramWindow, ScreenProbe, String) {
            let probe = try ScreenProbe()
            let events = try Scratch.directory("progressive") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--events", events] + extra + [url])
            let window = try #require(ProgramWindow.wait(probe), "no window")
            return (run, window, probe, events)
        }

        /// The share of the file the program says it had when it drew its first picture.
        func bufferedAtFirstPicture(_ events: String) throws -> Double {
            let first = try #require(Events.waitFor(events, "first_frame", index: 0), "no first_frame event")
            return try #require(first["buffered"] as? Double, "first_frame without buffered: \(first)")
        }

        /// How much of `length` bytes at `rate` a second the server can have sent by now.
        func sentShare(_ name: String, rate: Int, length: Int) throws -> Double {
            let start = try #require(try requestTime(name), "the server never logged the request")
            return (Date().timeIntervalSince1970 - start) * Double(rate) / Double(length)
        }

        /// The worker decodes each part; with the sandbox off the viewer does, the same way.
        @Test(arguments: ["auto", "off"])
        func aProgressivePhotoShowsWholeBeforeHalfHasComeThenSharpens(sandbox: String) throws {
            let file = try Self.photo(progressive: true)
            let served = try serve(file)
            let rate = served.length / 8
            let (run, window, probe, events) = try launch(try TestEnvironment.http + "/trickle/\(rate)/" + served.name,
                                                          ["--sandbox", sandbox])
            let first = window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: 20..<100)) && Self.bluish(Self.mean($0, rows: 140..<220)) }
            let share = try sentShare(served.name, rate: rate, length: served.length)
            let firstPicture = try #require(first, "no picture; stderr: \(Self.stderr(run))")
            #expect(share < 0.5, "the first picture came only after \(Int(share * 100)) % of the file")
            let had = try bufferedAtFirstPicture(events)
            #expect(had < 0.5, "the program had \(Int(had * 100)) % of the file at its first picture")
            let firstDetail = Self.detail(firstPicture)
            let sharp = window.waitFor(probe, timeout: 30) { Self.detail($0) > firstDetail * 1.3 + 1 }
            #expect(sharp != nil, "the picture never sharpened from its first detail \(firstDetail)")
        }

        @Test func aBaselinePhotoShowsItsTopFirst() throws {
            let file = try Self.photo(progressive: false)
            let served = try serve(file)
            let rate = served.length / 8
            let (run, window, probe, events) = try launch(try TestEnvironment.http + "/trickle/\(rate)/" + served.name)
            let first = window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: 5..<25)) }
            let top = try #require(first, "no picture; stderr: \(Self.stderr(run))")
            let share = try sentShare(served.name, rate: rate, length: served.length)
            #expect(share < 0.5, "the top came only after \(Int(share * 100)) % of the file")
            #expect(try bufferedAtFirstPicture(events) < 0.5)
            #expect(Self.dark(Self.mean(top, rows: 215..<235)), "the rows not yet come are the background, not grey: \(Self.mean(top, rows: 215..<235))")
            #expect(window.waitFor(probe, timeout: 30) { Self.bluish(Self.mean($0, rows: 140..<220)) } != nil, "the bottom never came")
        }

        @Test func aDownloadCutHalfWayLeavesThePartAndOneLine() throws {
            let file = try Self.photo(progressive: false)
            let served = try serve(file)
            let rate = served.length / 8
            let url = try TestEnvironment.http + "/trickle/\(rate)/reset/\(served.length * 6 / 10)/" + served.name
            let (run, window, probe, _) = try launch(url)
            #expect(window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: 5..<25)) } != nil, "no part shown")
            let errs = Self.linesOnceTheFirstCame(run)
            #expect(errs.count == 1 && errs.first?.contains(served.name) == true, "\(errs)")
            #expect(Self.reddish(Self.mean(window.grab(probe), rows: 5..<25)), "the part that came stays on screen")
        }

        /// A noisy red frame for half a second, then noisy blue ones for a second and a half,
        /// 320x240 (about 330 KB): the first frame is an eighth of the file.
        static func animation() throws -> String {
            try Fixtures.make("slow-anim.gif", [
                "-f", "lavfi", "-i",
                "color=c=red:s=320x240:r=4:d=0.5[a];color=c=blue:s=320x240:r=4:d=1.5[b];[a][b]concat=n=2:v=1,noise=alls=40:allf=t",
            ])
        }

        /// The first frame shows as soon as it has come, decoded by a worker or, with the
        /// sandbox off, by the viewer; the whole animation plays once it has all come.
        @Test(arguments: ["auto", "off"])
        func aGIFShowsItsFirstFrameLongBeforeItHasAllComeThenPlays(sandbox: String) throws {
            let served = try serve(try Self.animation(), ext: "gif")
            let rate = served.length / 8
            let (run, window, probe, events) = try launch(try TestEnvironment.http + "/trickle/\(rate)/" + served.name,
                                                          ["--sandbox", sandbox])
            let first = window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: 20..<220)) }
            let share = try sentShare(served.name, rate: rate, length: served.length)
            #expect(first != nil, "no first frame; stderr: \(Self.stderr(run))")
            #expect(share < 0.5, "the first frame came only after \(Int(share * 100)) % of the file")
            #expect(try bufferedAtFirstPicture(events) < 0.5)
            let loaded = try #require(Events.waitFor(events, "loaded", index: 0), "no loaded event")
            #expect(loaded["kind"] as? String == "animated", "told as \(loaded)")
            // Blue comes half a second into the animation, which plays once the file is in.
            #expect(window.waitFor(probe, timeout: 30) { Self.bluish(Self.mean($0, rows: 20..<220)) } != nil,
                    "the animation never played on; stderr: \(Self.stderr(run))")
            #expect(Self.stderr(run).isEmpty, "\(Self.stderr(run))")
        }

        /// At an address ending in .gif, and at one that does not say (known by its first bytes).
        @Test(arguments: ["gif", nil] as [String?])
        func aGIFCutAfterItsFirstFrameLeavesTheFrameAndOneLine(ext: String?) throws {
            let served = try serve(try Self.animation(), ext: ext)
            let rate = served.length / 8
            let url = try TestEnvironment.http + "/trickle/\(rate)/reset/\(served.length / 2)/" + served.name
            let (run, window, probe, _) = try launch(url)
            #expect(window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: 20..<220)) } != nil, "no first frame")
            let errs = Self.linesOnceTheFirstCame(run)
            #expect(errs.count == 1 && errs.first?.contains(served.name) == true, "\(errs)")
            #expect(Self.reddish(Self.mean(window.grab(probe), rows: 20..<220)), "the frame that came stays on screen")
        }

        /// Image hosts serve photos at addresses that do not name their kind: the first bytes
        /// do, and the picture shows while it downloads all the same.
        @Test(arguments: ["photo", "GIF"])
        func aPictureAtAnAddressWithoutAnExtensionShowsWhileItDownloads(kind: String) throws {
            let file = kind == "GIF" ? try Self.animation() : try Self.photo(progressive: false)
            let served = try serve(file, ext: nil)
            let rate = served.length / 8
            let (run, window, probe, events) = try launch(try TestEnvironment.http + "/trickle/\(rate)/" + served.name)
            let rows = kind == "GIF" ? 20..<220 : 5..<25
            #expect(window.waitFor(probe, timeout: 30) { Self.reddish(Self.mean($0, rows: rows)) } != nil,
                    "nothing shown; stderr: \(Self.stderr(run))")
            let share = try sentShare(served.name, rate: rate, length: served.length)
            #expect(share < 0.5, "the first picture came only after \(Int(share * 100)) % of the file")
            #expect(try bufferedAtFirstPicture(events) < 0.5)
            // Then the rest: the photo's blue half, the animation's blue frames.
            let rest = kind == "GIF" ? 20..<220 : 140..<220
            #expect(window.waitFor(probe, timeout: 30) { Self.bluish(Self.mean($0, rows: rest)) } != nil,
                    "the rest never came; stderr: \(Self.stderr(run))")
        }
    }
}
