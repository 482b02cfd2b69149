import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Setting media, the seed's `set...` calls, and starting the player.
extension MediaView {
    /// Shows an image from a path, `file://` URL or web URL.
    public func setImage(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .image, completion: completion)
    }

    public func setVideo(url: String, thumbnailUrl: String? = nil, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .video, completion: completion)
        thumbnailURL = thumbnailUrl
    }

    public func setGIF(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .gif, completion: completion)
    }

    /// Shows a GIF held in memory (it is written to a private temporary file first, since
    /// the decoder reads files).
    public func setGIF(data: Data, completion: ((MediaView) -> Void)? = nil) {
        guard let path = MediaView.writeTemporary(data, suffix: ".gif") else {
            resetMedia()
            kind = .gif
            failure = MediaError("cannot write a temporary file for the GIF data")
            return
        }
        setMedia(path, kind: .gif, completion: completion)
        tempFiles.append(path)
    }

    public func setAudio(url: String, thumbnailUrl: String? = nil, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .audio, completion: completion)
        thumbnailURL = thumbnailUrl
    }

    /// Sets any media and lets the decoder tell what it is (the program's file arguments).
    public func setMedia(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: MediaView.guessKind(url), completion: completion)
    }

    func setMedia(_ url: String, kind: MediaKind, completion: ((MediaView) -> Void)?) {
        resetMedia()
        mediaURL = url
        self.kind = kind
        loadCompletion = completion
    }

    /// Starts opening and decoding (paused until presented), so presenting is instant.
    /// Called by the queue for the item after the current one.
    public func prepare() {
        guard player == nil, failure == nil, pendingFailure == nil, let url = mediaURL else { return }
        switch MediaView.resolve(url) {
        case .failure(let e):
            // Told when the view is presented, so the log reads in the order things show.
            pendingFailure = e
        case .success(let resolved):
            let w = wake
            player = Player(url: resolved, options: openingOptions(url: url, resolved: resolved), wake: { w() })
        }
    }

    /// The player options for opening this view's media (paused, named, cached).
    func openingOptions(url: String, resolved: String) -> PlayerOptions {
        var o = playerOptions
        o.startPaused = true
        o.mediaName = title ?? MediaView.displayName(url)
        // Issue 5: which caches this source reads and fills.
        o.source = CacheManager.shared.sourceOptions(o.source, url: resolved, kind: kind, view: self,
                                                     streamToDisk: shouldCacheStreamedMedia)
        return o
    }

    func fail(_ e: MediaError) {
        guard failure == nil else { return }
        failure = e
        player?.close()
        player = nil
        notify { $0.didFailToPlayMedia(for: self, error: e) }
        let done = loadCompletion
        loadCompletion = nil
        done?(self)
    }

    /// Turns what a user typed into something FFmpeg opens, or a clear reason why not.
    ///
    /// Local files are checked here first so that a missing file, a directory or an empty
    /// file gets a plain message rather than a decoder's.
    static func resolve(_ url: String) -> Result<String, MediaError> {
        if SourceOptions.isNetwork(url) { return .success(url) }
        var path = url
        if url.lowercased().hasPrefix("file://") {
            guard let u = URL(string: url), u.isFileURL else { return .failure(MediaError("\(SourceOptions.redacted(url)): not a valid file URL")) }
            path = u.path
        } else if let colon = url.firstIndex(of: ":"), url[..<colon].allSatisfy({ $0.isLetter }), url[..<colon].count > 1,
                  !FileManager.default.fileExists(atPath: url) {
            return .failure(MediaError("\(SourceOptions.redacted(url)): unsupported kind of URL (only files, http and https)"))
        }
        var st = stat()
        guard stat(path, &st) == 0 else {
            return .failure(MediaError("\(displayName(path)): \(String(cString: strerror(errno)))"))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(MediaError("\(displayName(path)): is a directory")) }
        if st.st_size == 0 { return .failure(MediaError("\(displayName(path)): file is empty")) }
        guard access(path, R_OK) == 0 else { return .failure(MediaError("\(displayName(path)): permission denied")) }
        // "file:" stops FFmpeg from reading a colon in the name as a protocol.
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return .success("file:" + absolute)
    }

    static func displayName(_ url: String) -> String {
        if SourceOptions.isNetwork(url) { return SourceOptions.redacted(url) }
        return url.split(separator: "/").last.map(String.init) ?? url
    }

    /// A first guess from the name; the decoder has the last word.
    static func guessKind(_ url: String) -> MediaKind {
        let ext = (url.split(separator: "?").first.map(String.init) ?? url).split(separator: ".").last?.lowercased() ?? ""
        switch ext {
        case "jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff": return .image
        case "gif", "apng": return .gif
        case "mp3", "m4a", "aac", "flac", "ogg", "oga", "opus", "wav": return .audio
        default: return .video
        }
    }

    static func writeTemporary(_ data: Data, suffix: String) -> String? {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(dir)/mediaview-XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let ok = data.withUnsafeBytes { raw in write(fd, raw.baseAddress, raw.count) == raw.count }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !ok { unlink(path); return nil }
        return path
    }
}
