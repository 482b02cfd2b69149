/// How a source is opened: network limits, TLS, what it may reach, and how big an image
/// may be.
public struct SourceOptions: Sendable {
    /// Seconds a network connect or read may take before the item fails.
    public var networkTimeout: Double = 15
    /// Largest image, in pixels, that is decoded at all; larger ones are refused before
    /// any memory is allocated for them.
    public var maxPixels: Int = 100_000_000
    /// CA bundle used to verify TLS certificates: `$MEDIAVIEW_CA_FILE` if set, else the
    /// system's bundle.
    public var caFile: String = SourceOptions.defaultCAFile
    /// Decode threads for libavcodec; 0 lets it choose from the cores.
    public var decodeThreads: Int = 0
    /// Web media is read only where asked, by byte ranges: a server that does not take
    /// them is refused at its first answer. For readers that jump around a file they do not
    /// play (track previews), where reading on to each target would download all of it.
    public var needsByteRanges = false

    // Caching. Set by the viewer; with none of them, web media is read straight.
    /// Disk cache for web media: read before the network, written while streaming.
    public var cache: MediaCache?
    /// The cache directory a download of this source is filed under.
    public var cacheDirectory: MediaCache.Directory = .video
    /// In-memory cache for small web media (images, GIFs).
    public var memoryCache: MemoryCache?
    /// Called on a background thread with the cache path once the whole source is stored.
    public var onCached: (@Sendable (String) -> Void)?

    /// The defaults: a 15 s network timeout, 100 megapixels, `defaultCAFile`, no caches.
    public init() {}

    /// Longest network timeout honoured: a day. A longer wait is indistinguishable from
    /// none to a user, and any number a caller passes must convert to FFmpeg's integer
    /// microseconds (and our nanosecond deadlines) without trapping.
    static let longestTimeout: Double = 86_400

    /// `networkTimeout` made safe to convert: within [0.1 s, a day]; NaN means the default.
    public var effectiveTimeout: Double { SourceOptions.clampedTimeout(networkTimeout) }

    /// Any number of seconds within [0.1 s, a day], NaN as the default 15 s.
    package static func clampedTimeout(_ seconds: Double) -> Double {
        guard !seconds.isNaN else { return 15 }
        return min(max(seconds, 0.1), longestTimeout)
    }

    /// The timeout in FFmpeg's unit, microseconds.
    var timeoutMicroseconds: Int64 { Int64(effectiveTimeout * 1e6) }

    /// Whether a string names web media (as opposed to a local path or file:// URL).
    public static func isNetwork(_ url: String) -> Bool {
        let l = url.lowercased()
        return l.hasPrefix("http://") || l.hasPrefix("https://")
    }

    /// The libavformat options for opening `url`.
    ///
    /// The protocol whitelist is what keeps a remote playlist from reaching local files:
    /// web media may only use web protocols, local media only `file`.
    package func formatOptions(for url: String) -> [(String, String)] {
        var o: [(String, String)] = []
        if SourceOptions.isNetwork(url) {
            o.append(("protocol_whitelist", "http,https,tcp,tls,crypto"))
            o.append(("rw_timeout", String(timeoutMicroseconds)))
            o.append(("timeout", String(timeoutMicroseconds)))
            // FFmpeg does not verify certificates unless asked to.
            o.append(("tls_verify", "1"))
            o.append(("ca_file", caFile))
            o.append(("reconnect", "0"))
        } else if url.hasPrefix("memory:") {
            // Bytes handed over in memory (MediaProbe) reach nothing else: a playlist among
            // them opens neither files nor the network.
            o.append(("protocol_whitelist", "none"))
        } else {
            o.append(("protocol_whitelist", "file"))
        }
        // Browsers' rule for GIF delays: <= 10 ms means 100 ms (the demuxer's min_delay is
        // in hundredths of a second; below it, default_delay applies).
        o.append(("min_delay", "2"))
        o.append(("default_delay", "10"))
        return o
    }
}
