import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import MediaCore

/// Decides where a source's bytes come from: memory, the disk cache, or the network
/// (copied into the caches on the way).
///
/// Local files are opened as they are. Web media is looked up in the memory cache first
/// (images and GIFs shown before in this process), then on disk (a complete earlier
/// download, which plays with the network gone), and only then fetched.
package enum SourceRoute {
    /// What the demuxer opens: a URL for FFmpeg, and the custom I/O to read it through.
    package struct Opened {
        /// What FFmpeg is asked to open.
        package var url: String
        /// The I/O it is read through; nil for FFmpeg's own.
        package var io: CustomIO?

        /// `url` read by FFmpeg itself, or through `io`.
        package init(url: String, io: CustomIO?) {
            self.url = url
            self.io = io
        }
    }

    /// Where `url`'s bytes come from: memory, a checked copy on disk, or the network through `CachingIO`.
    package static func open(url: String, options: SourceOptions, interrupt: AVIOInterruptCB) throws(AVError) -> Opened {
        guard SourceOptions.isNetwork(url) else { return Opened(url: url, io: nil) }
        if let memory = options.memoryCache, let data = memory.data(for: url), let io = MemoryIO(data: data) {
            return Opened(url: url, io: io)
        }
        let checked = options.cache?.check(url)
        // A playlist kept by an older version is passed over: its parts would be looked
        // for beside the copy.
        if let path = checked?.path, !PlaylistText.begins(path: path) {
            // "file:" keeps a colon in the path from reading as a protocol.
            return Opened(url: "file:" + path, io: nil)
        }
        let sinks = CachingIO.Sinks(cache: options.cache, directory: options.cacheDirectory,
                                    memory: options.memoryCache, onCached: options.onCached)
        do {
            let io = try CachingIO.open(url: url, options: options, sinks: sinks, interrupt: interrupt)
            return Opened(url: url, io: io)
        } catch {
            // Offline, a damaged copy is refused rather than played as if whole; say both.
            guard let refused = checked?.refused else { throw error }
            throw AVError(code: error.code, message: "\(error.message); \(refused)")
        }
    }
}

extension SourceOptions {
    /// `$MEDIAVIEW_CA_FILE` (a private CA, as the tests use), else the system's bundle.
    /// Read once: every queue item's options start from it, and building the environment
    /// dictionary for each of a million items made queueing a big folder take minutes.
    public static let defaultCAFile: String = {
        if let p = ProcessInfo.processInfo.environment["MEDIAVIEW_CA_FILE"], !p.isEmpty { return p }
        return "/etc/ssl/certs/ca-certificates.crt"
    }()
}
