import Foundation

extension Fixtures {
    /// An HLS stream as a web server has it, on the test HTTP server: a playlist and 2 s
    /// MPEG-TS segments of x264 and AAC (6 s), made by FFmpeg's own HLS muxer with its
    /// defaults. Its address.
    public static func servedHLS() throws -> String {
        let dir = try TestEnvironment.httpRoot + "/hls-stream"
        if !FileManager.default.fileExists(atPath: dir + "/index.m3u8") {
            // Made aside and moved in whole: a test reading it meanwhile never sees half a stream.
            let making = dir + ".making-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: making, withIntermediateDirectories: true)
            let r = try Run.process("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
                                                        "-f", "lavfi", "-i", "sine=frequency=440", "-t", "6", "-c:v", "libx264",
                                                        "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "hls", "-hls_time", "2",
                                                        "-hls_list_size", "0", making + "/index.m3u8"], timeout: 60)
            guard r.status == 0 else { throw FixtureError("ffmpeg failed for the HLS stream: \(r.stderr)") }
            if rename(making, dir) != 0 { try? FileManager.default.removeItem(atPath: making) }
        }
        return try TestEnvironment.http + "/hls-stream/index.m3u8"
    }
}
