import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Hostile answers get one line that says what the server did, not FFmpeg's errno text.
    @Suite struct WebMessages {
        @Test func redirectToAFileAndAGzipBombSayWhatHappened() throws {
            let h = try TestEnvironment.http
            let cases: [(String, [String])] = [
                (h + "/redirect-file/secret.jpg", ["redirected to a local file", "refused"]),
                (h + "/gzip-bomb/clip.mp4", ["gzip", "compressed", "refused"]),
            ]
            for (url, words) in cases {
                let r = try mediaview(["--autoexit", "--no-audio", "--timeout", "3", "--no-cache", url], timeout: 20)
                #expect(!r.timedOut, "\(url): hung")
                #expect(r.status == 1, "\(url): status \(r.status)")
                let errs = lines(r.stderr)
                #expect(errs.count == 1, "\(url): want one line: \(errs)")
                let line = errs.first ?? ""
                for w in words { #expect(line.contains(w), "\(url): '\(w)' missing from: \(line)") }
                #expect(!line.contains("Invalid argument") && !line.contains("stopped sending"), "\(line)")
            }
        }
    }
}
