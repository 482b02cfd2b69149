import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// `make install` and `make uninstall` into a DESTDIR, as a packager runs them (with the
    /// debug build as the program, so the test does not make a release build), and what a
    /// desktop then finds: a valid desktop file, the icons, a man page that renders, and a
    /// program that finds its own files.
    @Suite struct Install {
        private func make(_ args: [String]) throws -> Run.Result {
            try Run.process("make", ["-C", Run.repositoryRoot, "--no-print-directory"] + args, timeout: 60)
        }

        @Test func installsLikeADesktopProgramAndUninstallsCleanly() throws {
            let root = try Scratch.directory("destdir")
            let vars = ["DESTDIR=\(root)", "PREFIX=/usr"]
            let installed = try make(["install-files", "BIN=\(Run.mediaview)"] + vars)
            #expect(installed.status == 0, "make install failed: \(installed.stderr)")
            let usr = root + "/usr"
            let desktop = usr + "/share/applications/mediaview.desktop"
            let validate = try Run.process("desktop-file-validate", [desktop], timeout: 10)
            #expect(validate.status == 0 && !validate.stdout.contains("error"), "desktop-file-validate: \(validate.stdout)")
            // A file manager's "open" joins a running player, or opens the file with its folder.
            #expect(try String(contentsOfFile: desktop, encoding: .utf8).contains("Exec=mediaview --enqueue --browse-folder %U"))
            // "Open with" menus match real types: a wildcard such as image/* matches none.
            let mimeLine = try String(contentsOfFile: desktop, encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("MimeType=") }.map(String.init) ?? ""
            let types = Set(mimeLine.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
            #expect(!types.contains { $0.hasSuffix("/*") }, "wildcards: \(mimeLine)")
            for t in ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/heic", "image/jxl",
                      "image/svg+xml", "video/mp4", "video/webm", "video/x-matroska", "audio/mpeg", "audio/flac", "audio/ogg"] {
                #expect(types.contains(t), "\(t) missing from \(mimeLine)")
            }
            for size in [16, 24, 32, 48, 64, 128, 256] {
                let png = usr + "/share/icons/hicolor/\(size)x\(size)/apps/mediaview.png"
                let probe = try Run.process("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png],
                                            timeout: 10)
                #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(size),\(size)", "icon \(size): \(probe.stdout)")
            }
            #expect(FileManager.default.fileExists(atPath: usr + "/share/icons/hicolor/scalable/apps/mediaview.svg"))

            // The man page renders cleanly and lists what --help lists.
            let man = usr + "/share/man/man1/mediaview.1"
            let groff = try Run.process("groff", ["-man", "-Tutf8", "-ww", "-z", man], timeout: 10)
            #expect(groff.status == 0 && groff.stderr.isEmpty, "groff: \(groff.stderr)")
            // As plain ASCII, without bold or underline, so the options read as typed.
            let rendered = try Run.process("groff", ["-man", "-Tascii", "-P-cbou", man], timeout: 10)
            let help = try mediaview(["--help"]).stdout
            let options = help.split(separator: "\n").filter { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first }
            #expect(options.count > 40)
            for option in options {
                #expect(rendered.stdout.contains(option), "the man page lacks \(option)")
            }

            // The installed program finds its demo and icons without the source tree.
            var env = Run.environment()
            env["MEDIAVIEW_ASSETS"] = nil
            let run = try Run.process(usr + "/bin/mediaview", ["--autoexit", "--image-duration", "0.2", "--no-audio",
                                                               usr + "/share/mediaview/demo/" + demoStill()], timeout: 20, environment: env)
            #expect(run.status == 0, "installed program: \(run.stderr)")

            let removed = try make(["uninstall"] + vars)
            #expect(removed.status == 0, "make uninstall failed: \(removed.stderr)")
            let left = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter {
                var isDir: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDir) && !isDir.boolValue
            } ?? []
            #expect(left.isEmpty, "left behind: \(left)")
        }

        /// A still of the bundled demo.
        private func demoStill() throws -> String {
            let names = try FileManager.default.contentsOfDirectory(atPath: Run.repositoryRoot + "/assets/demo")
            return try #require(names.sorted().first { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }, "no demo still")
        }
    }
}
