import Foundation

extension Fixtures {
    /// An HLS stream as a web server has it, on the test HTTP server: a playlist and 2 s
    /// MPEG-TS segments of x264 and AAC (6 s), made by FFmpeg's own HLS muxer with its
    /// defaults; `encrypted`, each segment in AES-128 with a key the server also serves, as
    /// broadcasters protect theirs. Its address.
    public static func servedHLS(encrypted: Bool = false) throws -> String {
        let name = encrypted ? "hls-stream-aes" : "hls-stream"
        let dir = try TestEnvironment.httpRoot + "/" + name
        if !FileManager.default.fileExists(atPath: dir + "/index.m3u8") {
            // Made aside and moved in whole: a test reading it meanwhile never sees half a stream.
            let making = dir + ".making-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: making, withIntermediateDirectories: true)
            var keying: [String] = []
            if encrypted {
                let key = Data((0..<16).map { UInt8(($0 * 37 + 11) & 0xFF) })
                try key.write(to: URL(fileURLWithPath: making + "/stream.key"))
                let info = "\(try TestEnvironment.http)/\(name)/stream.key\n\(making)/stream.key\n00112233445566778899aabbccddeeff\n"
                try Data(info.utf8).write(to: URL(fileURLWithPath: making + "/key-info"))
                keying = ["-hls_key_info_file", making + "/key-info"]
            }
            let r = try Run.process("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
                                                        "-f", "lavfi", "-i", "sine=frequency=440", "-t", "6", "-c:v", "libx264",
                                                        "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "hls", "-hls_time", "2",
                                                        "-hls_list_size", "0"] + keying + [making + "/index.m3u8"], timeout: 60)
            guard r.status == 0 else { throw FixtureError("ffmpeg failed for the HLS stream: \(r.stderr)") }
            if rename(making, dir) != 0 { try? FileManager.default.removeItem(atPath: making) }
        }
        return try TestEnvironment.http + "/\(name)/index.m3u8"
    }

    /// A 6 s MPEG-DASH stream (x264 and AAC in fragmented MP4, 2 s segments, a static MPD)
    /// from FFmpeg's DASH muxer with its defaults, served by the test HTTP server; its URL.
    public static func servedDASH() throws -> String {
        let dir = try TestEnvironment.httpRoot + "/dash-stream"
        if !FileManager.default.fileExists(atPath: dir + "/manifest.mpd") {
            let making = dir + ".making-\(getpid())-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: making, withIntermediateDirectories: true)
            let r = try Run.process("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
                                                        "-f", "lavfi", "-i", "sine=frequency=440", "-t", "6", "-c:v", "libx264",
                                                        "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "dash", "-seg_duration", "2",
                                                        making + "/manifest.mpd"], timeout: 60)
            guard r.status == 0 else { throw FixtureError("ffmpeg failed for the DASH stream: \(r.stderr)") }
            if rename(making, dir) != 0 { try? FileManager.default.removeItem(atPath: making) }
        }
        return try TestEnvironment.http + "/dash-stream/manifest.mpd"
    }
}
