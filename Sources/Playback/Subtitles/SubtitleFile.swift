import CFFmpeg
import FoundationEssentials
import Glibc
import MediaCore
import Subtitles
import Web

/// A subtitle file (SubRip, ASS/SSA, WebVTT): found beside the media or named by the user,
/// read whole through FFmpeg's demuxer and decoder for its format, which turn every format
/// into the ASS events libass draws.
///
/// Going through FFmpeg rather than libass's own ASS reader gives one path for the three
/// formats, the same as subtitles inside a video take, with the same bounds.
enum SubtitleFile {
    /// The extensions looked for beside a video, in this order.
    static let extensions = ["srt", "ass", "ssa", "vtt"]
    /// A subtitle file larger than this is not read (a whole film's SRT is under 200 KiB).
    static let maxBytes = 16 << 20

    /// Subtitle files beside a local media file with its base name: `film.srt`, and with a
    /// language between, `film.en.srt`. Sorted by name, so the plain one comes first.
    static func beside(_ media: String) -> [String] {
        var path = media
        if path.hasPrefix("file://") { path = String(path.dropFirst(7)) } else if path.hasPrefix("file:") { path = String(path.dropFirst(5)) }
        guard path.hasPrefix("/") || !path.contains(":") else { return [] }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return [] }
        let base = name[..<dot]
        guard let d = FileName.withCString(dir.isEmpty ? "/" : dir, { opendir($0) }) else { return [] }
        defer { closedir(d) }
        var found: [String] = []
        // A folder of a million files is not searched to its end for subtitles.
        var looked = 0
        while let e = readdir(d), looked < 100_000 {
            looked += 1
            let entry = FileName.decode(entry: e)
            guard entry.hasPrefix(base + "."), entry != name,
                  let ext = entry.split(separator: ".").last.map({ $0.lowercased() }), extensions.contains(ext) else { continue }
            let middle = entry.dropFirst(base.count + 1).dropLast(ext.count + 1)
            // film.srt or film.en.srt, not film.part2.mkv.srt of another file's name.
            guard middle.isEmpty || (middle.count <= 8 && !middle.contains(".")) else { continue }
            found.append(dir + "/" + entry)
        }
        return found.sorted { ($0.count, $0) < ($1.count, $1) }
    }

    /// The language a file name says between base name and extension (`film.de.srt`).
    static func language(of path: String, media: String) -> String? {
        let parts = (path.split(separator: "/").last ?? "").split(separator: ".")
        let mediaParts = (media.split(separator: "/").last ?? "").split(separator: ".").count
        guard parts.count == mediaParts + 1, parts.count >= 3 else { return nil }
        return String(parts[parts.count - 2])
    }

    /// What a subtitle file holds: its header and events, in time order.
    struct Script: Codable {
        var header: String
        var cues: [SubtitleCue]
        /// The codec FFmpeg read it with (`subrip`, `ass`, `webvtt`).
        var codec: String
    }

    /// Reads and decodes the file at `path`; the error reads as a sentence after its name.
    static func load(_ path: String) throws(AVError) -> Script {
        try decode(try read(path), name: path)
    }

    /// Decodes subtitle bytes; `name` gives FFmpeg the extension as a hint. Text that is not
    /// UTF-8 is taken as Latin-1, the usual encoding of older SRT files.
    static func decode(_ raw: [UInt8], name: String) throws(AVError) -> Script {
        guard !raw.isEmpty else { throw AVError(message: "the file is empty") }
        var bytes = raw
        if String(validating: raw, as: UTF8.self) == nil {
            bytes = Array(String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) })).utf8)
        }
        guard let io = MemoryIO(data: Data(bytes)) else { throw AVError(message: "out of memory") }
        var options = SourceOptions()
        options.networkTimeout = 10
        let d: Demuxer
        do {
            d = try Demuxer(url: "memory:" + (name.split(separator: "/").last.map(String.init) ?? name), options: options, io: io)
        } catch {
            throw AVError(message: "not a subtitle file FFmpeg can read")
        }
        guard let index = (0..<d.streamCount).first(where: { SubtitleDecoder.isText(d.stream($0)) }) else {
            throw AVError(message: "no text subtitles in it")
        }
        let decoder = try SubtitleDecoder(stream: d.stream(index))
        var cues: [SubtitleCue] = []
        let packet = Packet()
        reading: while cues.count < SubtitleCues.maxCues {
            switch d.read(into: packet) {
            case .packet:
                if packet.streamIndex == index { cues += decoder.decode(packet) }
                cff_packet_unref(packet.raw)
            case .again: continue
            case .endOfFile, .failed: break reading
            }
        }
        guard !cues.isEmpty else { throw AVError(message: "no subtitle in it could be read") }
        let codec = String(cString: avcodec_get_name(d.stream(index).pointee.codecpar.pointee.codec_id))
        return Script(header: decoder.header, cues: cues, codec: codec)
    }

    /// The file's bytes, refused when missing, unreadable or too large.
    private static func read(_ path: String) throws(AVError) -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        return Array(bytes[..<got])
    }

    /// The file opened for reading (the caller closes it) with its size; refused when
    /// missing, unreadable, not a plain file or too large.
    static func open(_ path: String) throws(AVError) -> (fd: Int32, size: Int) {
        let fd = FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw AVError(message: "cannot open it: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { close(fd); throw AVError(message: "not a file") }
        guard st.st_size <= maxBytes else { close(fd); throw AVError(message: "larger than \(maxBytes >> 20) MiB") }
        return (fd, Int(st.st_size))
    }
}
