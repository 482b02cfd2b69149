import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// `--sandbox` for a picture from the web when the worker cannot be started: strict
    /// refuses it in one line, auto says once that it decodes in-process and shows it, off
    /// shows it without a word.
    @Suite(.serialized) struct SandboxModes {
        static let quick = ["--autoexit", "--image-duration", "0.3", "--no-audio"]
        /// A worker program that is not there: every start of one fails.
        static let missing = ["MEDIAVIEW_WORKER": "/nonexistent/mediaview-worker"]

        private func webStill() throws -> (url: String, name: String, cleanup: () -> Void) {
            let png = try Fixtures.truecolourPNG("rgb(200,40,40)")
            let webp = try Fixtures.make("sbx-mode.webp", ["-i", png, "-c:v", "libwebp"])
            let name = "sbx-mode-\(getpid()).webp"
            let dst = try TestEnvironment.httpRoot + "/" + name
            try? FileManager.default.removeItem(atPath: dst)
            try FileManager.default.copyItem(atPath: webp, toPath: dst)
            return (try TestEnvironment.http + "/" + name, name, { try? FileManager.default.removeItem(atPath: dst) })
        }

        @Test func strictRefusesAWebStillInOneLine() throws {
            let web = try webStill()
            defer { web.cleanup() }
            let r = try mediaview(Self.quick + ["--sandbox", "strict", web.url], timeout: 30, environment: Self.missing)
            #expect(!r.timedOut && r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains(web.name) == true, "\(errs)")
        }

        @Test func autoSaysOnceAndShowsIt() throws {
            let web = try webStill()
            defer { web.cleanup() }
            let r = try mediaview(Self.quick + ["--sandbox", "auto", web.url], timeout: 30, environment: Self.missing)
            #expect(!r.timedOut && r.status == 0, "exit \(r.status); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("decoded in this process") == true, "\(errs)")
        }

        /// An animation is played by a worker too: without one, strict refuses it in one
        /// line and auto plays it here after saying so once.
        @Test func aGIFWithoutAWorkerIsRefusedByStrictAndPlayedByAuto() throws {
            let gif = try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 10)
            let strict = try mediaview(["--frames", "3", "--no-audio", "--sandbox", "strict", gif], timeout: 30, environment: Self.missing)
            #expect(!strict.timedOut && strict.status == 1, "exit \(strict.status); stderr: \(strict.stderr)")
            #expect(lines(strict.stderr).count == 1 && strict.stderr.contains(gif), "\(strict.stderr)")
            let auto = try mediaview(["--frames", "3", "--no-audio", "--sandbox", "auto", gif], timeout: 30, environment: Self.missing)
            #expect(!auto.timedOut && auto.status == 0, "exit \(auto.status); stderr: \(auto.stderr)")
            #expect(lines(auto.stderr).count == 1 && auto.stderr.contains("decoded in this process"), "\(auto.stderr)")
        }

        @Test func offShowsItWithoutAWord() throws {
            let web = try webStill()
            defer { web.cleanup() }
            let r = try mediaview(Self.quick + ["--sandbox", "off", web.url], timeout: 30, environment: Self.missing)
            #expect(!r.timedOut && r.status == 0 && r.stderr.isEmpty, "exit \(r.status); stderr: \(r.stderr)")
        }
    }
}
