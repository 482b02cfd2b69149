import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// A cache on a read-only disk (a shared or backed-up copy, a full-disk remount) is
    /// still read: what it holds plays offline.
    @Suite struct ReadOnlyCache {
        @Test func aFullyCachedVideoPlaysOfflineFromAReadOnlyCache() throws {
            let fixture = try Fixtures.solidVideo("teal", width: 160, height: 120, seconds: 1)
            let root = try TestEnvironment.httpRoot
            let name = "ro-\(UUID().uuidString.prefix(8)).mp4"
            try FileManager.default.copyItem(atPath: fixture, toPath: root + "/" + name)
            let url = try TestEnvironment.http + "/" + name
            let cacheDir = try Scratch.directory("rocache") + "/c"
            let quick = ["--autoexit", "--image-duration", "0.3", "--no-audio"]
            let first = try mediaview(quick + ["--cache-dir", cacheDir, url])
            #expect(first.status == 0, "\(first.stderr)")
            try FileManager.default.removeItem(atPath: root + "/" + name)

            // The cache directory, bind-mounted read-only in a mount namespace of its own:
            // even root cannot write there, and nothing outside this one run sees it.
            let script = "mount --bind \"$1\" \"$1\" && mount -o remount,ro,bind \"$1\" && shift && exec \"$@\""
            let args = ["-m", "sh", "-c", script, "sh", cacheDir, Run.mediaview] + quick + ["--cache-dir", cacheDir, url]
            let r = try Run.process("unshare", args, timeout: 20, environment: Run.environment())
            #expect(!r.timedOut)
            #expect(r.status == 0, "offline replay from a read-only cache failed: \(r.stderr)")
            let errs = lines(r.stderr)
            #expect(errs.count <= 1 && errs.allSatisfy { $0.contains("read-only") }, "\(errs)")
        }
    }
}
