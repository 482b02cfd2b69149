import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The gallery (`g`) as a user sees it on the screen, and the thumbnails it leaves in the
    /// desktop's cache as file managers read them.
    @Suite struct Gallery {
        /// Names with spaces and characters beyond ASCII, in their natural order, and the
        /// colour each shows; the last one is not a picture at all.
        static let pictures: [(name: String, color: String, rgb: UInt32)] = [
            ("a red.png", "red", 0xFF0000), ("b grün.png", "lime", 0x00FF00),
            ("c blue ☃.png", "blue", 0x0000FF), ("d yellow.png", "yellow", 0xFFFF00),
        ]
        static let broken = "e broken.png"
        /// The disc a damaged file's cell shows.
        static let failRGB: UInt32 = 0xC0392B

        /// A folder of the pictures above and the broken file.
        static func folder() throws -> String {
            let dir = try Scratch.directory("gallery")
            for p in pictures {
                try FileManager.default.copyItem(atPath: try Fixtures.solidImage(p.color, width: 160, height: 120),
                                                 toPath: dir + "/" + p.name)
            }
            try Data("this is no picture".utf8).write(to: URL(fileURLWithPath: dir + "/" + broken))
            return dir
        }

        /// A running viewer with its gallery on screen and its first screen of thumbnails done.
        struct Shown {
            let run: Launched
            let window: ProgramWindow
            let log: String
            let layout: [String: Any]

            /// Where in the window the middle of item `i`'s thumbnail is, with `topRow` the
            /// first row on screen.
            func centre(_ i: Int, topRow: Int = 0) -> (x: Int, y: Int) {
                let columns = layout["columns"] as? Int ?? 1
                let x = (layout["x"] as? Int ?? 0) + (i % columns) * (layout["step_x"] as? Int ?? 0)
                let y = (layout["y"] as? Int ?? 0) + (i / columns - topRow) * (layout["step_y"] as? Int ?? 0)
                return (x + (layout["cell_width"] as? Int ?? 0) / 2, y + 8 + (layout["thumbnail"] as? Int ?? 0) / 2)
            }

            /// A point on the frame the highlight draws around item `i` (left of its cell).
            func frame(_ i: Int, topRow: Int = 0) -> (x: Int, y: Int) {
                let c = centre(i, topRow: topRow)
                return (c.x - (layout["cell_width"] as? Int ?? 0) / 2 - 2, c.y)
            }

            func key(_ name: String) throws { try xdotool(["key", "--window", String(window.id), name]) }

            func quit() throws -> Launched.Ended? {
                try pressQuit(on: window.id)
                return run.finish(timeout: 10)
            }
        }

        static func show(_ dir: String, cache: String, wrapper: [String] = [], items: Int = 5,
                         environment: [String: String] = [:]) throws -> Shown {
            let log = try Scratch.directory("gallery-log") + "/events.jsonl"
            let run = try Launched(["--windowed", "--geometry", "800x600+0+0", "--no-audio", "--events", log, dir],
                                   environment: environment.merging(["XDG_CACHE_HOME": cache]) { $1 }, wrapper: wrapper)
            _ = try #require(Events.waitFor(log, "first_frame"), "stderr: \(run.stderr)")
            let window = try #require(ProgramWindow.wait(try ScreenProbe(), of: wrapper.isEmpty ? run : nil), "no window; stderr: \(run.stderr)")
            try xdotool(["key", "--window", String(window.id), "g"])
            let layout = try #require(Events.waitFor(log, "gallery_shown"), "no gallery; stderr: \(run.stderr)")
            #expect(layout["items"] as? Int == items)
            _ = try #require(Events.waitFor(log, "gallery_first_screen", timeout: 20), "stderr: \(run.stderr)")
            return Shown(run: run, window: window, log: log, layout: layout)
        }

        /// Every picture in its cell, in order, and the broken file's cell showing the fail disc.
        static func showsEveryCell(_ img: Image, _ g: Shown, colours: [UInt32]? = nil) -> Bool {
            let wanted = colours ?? pictures.map(\.rgb)
            for (i, rgb) in wanted.enumerated() where !img.matches(g.centre(i).x, g.centre(i).y, rgb) { return false }
            // Below the cross, on the disc.
            let f = g.centre(pictures.count)
            return img.matches(f.x, f.y + 22, failRGB)
        }

        @Test func theGridShowsEachFileInOrderAndTheKeysMoveAndOpenTheHighlight() throws {
            let dir = try Self.folder()
            let g = try Self.show(dir, cache: try Scratch.directory("gallery-cache"))
            let probe = try ScreenProbe()
            let grid = g.window.waitFor(probe) { Self.showsEveryCell($0, g) }
            #expect(grid != nil, "the cells do not show the files' colours in order")
            // The current item (the first) is framed in the theme colour; its neighbour is not.
            #expect(grid?.matches(g.frame(0).x, g.frame(0).y, RGB.theme) == true)
            #expect(grid?.matches(g.frame(1).x, g.frame(1).y, RGB.theme) == false)

            try g.key("Right")
            try g.key("Right")
            try g.key("Left")
            #expect(Events.waitFor(g.log, "gallery_selected", index: 2) != nil)
            let moved = g.window.waitFor(probe) {
                $0.matches(g.frame(1).x, g.frame(1).y, RGB.theme) && !$0.matches(g.frame(0).x, g.frame(0).y, RGB.theme)
            }
            #expect(moved != nil, "the highlight did not move to the second cell")

            // Enter opens the highlighted item: its picture fills the window.
            try g.key("Return")
            #expect(Events.waitFor(g.log, "first_frame", index: 1) != nil, "Enter did not open the second item")
            #expect(g.window.waitFor(probe) { $0.matches(400, 300, 0x00FF00) } != nil)

            // Back in the gallery, Escape returns to the item without opening another, and a
            // click on a cell opens that one.
            try g.key("g")
            _ = g.window.waitFor(probe) { Self.showsEveryCell($0, g) }
            try g.key("Escape")
            #expect(g.window.waitFor(probe) { $0.matches(400, 300, 0x00FF00) } != nil, "Escape did not return to the item")
            try g.key("g")
            _ = g.window.waitFor(probe) { Self.showsEveryCell($0, g) }
            let c = g.centre(3)
            try xdotool(["mousemove", "--window", String(g.window.id), String(c.x), String(c.y), "click", "1"])
            #expect(Events.waitFor(g.log, "first_frame", index: 3) != nil, "a click did not open the item under it")
            #expect(g.window.waitFor(probe) { $0.matches(400, 300, 0xFFFF00) } != nil)
            let ended = try #require(try g.quit())
            #expect(ended.status == 0, "stderr: \(ended.stderr)")
            let closes = try Events.read(g.log).filter { $0["event"] as? String == "gallery_closed" }
            #expect(closes.map { $0["opened"] as? Int } == [1, nil, 3])
        }

        @Test func thumbnailsFollowTheStandardAndASecondRunReadsThem() throws {
            let dir = try Self.folder()
            let cache = try Scratch.directory("gallery-std")
            let first = try Self.show(dir, cache: cache)
            #expect(try first.quit()?.status == 0)
            let thumbnails = cache + "/thumbnails"

            // Each picture's thumbnail is where another program looks for it, as they write it.
            var names: [String: (uri: String, md5: String)] = [:]
            for name in Self.pictures.map(\.name) + [Self.broken] {
                names[name] = try Self.uriAndMD5(dir + "/" + name)
            }
            for p in Self.pictures {
                let (uri, md5) = try #require(names[p.name])
                let file = thumbnails + "/normal/" + md5 + ".png"
                let png = try #require(FileManager.default.contents(atPath: file), "no thumbnail for \(p.name) at \(file)")
                let chunks = try Self.chunks([UInt8](png))
                #expect(chunks.text["Thumb::URI"] == uri)
                #expect(chunks.text["Thumb::MTime"] == String(try Self.mtime(dir + "/" + p.name)))
                #expect(chunks.width == 128 && chunks.height == 96, "\(p.name): \(chunks.width)x\(chunks.height)")
                #expect(try Self.mode(file) == 0o600)
            }
            for folder in ["", "/normal", "/fail", "/fail/mediaview-0.1.0"] {
                #expect(try Self.mode(thumbnails + folder) == 0o700, "\(folder)")
            }
            let (brokenURI, brokenMD5) = try #require(names[Self.broken])
            let fail = try #require(FileManager.default.contents(atPath: thumbnails + "/fail/mediaview-0.1.0/" + brokenMD5 + ".png"),
                                    "no failure recorded for the broken file")
            #expect(try Self.chunks([UInt8](fail)).text["Thumb::URI"] == brokenURI)
            #expect(try FileManager.default.contentsOfDirectory(atPath: thumbnails + "/normal").count == 4,
                    "a temporary file or a thumbnail of the broken file was left")

            // Thumbnails made by "another program": magenta for the red picture (its time
            // right), magenta for the lime one too but for an older version of the file.
            let red = try #require(names["a red.png"]), lime = try #require(names["b grün.png"])
            try Self.writeThumbnail(thumbnails + "/normal/" + red.md5 + ".png", uri: red.uri,
                                    mtime: try Self.mtime(dir + "/a red.png"))
            try Self.writeThumbnail(thumbnails + "/normal/" + lime.md5 + ".png", uri: lime.uri,
                                    mtime: try Self.mtime(dir + "/b grün.png") - 60)
            let second = try Self.show(dir, cache: cache)
            let colours: [UInt32] = [0xFF00FF, 0x00FF00, 0x0000FF, 0xFFFF00]
            #expect(second.window.waitFor(try ScreenProbe()) { Self.showsEveryCell($0, second, colours: colours) } != nil,
                    "the cached thumbnail was not shown, or the stale one was")
            #expect(try second.quit()?.status == 0)
            let made = try Events.read(second.log).filter { $0["event"] as? String == "thumbnail_made" }
            func from(_ name: String) -> String? { made.first { $0["path"] as? String == dir + "/" + name }?["from"] as? String }
            #expect(from("a red.png") == "cache")
            #expect(from("c blue ☃.png") == "cache")
            #expect(from("b grün.png") == "made", "a thumbnail of an older file was used")
            #expect(from(Self.broken) == "failed")
            // The stale thumbnail was replaced by one of the file as it is.
            let redone = try #require(FileManager.default.contents(atPath: thumbnails + "/normal/" + lime.md5 + ".png"))
            #expect(try Self.chunks([UInt8](redone)).text["Thumb::MTime"] == String(try Self.mtime(dir + "/b grün.png")))
        }

        /// A read-only cache (bind-mounted read-only in a namespace of its own, which even
        /// root cannot write): the grid still shows every thumbnail, and one line says they
        /// are not saved.
        @Test func aReadOnlyCacheIsSaidOnceAndTheGridStillShows() throws {
            let dir = try Self.folder()
            let cache = try Scratch.directory("gallery-ro")
            let script = "mount --bind \"$1\" \"$1\" && mount -o remount,ro,bind \"$1\" && shift && exec \"$@\""
            let g = try Self.show(dir, cache: cache, wrapper: ["unshare", "-m", "sh", "-c", script, "sh", cache])
            #expect(g.window.waitFor(try ScreenProbe()) { Self.showsEveryCell($0, g) } != nil)
            let ended = try #require(try g.quit())
            #expect(ended.status == 0)
            let errs = lines(ended.stderr)
            #expect(errs.count == 1, "\(errs)")
            #expect(errs.first?.hasPrefix("mediaview: thumbnails are not saved (") == true, "\(errs)")
            #expect(errs.first?.contains("Read-only file system") == true, "\(errs)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
        }

        /// Sixty items, red and blue in turn: End, PageUp, the wheel and Home scroll the grid
        /// by whole rows, and the highlight stays on screen.
        @Test func longQueuesScrollWithEndPageUpTheWheelAndHome() throws {
            let dir = try Scratch.directory("gallery-long")
            let red = try Fixtures.solidImage("red", width: 160, height: 120)
            let blue = try Fixtures.solidImage("blue", width: 160, height: 120)
            for i in 0..<60 { try FileManager.default.linkItem(atPath: i % 2 == 0 ? red : blue, toPath: dir + "/p\(i).png") }
            let g = try Self.show(dir, cache: try Scratch.directory("gallery-long-cache"), items: 60)
            let columns = try #require(g.layout["columns"] as? Int)
            #expect(columns == 5)
            let probe = try ScreenProbe()
            func colour(_ i: Int) -> UInt32 { i % 2 == 0 ? RGB.red : RGB.blue }
            /// Row `top` is the first on screen: its cells show their items' colours.
            func showsRows(from top: Int, _ img: Image) -> Bool {
                (top * columns..<(top + 3) * columns).allSatisfy { img.matches(g.centre($0, topRow: top).x, g.centre($0, topRow: top).y, colour($0)) }
            }
            // 60 items in rows of 5, three rows on screen: End shows rows 9 to 11.
            try g.key("End")
            #expect(Events.waitFor(g.log, "gallery_selected", index: 59) != nil)
            #expect(g.window.waitFor(probe, timeout: 15) {
                showsRows(from: 9, $0) && $0.matches(g.frame(59, topRow: 9).x, g.frame(59, topRow: 9).y, RGB.theme)
            } != nil, "End did not scroll to the last row with the last item framed")
            // Page up: three rows up, the highlight with them.
            try g.key("Prior")
            #expect(Events.waitFor(g.log, "gallery_selected", index: 44) != nil)
            #expect(g.window.waitFor(probe, timeout: 15) {
                showsRows(from: 8, $0) && $0.matches(g.frame(44, topRow: 8).x, g.frame(44, topRow: 8).y, RGB.theme)
            } != nil)
            // The wheel scrolls by rows without moving the highlight.
            try xdotool(["mousemove", "--window", String(g.window.id), "400", "300"])
            for _ in 0..<3 { try xdotool(["click", "4"]) }
            #expect(g.window.waitFor(probe, timeout: 15) { showsRows(from: 5, $0) } != nil, "the wheel did not scroll")
            try g.key("Home")
            #expect(Events.waitFor(g.log, "gallery_selected", index: 0) != nil)
            #expect(g.window.waitFor(probe, timeout: 15) {
                showsRows(from: 0, $0) && $0.matches(g.frame(0).x, g.frame(0).y, RGB.theme)
            } != nil)
            #expect(try g.quit()?.status == 0)
        }

        // MARK: Another reader of the standard.

        /// The file's URI and its MD5 as Python computes them.
        static func uriAndMD5(_ path: String) throws -> (uri: String, md5: String) {
            let python = "import sys,hashlib,pathlib; u=pathlib.Path(sys.argv[1]).as_uri(); print(u); print(hashlib.md5(u.encode()).hexdigest())"
            let r = try Run.process("python3", ["-c", python, path], timeout: 10)
            let out = lines(r.stdout)
            guard out.count == 2 else { throw FixtureError("python3 said: \(r.stdout) \(r.stderr)") }
            return (out[0], out[1])
        }

        /// A PNG's size and `tEXt` chunks, read here byte by byte.
        static func chunks(_ png: [UInt8]) throws -> (width: Int, height: Int, text: [String: String]) {
            guard png.count > 33, png[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
                throw FixtureError("not a PNG")
            }
            func be(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            var text: [String: String] = [:]
            var at = 8
            var size = (0, 0)
            while at + 12 <= png.count {
                let length = be(at), type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
                let data = Array(png[(at + 8)..<min(png.count, at + 8 + length)])
                if type == "IHDR" { size = (be(at + 8), be(at + 12)) }
                if type == "tEXt", let zero = data.firstIndex(of: 0) {
                    text[String(decoding: data[..<zero], as: UTF8.self)] = String(decoding: data[(zero + 1)...], as: UTF8.self)
                }
                at += 12 + length
            }
            return (size.0, size.1, text)
        }

        /// A 128x96 magenta PNG with these text chunks, written by Python's zlib.
        static func writeThumbnail(_ path: String, uri: String, mtime: Int) throws {
            let python = """
            import sys, zlib, struct
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
            w, h = 128, 96
            raw = b''.join(b'\\x00' + b'\\xff\\x00\\xff' * w for _ in range(h))
            png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            png += chunk(b'tEXt', b'Thumb::URI\\x00' + sys.argv[2].encode()) + chunk(b'tEXt', b'Thumb::MTime\\x00' + sys.argv[3].encode())
            png += chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
            open(sys.argv[1], 'wb').write(png)
            """
            let r = try Run.process("python3", ["-c", python, path, uri, String(mtime)], timeout: 10)
            guard r.status == 0 else { throw FixtureError("python3: \(r.stderr)") }
        }

        static func mtime(_ path: String) throws -> Int {
            var st = stat()
            guard stat(path, &st) == 0 else { throw FixtureError("cannot stat \(path)") }
            return st.st_mtim.tv_sec
        }

        static func mode(_ path: String) throws -> Int {
            var st = stat()
            guard stat(path, &st) == 0 else { throw FixtureError("cannot stat \(path)") }
            return Int(st.st_mode & 0o777)
        }
    }
}
