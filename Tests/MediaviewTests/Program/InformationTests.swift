import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// What the program tells a user without showing anything: `--help`, `--version`,
    /// `--list-bindings`, and problems in the user's input.conf.
    @Suite struct Information {
        /// Every long option SPEC's "The command-line program" names.
        static let specOptions = [
            "--swipe-mode", "--minimized-aspect", "--minimized-width-ratio", "--top-buffer", "--bottom-buffer",
            "--theme-color", "--loop", "--no-autoplay", "--dismiss-after-finish", "--show-track",
            "--remaining-time", "--title", "--details", "--windowed", "--geometry", "--wid", "--cache-dir",
            "--no-cache", "--preload", "--autoexit", "--frames", "--no-audio", "--benchmark", "--events",
            "--image-duration", "--help", "--version", "--list-bindings",
        ]

        @Test func helpListsEveryOptionOfTheSpec() throws {
            let r = try mediaview(["--help"], timeout: 10)
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty)
            #expect(r.stdout.hasPrefix("Usage: mediaview"))
            // Options are listed at the start of a help line ("  --loop  ..."), so a name
            // that only appears inside another option's text does not count.
            let listed = Set(lines(r.stdout).compactMap { line -> String? in
                let t = line.trimmingCharacters(in: .whitespaces)
                guard t.hasPrefix("--") else { return nil }
                return String(t.prefix { $0 != " " })
            })
            for option in Self.specOptions {
                #expect(listed.contains(option), "--help does not list \(option)")
            }
            // The help fits a terminal of 80 columns.
            for line in lines(r.stdout) { #expect(line.count <= 80, "too wide: \(line)") }
        }

        @Test func shortHelpIsTheSame() throws {
            let long = try mediaview(["--help"], timeout: 10)
            let short = try mediaview(["-h"], timeout: 10)
            #expect(short.status == 0)
            #expect(short.stdout == long.stdout)
        }

        @Test func versionPrintsAVersion() throws {
            let r = try mediaview(["--version"], timeout: 10)
            #expect(r.status == 0)
            let out = lines(r.stdout)
            #expect(out.count == 1)
            #expect(out.first?.wholeMatch(of: /mediaview \d+\.\d+(\.\d+)?/) != nil, "\(out)")
        }

        /// The table `--list-bindings` prints, as key -> command text.
        private func bindings(_ environment: [String: String] = [:]) throws -> (table: [String: String], result: Run.Result) {
            let r = try mediaview(["--list-bindings"], timeout: 10, environment: environment)
            var table: [String: String] = [:]
            for line in lines(r.stdout) {
                let key = String(line.prefix { $0 != " " })
                table[key] = line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            }
            return (table, r)
        }

        @Test func listBindingsShowsTheEssentialKeys() throws {
            let (table, r) = try bindings()
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "the bundled input.conf has problems: \(r.stderr)")
            #expect(table["SPACE"] == "cycle pause")
            #expect(table["q"] == "quit")
            #expect(table["n"] == "playlist-next")
            #expect(table["p"] == "playlist-prev")
            #expect(table["f"] == "cycle fullscreen")
            #expect(table["m"] == "cycle mute")
        }

        /// One typo must not cost a user all their shortcuts: the bad line is reported with
        /// the file and its line number, the others take effect.
        @Test func badLineInUserInputConfIsReportedAndTheRestLoads() throws {
            let config = try Scratch.directory("config")
            try FileManager.default.createDirectory(atPath: config + "/mediaview", withIntermediateDirectories: true)
            let file = config + "/mediaview/input.conf"
            try """
            # my bindings
            x quit
            k frobnicate the widget
            F2 cycle mute
            q ignore

            """.write(toFile: file, atomically: true, encoding: .utf8)
            let (table, r) = try bindings(["XDG_CONFIG_HOME": config])
            #expect(r.status == 0)
            let errs = lines(r.stderr)
            #expect(errs.count == 1, "want one problem line: \(errs)")
            let line = errs.first ?? ""
            #expect(line.contains(file + ":3"), "should name the file and line 3: \(line)")
            #expect(line.contains("frobnicate"), "should say what is wrong: \(line)")
            // Lines before and after the bad one loaded; `ignore` unbound q; defaults remain.
            #expect(table["x"] == "quit")
            #expect(table["F2"] == "cycle mute")
            #expect(table["q"] == nil)
            #expect(table["k"] == nil)
            #expect(table["SPACE"] == "cycle pause")
        }

        /// The same problem report appears when the program is about to play, not only
        /// for `--list-bindings`, and playback still happens.
        @Test func badLineIsReportedWhenPlayingToo() throws {
            let config = try Scratch.directory("config-play")
            try FileManager.default.createDirectory(atPath: config + "/mediaview", withIntermediateDirectories: true)
            try "NoSuchKeyName quit\n".write(toFile: config + "/mediaview/input.conf", atomically: true, encoding: .utf8)
            let red = try Fixtures.solidImage("red")
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", red], timeout: 15,
                                  environment: ["XDG_CONFIG_HOME": config])
            #expect(r.status == 0)
            #expect(r.stderr.contains("input.conf:1"), "\(r.stderr)")
        }
    }
}
