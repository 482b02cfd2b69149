import Dispatch
import FoundationEssentials
import Glibc
import MediaCore
import Playback
import Web
import Windowing

/// Setting media with MediaView's `set...` calls, and opening it.
extension MediaView {
    /// Shows an image from a path, `file://` URL or web URL.
    public func setImage(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .image, completion: completion)
    }

    /// Shows a video, with a picture (a path or URL) to show until it plays.
    public func setVideo(url: String, thumbnailUrl: String? = nil, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .video, completion: completion)
        content.thumbnailURL = thumbnailUrl
        preloadIfWanted()
    }

    /// Shows an animated GIF.
    public func setGIF(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .gif, completion: completion)
    }

    /// Shows a GIF held in memory (it is written to a private temporary file first, since
    /// the decoder reads files).
    public func setGIF(data: Data, completion: ((MediaView) -> Void)? = nil) {
        setMedia(nil, kind: .gif, completion: completion)
        guard let path = keepTemporary(data) else {
            content.unusable = MediaError("cannot write a temporary file for the GIF data")
            return
        }
        content.url = path
    }

    /// Plays audio, with a picture (a path or URL) to show while it plays.
    public func setAudio(url: String, thumbnailUrl: String? = nil, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: .audio, completion: completion)
        content.thumbnailURL = thumbnailUrl
        preloadIfWanted()
    }

    /// Sets any media and lets the decoder tell what it is (the program's file arguments).
    public func setMedia(url: String, completion: ((MediaView) -> Void)? = nil) {
        setMedia(url, kind: MediaView.guessKind(url), completion: completion)
    }

    func setMedia(_ url: String?, kind: MediaKind, completion: ((MediaView) -> Void)?) {
        resetMedia()
        content.url = url
        content.kind = kind
        loadCompletion = completion
    }

    /// Writes bytes given for the media into a private temporary file kept with the content.
    func keepTemporary(_ data: Data) -> String? {
        let files = content.files ?? TemporaryFiles()
        content.files = files
        return files.write(data, suffix: ".gif", in: MediaView.temporaryDirectory)
    }

    /// Turns what a user typed into something FFmpeg opens, or a clear reason why not.
    ///
    /// Local files are checked here first so that a missing file, a directory or an empty
    /// file gets a plain message rather than a decoder's, naming the path as typed (with
    /// its folder, so two `IMG_0001.jpg` from two cards are told apart).
    nonisolated static func resolve(_ url: String) -> Result<String, MediaError> {
        if SourceOptions.isNetwork(url) { return .success(url) }
        var path = url
        if url.lowercased().hasPrefix("file://") {
            guard let p = FileName.path(fromFileURL: url) else {
                return .failure(MediaError("\(FileName.display(SourceOptions.redacted(url))): not a valid file URL"))
            }
            path = p
        } else if let colon = url.firstIndex(of: ":"), url[..<colon].allSatisfy({ $0.isLetter }), url[..<colon].count > 1,
                  !FileManager.default.fileExists(atPath: url) {
            return .failure(MediaError("\(SourceOptions.redacted(url)): unsupported kind of URL (only files, http and https)"))
        }
        // mpv's name for standard input: say what it is rather than that no file is called "-".
        if url == "-" { return .failure(MediaError("-: standard input cannot be played; only files and web addresses can")) }
        var st = stat()
        // The name as typed, with bytes that are not text shown as U+FFFD.
        let typed = FileName.display(url)
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else {
            return .failure(MediaError("\(typed): \(String(cString: strerror(errno)))"))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(MediaError("\(typed): is a directory")) }
        // Only files are played: a pipe or a device would have to be read here, outside the
        // sandbox, as it arrives; its size (0) would read as an empty file.
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: return .failure(MediaError("\(typed): is a pipe; only files and web addresses can be played"))
        case S_IFCHR, S_IFBLK: return .failure(MediaError("\(typed): is a device; only files and web addresses can be played"))
        default: return .failure(MediaError("\(typed): is not a file; only files and web addresses can be played"))
        }
        if st.st_size == 0 { return .failure(MediaError("\(typed): file is empty")) }
        guard FileName.withCString(path, { access($0, R_OK) }) == 0 else { return .failure(MediaError("\(typed): permission denied")) }
        // "file:" stops FFmpeg from reading a colon in the name as a protocol.
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return .success("file:" + absolute)
    }

    nonisolated static func displayName(_ url: String) -> String {
        if SourceOptions.isNetwork(url) { return SourceOptions.redacted(url) }
        return url.split(separator: "/").last.map(String.init) ?? url
    }

    /// A first guess from the name; the decoder has the last word.
    nonisolated static func guessKind(_ url: String) -> MediaKind {
        // Bytes, not characters: this runs for every file of a folder, and a million
        // character-by-character splits took seconds.
        let utf8 = url.utf8
        let question = UInt8(ascii: "?"), dot = UInt8(ascii: ".")
        // The text before the query (leading question marks skipped), its dots at the end dropped.
        let start = utf8.firstIndex { $0 != question } ?? utf8.endIndex
        var head = utf8[start...]
        head = head[..<(head.firstIndex(of: question) ?? head.endIndex)]
        while head.last == dot { head = head.dropLast() }
        let last = head.lastIndex(of: dot).map { head[head.index(after: $0)...] } ?? head
        // No extension named below is longer than four letters.
        guard last.count <= 5 else { return .video }
        let ext = String(decoding: last.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
        switch ext {
        case "jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "avif", "heic", "heif", "jxl", "svg", "svgz": return .image
        case "gif", "apng": return .gif
        case "mp3", "m4a", "aac", "flac", "ogg", "oga", "opus", "wav": return .audio
        default: return .video
        }
    }
}
