import Glibc
import MediaCore
import Playback
import Windowing

/// The panel `I` shows over the media: what the file is. For a photo its size, format and
/// what the camera recorded (date, camera, lens, exposure, ISO, focal length, from EXIF);
/// for video and sound the container, codecs, picture size, frame rate, bit rates,
/// channels and sample rate. It stays on while the user moves through the queue.
@MainActor
struct InfoPanel {
    /// Shown or not (the `cycle info` command).
    var isShown = false
    /// The lines of the last view described, and whether its media had opened then.
    private var cache: (view: ObjectIdentifier, opened: Bool, lines: [Line])?

    /// One fact: a label and its value.
    struct Line: Equatable {
        let label: String
        let value: String
    }

    /// The lines for `v`, worked out once per view (EXIF means reading the file).
    mutating func lines(for v: MediaView) -> [Line] {
        let key = (ObjectIdentifier(v), v.info != nil)
        if let c = cache, c.view == key.0, c.opened == key.1 { return c.lines }
        let lines = Self.describe(v)
        cache = (key.0, key.1, lines)
        return lines
    }

    /// What the file is, as label and value lines.
    static func describe(_ v: MediaView) -> [Line] {
        var out: [Line] = []
        func add(_ label: String, _ value: String?) { if let value, !value.isEmpty { out.append(Line(label: label, value: value)) } }
        let url = v.mediaURL ?? ""
        add("File", MediaView.displayName(url))
        let path = MediaQueue.localPath(url)
        if let path {
            var st = stat()
            if FileName.withCString(path, { stat($0, &st) }) == 0 { add("Size", Self.bytes(Int(st.st_size))) }
        }
        guard let info = v.info else {
            add("State", v.failure.map { "cannot be shown: \($0.message)" } ?? "opening")
            return out
        }
        let picture = info.width > 0 ? "\(info.width) × \(info.height)" : nil
        switch info.kind {
        case .image, .animated:
            add("Format", Self.pictureFormat(info))
            add("Dimensions", picture)
            if info.kind == .animated, let d = info.duration { add("Length", MediaView.formatTime(d, longest: d)) }
            for fact in path.map(PhotoMetadata.describe) ?? [] { add(fact.label, fact.value) }
        case .video, .audio:
            add("Container", info.streams.container ?? info.formatName)
            if let d = info.duration { add("Duration", MediaView.formatTime(d, longest: d)) }
            add("Bit rate", info.streams.overallBitRate.map(Self.rate))
            if info.kind == .video || info.hasCoverArt {
                add(info.hasCoverArt ? "Cover" : "Video", [info.videoCodec, picture].compactMap { $0 }.joined(separator: ", "))
            }
            if info.kind == .video {
                add("Frame rate", info.streams.frameRate.map { TextFormat.fixed($0, digits: 2) + " fps" })
                add("Video rate", info.streams.videoBitRate.map(Self.rate))
            }
            add("Audio", info.audioCodec)
            add("Channels", info.streams.channels.map { $0 == 1 ? "1 (mono)" : $0 == 2 ? "2 (stereo)" : String($0) })
            add("Sample rate", info.streams.sampleRate.map { "\($0) Hz" })
            add("Audio rate", info.streams.audioBitRate.map(Self.rate))
            // What `#` and `j` step through.
            let sound = v.audioTracks, subtitles = v.subtitleTracks
            if sound.count > 1 { add("Sound tracks", sound.map(\.label).joined(separator: ", ")) }
            add("Subtitles", subtitles.map(\.label).joined(separator: ", "))
        }
        return out
    }

    /// JPEG, PNG, GIF...: the picture codec's common name.
    static func pictureFormat(_ info: MediaInfo) -> String? {
        guard let codec = info.videoCodec else { return nil }
        let names = ["mjpeg": "JPEG", "png": "PNG", "apng": "APNG", "gif": "GIF", "webp": "WebP", "bmp": "BMP", "tiff": "TIFF"]
        return names[codec] ?? codec.uppercased()
    }

    static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) bytes" }
        if n < 1024 * 1024 { return TextFormat.fixed(Double(n) / 1024, digits: 1) + " KiB" }
        return TextFormat.fixed(Double(n) / 1024 / 1024, digits: 1) + " MiB"
    }

    static func rate(_ bitsPerSecond: Int) -> String {
        bitsPerSecond >= 1_000_000 ? TextFormat.fixed(Double(bitsPerSecond) / 1e6, digits: 1) + " Mb/s"
            : "\(bitsPerSecond / 1000) kb/s"
    }

    /// The size of the panel for `lines` when at most `maxWidth` wide (values are cut to fit).
    static func size(_ lines: [Line], scale sc: InterfaceScale, maxWidth: Int) -> (width: Int, height: Int)? {
        guard !lines.isEmpty, let font = FontCache.shared.font(family: nil, size: sc.px(15)) else { return nil }
        let labelWidth = lines.map { font.measure($0.label).width }.max() ?? 0
        let maxValue = max(sc.px(40), maxWidth - labelWidth - sc.px(44))
        let valueWidth = lines.map { min(maxValue, font.measure($0.value).width) }.max() ?? 0
        let step = font.lineHeight + sc.px(4)
        return (labelWidth + valueWidth + sc.px(44), step * lines.count + sc.px(20))
    }

    /// Draws the lines in a dark rounded box filling `box`; lines that do not fit its
    /// height are left out rather than drawn over what lies below.
    static func draw(_ lines: [Line], on canvas: Canvas, in box: Rect, scale sc: InterfaceScale = .one) {
        guard !lines.isEmpty, let font = FontCache.shared.font(family: nil, size: sc.px(15)) else { return }
        let labelWidth = lines.map { font.measure($0.label).width }.max() ?? 0
        let maxValue = max(sc.px(40), box.width - labelWidth - sc.px(44))
        let step = font.lineHeight + sc.px(4)
        canvas.fillRoundedRect(box, radius: Double(sc.px(10)), color: Color.black.withAlpha(fraction: 0.75))
        for (i, line) in lines.enumerated() {
            let baseline = box.y + sc.px(10) + i * step + font.ascent
            guard baseline + font.descent <= box.maxY - sc.px(4) else { break }
            _ = font.draw(line.label, at: box.x + sc.px(14), baseline: baseline, color: Color(rgb: 0xAAAAAA), on: canvas)
            _ = font.draw(font.truncated(line.value, toWidth: maxValue), at: box.x + sc.px(30) + labelWidth,
                          baseline: baseline, color: .white, on: canvas)
        }
    }
}
