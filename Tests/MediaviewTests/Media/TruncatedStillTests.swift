import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// SPEC: a truncated file shows the fail indicator and is reported (exit 1), whichever
    /// decoder reads it; a photo half grey with exit 0 is a silent lie.
    @Suite struct TruncatedStills {
        /// A 12 MP photo-like picture (noise, so the coded data spreads over the file).
        static func photo(_ ext: String) throws -> String {
            try Fixtures.make("photo-12mp.\(ext)", ["-f", "lavfi", "-i", "testsrc2=s=4000x3000,noise=alls=20:allf=t",
                                                     "-frames:v", "1"] + (ext == "jpg" ? ["-q:v", "3"] : []))
        }

        @Test(arguments: ["jpg", "webp"])
        func firstThirdOfAPhotoFailsWithOneLine(ext: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: try Self.photo(ext)))
            let path = try Fixtures.bytes("photo-third.\(ext)", data.prefix(data.count / 3))
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", path], timeout: 30)
            #expect(!r.timedOut)
            #expect(r.status == 1, "\(ext): a third of a photo exited \(r.status); stderr: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count == 1 && errs.first?.contains("photo-third.\(ext)") == true, "\(ext): \(errs)")
        }
    }
}
