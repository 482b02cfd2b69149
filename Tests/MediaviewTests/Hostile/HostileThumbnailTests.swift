import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The gallery over a thumbnail cache someone tampered with: links out of it, another
    /// user's pictures planted in it, pipes and folders where thumbnails belong.
    @Suite struct HostileThumbnails {
        /// `cache/thumbnails` with `subfolders`, all made `mode` (as a desktop makes them, 0700).
        private func cache(_ label: String, _ subfolders: [String], mode: mode_t = 0o700) throws -> (cache: String, thumbnails: String) {
            let cache = try Scratch.directory(label)
            let thumbnails = cache + "/thumbnails"
            for folder in [""] + subfolders {
                try FileManager.default.createDirectory(atPath: thumbnails + folder, withIntermediateDirectories: true)
                chmod(thumbnails + folder, mode)
            }
            return (cache, thumbnails)
        }

        /// The grid of `dir` shows every picture in its cell; returns how the program ended
        /// and its event log.
        private func showsEveryCell(_ dir: String, cache: String, items: Int = 5) throws -> (Launched.Ended, log: String) {
            let g = try Gallery.show(dir, cache: cache, items: items)
            #expect(g.window.waitFor(try ScreenProbe()) { Gallery.showsEveryCell($0, g) } != nil,
                    "the grid does not show every picture; stderr: \(g.run.stderr)")
            let ended = try #require(try g.quit(), "the program did not quit")
            #expect(ended.status == 0)
            return (ended, g.log)
        }

        /// `normal/` or the failure folder replaced by a link to another folder: nothing is
        /// written where it points, one line says thumbnails are not saved, the grid shows.
        @Test(arguments: ["/normal", "/fail/mediaview-0.1.0"])
        func aLinkedCacheFolderIsNotWrittenThrough(linked: String) throws {
            let dir = try Gallery.folder()
            let (cache, thumbnails) = try cache("thumbs-linked", ["/fail"])
            let elsewhere = try Scratch.directory("thumbs-elsewhere")
            try FileManager.default.createSymbolicLink(atPath: thumbnails + linked, withDestinationPath: elsewhere)
            let (ended, _) = try showsEveryCell(dir, cache: cache)
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty,
                    "thumbnails were written through the link \(linked)")
            let said = lines(ended.stderr)
            #expect(said.count == 1 && said.first?.contains("thumbnails are not saved") == true
                    && said.first?.contains(linked) == true, "\(said)")
        }

        /// A shared cache that everyone may write, where another user planted a magenta
        /// picture under the red picture's name with its right URI and time: the red picture
        /// shows, and nothing is saved into such a cache.
        @Test func aThumbnailPlantedByAnotherUserIsNotShown() throws {
            let dir = try Gallery.folder()
            let (cache, thumbnails) = try cache("thumbs-shared", ["/normal"], mode: 0o777)
            let red = try Gallery.uriAndMD5(dir + "/a red.png")
            let planted = thumbnails + "/normal/" + red.md5 + ".png"
            try Gallery.writeThumbnail(planted, uri: red.uri, mtime: try Gallery.mtime(dir + "/a red.png"))
            #expect(chown(planted, 65534, 65534) == 0, "the test cannot give the file to another user")
            let (ended, _) = try showsEveryCell(dir, cache: cache)
            let said = lines(ended.stderr)
            #expect(said.count == 1 && said.first?.contains("may be written by other users") == true, "\(said)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: thumbnails + "/normal") == [red.md5 + ".png"],
                    "thumbnails were saved into a cache others can write")
        }

        /// A pipe in the red picture's cache slot and two pipes named like pictures in the
        /// folder: no thumbnail thread blocks on them; every picture's cell shows.
        @Test func pipesBlockNoThumbnail() throws {
            let dir = try Gallery.folder()
            for name in ["f pipe one.png", "f pipe two.png"] { #expect(mkfifo(dir + "/" + name, 0o644) == 0) }
            let (cache, thumbnails) = try cache("thumbs-pipes", ["/normal"])
            let red = try Gallery.uriAndMD5(dir + "/a red.png")
            #expect(mkfifo(thumbnails + "/normal/" + red.md5 + ".png", 0o600) == 0)
            let (_, log) = try showsEveryCell(dir, cache: cache, items: 7)
            let made = try Events.read(log).filter { $0["event"] as? String == "thumbnail_made" }
            #expect(made.count == 7, "\(made.count) of 7 cells done")
        }

        /// A folder where the red picture's thumbnail belongs: that one thumbnail is not
        /// saved, every other one is, and nothing is said about it.
        @Test func aFolderInOneSlotStopsOnlyThatThumbnail() throws {
            let dir = try Gallery.folder()
            let (cache, thumbnails) = try cache("thumbs-folder-slot", ["/normal"])
            let red = try Gallery.uriAndMD5(dir + "/a red.png")
            try FileManager.default.createDirectory(atPath: thumbnails + "/normal/" + red.md5 + ".png", withIntermediateDirectories: false)
            let (ended, _) = try showsEveryCell(dir, cache: cache)
            #expect(ended.stderr.isEmpty, "\(ended.stderr)")
            for p in Gallery.pictures.dropFirst() {
                let md5 = try Gallery.uriAndMD5(dir + "/" + p.name).md5
                #expect(FileManager.default.fileExists(atPath: thumbnails + "/normal/" + md5 + ".png"), "\(p.name) was not saved")
            }
            let broken = try Gallery.uriAndMD5(dir + "/" + Gallery.broken).md5
            #expect(FileManager.default.fileExists(atPath: thumbnails + "/fail/mediaview-0.1.0/" + broken + ".png"))
        }

        /// A downloaded file that crashes the decoder: its cell shows the fail disc and one
        /// line says how the decoder stopped; the crash is remembered, so the next gallery
        /// over the folder fails it at once instead of crashing another worker on it.
        @Test func aFileThatCrashesTheDecoderIsNotTriedAgain() throws {
            let dir = try Gallery.folder()
            let crashing = "e worker-crashes.png"
            try FileManager.default.removeItem(atPath: dir + "/" + Gallery.broken)
            try FileManager.default.copyItem(atPath: try Fixtures.solidImage("red", width: 160, height: 120),
                                             toPath: dir + "/" + crashing)
            let (cache, thumbnails) = try cache("thumbs-crash", ["/normal"])
            // The worker crashes on the file's name only in a test run.
            let testing = ["MEDIAVIEW_WORKER_TEST": "1"]
            func crashReasons(_ log: String) throws -> [String] {
                try Events.read(log).filter { $0["event"] as? String == "thumbnail_made" && ($0["path"] as? String ?? "").hasSuffix(crashing) }
                    .compactMap { $0["reason"] as? String }
            }
            for visit in 1...2 {
                let g = try Gallery.show(dir, cache: cache, environment: testing)
                #expect(g.window.waitFor(try ScreenProbe()) { Gallery.showsEveryCell($0, g) } != nil,
                        "visit \(visit): the grid does not show every picture and the fail disc; stderr: \(g.run.stderr)")
                let reasons = try crashReasons(g.log)
                let ended = try #require(try g.quit(), "the program did not quit")
                #expect(ended.status == 0, "stderr: \(ended.stderr)")
                if visit == 1 {
                    #expect(reasons == ["\(crashing): the decoder stopped: crashed (SIGABRT)"], "\(reasons)")
                    let md5 = try Gallery.uriAndMD5(dir + "/" + crashing).md5
                    #expect(FileManager.default.fileExists(atPath: thumbnails + "/fail/mediaview-0.1.0/" + md5 + ".png"),
                            "the crash was not remembered")
                } else {
                    #expect(reasons == ["no thumbnail could be made before"], "the file crashed a worker again: \(reasons)")
                }
            }
        }
}
}
