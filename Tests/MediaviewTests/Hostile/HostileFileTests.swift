import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Files built to cost a viewer time: each is refused or bounded in one line and the
    /// queue goes on to the next item promptly.
    @Suite struct HostileFiles {
        /// An SVG whose 20 filters (ten blurs, ten morphology windows, all large) would keep
        /// librsvg busy for half a minute: one line names it, and the next picture shows
        /// within seconds.
        @Test func anSVGWithCostlyFiltersIsRefusedPromptly() throws {
            var filters = "", uses = ""
            for i in 0..<10 {
                filters += #"<filter id="b\#(i)"><feGaussianBlur stdDeviation="300"/></filter>"#
                filters += #"<filter id="m\#(i)"><feMorphology operator="dilate" radius="60"/></filter>"#
                uses += #"<rect width="1000" height="1000" fill="red" filter="url(#b\#(i))"/>"#
                uses += #"<rect width="1000" height="1000" fill="red" filter="url(#m\#(i))"/>"#
            }
            let bomb = try Fixtures.bytes("hostile-filters.svg", Data(
                (#"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs>"# + filters + "</defs>" + uses + "</svg>").utf8))
            let blue = try Fixtures.bytes("hostile-next-blue.svg", Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="rgb(20,90,200)"/></svg>"#.utf8))
            let probe = try ScreenProbe()
            let began = Date()
            let run = try Launched(["--windowed", "--geometry", "640x640+0+0", "--no-audio", "--autoexit",
                                    "--image-duration", "1", bomb, blue])
            defer { kill(run.pid, SIGKILL); _ = run.finish(timeout: 10) }
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            let next = window.waitFor(probe, timeout: 12) { $0.matches($0.width / 2, $0.height / 2, StillFormats.blue, tolerance: 12) }
            #expect(next != nil, "the picture after the costly SVG did not show within 12 s; stderr: \(run.stderr)")
            #expect(Date().timeIntervalSince(began) < 12)
            let said = lines(run.stderr).filter { $0.contains("hostile-filters.svg") }
            #expect(said.count == 1 && said.first?.contains("filters") == true, "\(run.stderr)")
        }

        /// Copies `source` into `dir` under a name given as bytes in shell `printf` form
        /// (`caf\\351.png`: Latin-1 é), which no Swift string can spell.
        private func copy(_ source: String, into dir: String, bytes name: String) throws {
            let r = try Run.process("sh", ["-c", "cp \"$1\" \"$2/$(printf \"$3\")\"", "sh", source, dir, name], timeout: 10)
            #expect(r.status == 0, "\(r.stderr)")
        }

        /// A Latin-1 name given on the command line: it opens, and nothing is said.
        @Test func aNameThatIsNotUTF8OpensFromTheCommandLine() throws {
            let dir = try Scratch.directory("latin1-arg")
            try copy(try Fixtures.solidImage("blue"), into: dir, bytes: "caf\\351.png")
            let probe = try ScreenProbe()
            // The name's bytes reach the program as they are, through the shell.
            let wrapper = ["sh", "-c", "exec \"$@\" \"$(printf \"%s/caf\\351.png\" \"$LATIN1_DIR\")\"", "sh"]
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit", "--image-duration", "1"],
                                   environment: ["LATIN1_DIR": dir], wrapper: wrapper)
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, RGB.blue) } != nil,
                    "caf\\xE9.png did not show; stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 15))
            #expect(end.status == 0 && end.stderr.isEmpty, "status \(end.status); stderr: \(end.stderr)")
        }

        /// Latin-1 names inside a folder: the pictures open in their turn, and the damaged
        /// one's line shows its name with U+FFFD for the byte that is not UTF-8.
        @Test func namesThatAreNotUTF8OpenInsideAFolder() throws {
            let dir = try Scratch.directory("latin1-folder")
            try copy(try Fixtures.solidImage("blue"), into: dir, bytes: "a caf\\351.png")
            try copy(try Fixtures.bytes("latin1-junk.png", Data("no picture".utf8)), into: dir, bytes: "b d\\351j\\340 vu.png")
            try copy(try Fixtures.solidImage("red"), into: dir, bytes: "c \\377.png")
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", "--no-audio", "--autoexit", "--image-duration", "2", dir])
            let window = try #require(ProgramWindow.wait(probe), "no window; stderr: \(run.stderr)")
            #expect(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, RGB.blue) } != nil,
                    "a caf\\xE9.png did not show; stderr: \(run.stderr)")
            #expect(window.waitFor(probe) { $0.matches($0.width / 2, $0.height / 2, RGB.red) } != nil,
                    "c \\xFF.png did not show; stderr: \(run.stderr)")
            let end = try #require(run.finish(timeout: 15))
            let said = lines(end.stderr)
            #expect(said.count == 1 && said.first?.contains("b d\u{FFFD}j\u{FFFD} vu.png") == true, "\(said)")
        }
    }
}
