import Glibc
import Playback
import Viewer
import Web

/// The properties of the item on screen: where it is, how long, what it is made of.
extension IPCController {
    static let mediaRows: [(String, PropertyRow)] = [
        ("time-pos", PropertyRow(get: { c in try c.timePos() }, set: { c, v in
            guard let seconds = v.number else { throw IPCError.propertyFormat }
            try c.seekTo(seconds)
        })),
        ("playback-time", PropertyRow { c in try c.timePos() }),
        ("time-start", PropertyRow { c in _ = try c.presentedInfo(); return .double(0) }),
        ("duration", PropertyRow { c in .double(try c.knownDuration()) }),
        ("percent-pos", PropertyRow(get: { c in
            let d = try c.knownDuration()
            guard case .double(let at) = try c.timePos() else { throw IPCError.propertyUnavailable }
            return .double(min(100, max(0, at / d * 100)))
        }, set: { c, v in
            guard let p = v.number else { throw IPCError.propertyFormat }
            try c.seekTo(max(0, min(100, p)) / 100 * (try c.knownDuration()))
        })),
        ("time-remaining", PropertyRow { c in try c.remaining(scaled: false) }),
        ("playtime-remaining", PropertyRow { c in try c.remaining(scaled: true) }),
        ("seekable", PropertyRow { c in .bool(try c.isSeekable()) }),
        ("partially-seekable", PropertyRow { c in .bool(try c.isSeekable()) }),
        ("path", PropertyRow { c in .string(SourceOptions.redacted(try c.source())) }),
        ("stream-open-filename", PropertyRow { c in .string(SourceOptions.redacted(try c.source())) }),
        ("filename", PropertyRow { c in .string(try c.fileName()) }),
        ("filename/no-ext", PropertyRow { c in
            let name = try c.fileName()
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .string(name) }
            return .string(String(name[..<dot]))
        }),
        ("media-title", PropertyRow { c in
            let v = try c.presented()
            if let t = v.title ?? v.info?.title, !t.isEmpty { return .string(t) }
            return .string(try c.fileName())
        }),
        ("file-size", PropertyRow { c in
            var st = stat()
            guard stat(try c.source(), &st) == 0 else { throw IPCError.propertyUnavailable }
            return .int(Int(st.st_size))
        }),
        ("file-format", PropertyRow { c in .string(try c.presentedInfo().1.formatName) }),
        ("video-codec", PropertyRow { c in try c.optional(try c.presentedInfo().1.videoCodec) }),
        ("audio-codec", PropertyRow { c in try c.optional(try c.presentedInfo().1.audioCodec) }),
        ("audio-codec-name", PropertyRow { c in try c.optional(try c.presentedInfo().1.audioCodec) }),
        ("container-fps", PropertyRow { c in try c.optional(try c.presentedInfo().1.streams.frameRate) }),
        // As mpv counts them, for a picture moving or still; sound alone has none to drop.
        ("frame-drop-count", PropertyRow { c in .int(try c.picturePresented().0.droppedFrames) }),
        // Frames are skipped only where they are shown: the decoder decodes every one.
        ("decoder-frame-drop-count", PropertyRow { c in _ = try c.picturePresented(); return .int(0) }),
        ("width", PropertyRow { c in try c.pictureSize().w }),
        ("height", PropertyRow { c in try c.pictureSize().h }),
        ("dwidth", PropertyRow { c in try c.pictureSize(displayed: true).w }),
        ("dheight", PropertyRow { c in try c.pictureSize(displayed: true).h }),
        ("video-params", PropertyRow { c in try c.videoParams() }),
        ("metadata", PropertyRow { c in try c.metadata() }),
        ("filtered-metadata", PropertyRow { c in try c.metadata() }),
        ("chapter", PropertyRow(get: { c in
            let (v, info) = try c.presentedInfo()
            guard !info.chapters.isEmpty else { throw IPCError.propertyUnavailable }
            return .int(v.currentChapter ?? -1)
        }, set: { c, value in
            guard case .int(let n) = try IPCSignature.convert(value, to: .integer) else { throw IPCError.propertyFormat }
            let (v, info) = try c.presentedInfo()
            guard info.chapters.indices.contains(n) else { throw IPCError.propertyUnavailable }
            v.jumpChapter(by: n - (v.currentChapter ?? -1))
        })),
        ("chapters", PropertyRow { c in .int(try c.presentedInfo().1.chapters.count) }),
        ("chapter-list", PropertyRow { c in
            .array(try c.presentedInfo().1.chapters.map { ch in
                var o: [String: JSONValue] = ["time": .double(ch.start)]
                if let t = ch.title { o["title"] = .string(t) }
                return .object(o)
            })
        }),
        ("sub-text", PropertyRow { c in
            // The text libass draws is not kept as text; with no subtitle track nothing shows.
            guard try c.presented().selectedSubtitleTrack == nil else { throw IPCError.propertyUnavailable }
            return .string("")
        }),
    ]

    func timePos() throws(IPCError) -> JSONValue {
        let (v, info) = try presentedInfo()
        guard info.isPlayable else { throw IPCError.propertyUnavailable }
        return .double(position(of: v))
    }

    func knownDuration() throws(IPCError) -> Double {
        let (v, info) = try presentedInfo()
        guard let d = duration(of: v, info) else { throw IPCError.propertyUnavailable }
        return d
    }

    func remaining(scaled: Bool) throws(IPCError) -> JSONValue {
        let d = try knownDuration()
        guard case .double(let at) = try timePos() else { throw IPCError.propertyUnavailable }
        let left = max(0, d - at)
        return .double(scaled ? left / (queue.current?.playbackSpeed ?? 1) : left)
    }

    func isSeekable() throws(IPCError) -> Bool {
        let (v, info) = try presentedInfo()
        return info.isPlayable && duration(of: v, info) != nil
    }

    func seekTo(_ seconds: Double) throws(IPCError) {
        guard queue.current?.isPlayable == true else { throw IPCError.propertyUnavailable }
        queue.execute(.seekAbsolute(seconds: max(0, seconds)))
    }

    func source() throws(IPCError) -> String {
        guard let url = try presented().mediaURL else { throw IPCError.propertyUnavailable }
        return url
    }

    /// The last part of the path or URL, as mpv's `filename`.
    func fileName() throws(IPCError) -> String {
        let url = SourceOptions.redacted(try source())
        let path = url.split(separator: "?").first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init) ?? url
    }

    func optional<T>(_ value: T?) throws(IPCError) -> JSONValue {
        switch value {
        case let s as String: return .string(s)
        case let d as Double: return .double(d)
        case let i as Int: return .int(i)
        default: throw IPCError.propertyUnavailable
        }
    }

    /// The presented view and its description, when it shows a picture (a video or a
    /// still), not sound alone.
    func picturePresented() throws(IPCError) -> (MediaView, MediaInfo) {
        let (v, info) = try presentedInfo()
        guard info.width > 0, info.height > 0 else { throw IPCError.propertyUnavailable }
        return (v, info)
    }

    /// The picture's size; with `displayed`, as it is turned on screen.
    func pictureSize(displayed: Bool = false) throws(IPCError) -> (w: JSONValue, h: JSONValue) {
        // Not through `picturePresented()`: inlined here, Swift 6.3.1's optimiser crashed on
        // the release build.
        let (v, info) = try presentedInfo()
        guard info.width > 0, info.height > 0 else { throw IPCError.propertyUnavailable }
        let turned = displayed && ((info.rotation + v.userRotation) / 90) % 2 != 0
        return turned ? (.int(info.height), .int(info.width)) : (.int(info.width), .int(info.height))
    }

    func videoParams() throws(IPCError) -> JSONValue {
        let (v, info) = try presentedInfo()
        let size = try pictureSize(), shown = try pictureSize(displayed: true)
        let aspect = Double(info.width) / Double(max(1, info.height))
        return .object(["w": size.w, "h": size.h, "dw": shown.w, "dh": shown.h, "aspect": .double(aspect),
                        "rotate": .int(((info.rotation + v.userRotation) % 360 + 360) % 360)])
    }

    /// The file's tags mediaview reads, under the keys mpv shows them with.
    func metadata() throws(IPCError) -> JSONValue {
        let info = try presentedInfo().1
        var o: [String: JSONValue] = [:]
        if let t = info.title { o["title"] = .string(t) }
        if let a = info.artist { o["artist"] = .string(a) }
        if let a = info.album { o["album"] = .string(a) }
        return .object(o)
    }
}
