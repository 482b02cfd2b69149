import Foundation

/// What `make test` (scripts/testenv.sh) provides; a test that needs it fails loudly with
/// how to get it, never skips.
public enum TestEnvironment {
    public static func require(_ name: String) throws -> String {
        guard let v = ProcessInfo.processInfo.environment[name], !v.isEmpty else {
            throw FixtureError("\(name) is not set: run the tests with `make test`, which starts Xvfb, PulseAudio and the test HTTP server")
        }
        return v
    }

    /// The X display the tests own.
    public static var display: String { get throws { try require("DISPLAY") } }
    /// The null sink's monitor source, to record what was played.
    public static var monitor: String { get throws { try require("MEDIAVIEW_TEST_MONITOR") } }
    /// Base URL of the HTTP test server.
    public static var http: String { get throws { try require("MEDIAVIEW_TEST_HTTP") } }
    /// The directory the HTTP server serves.
    public static var httpRoot: String { get throws { try require("MEDIAVIEW_TEST_HTTP_ROOT") } }
    /// The HTTP server's JSON-lines log: each request, and the bytes each one was sent.
    public static var httpLog: String { get throws { try require("MEDIAVIEW_TEST_HTTP_LOG") } }
}
