import Playback
import Viewer

/// The track properties, with mpv's names and values: `sid`, `aid` and `vid` are a track
/// number or `false` ("no"), `sub-visibility` a flag, `track-list` the tracks described,
/// the picture (video, animation, photo or cover) first as mpv lists it.
extension IPCController {
    func trackValue(_ name: String) throws(IPCError) -> JSONValue {
        let v = try presented()
        switch name {
        case "sid": return v.selectedSubtitleTrack.map { .int($0.id) } ?? .bool(false)
        case "aid": return v.selectedAudioTrack.map { .int($0.id) } ?? .bool(false)
        case "vid": return hasPicture(v) ? .int(1) : .bool(false)
        default: return .bool(v.showsSubtitles)
        }
    }

    func setTrack(_ name: String, to value: JSONValue) throws(IPCError) {
        let v = try presented()
        switch name {
        case "sub-visibility":
            guard let on = value.flag else { throw .propertyFormat }
            if on != v.showsSubtitles { v.toggleSubtitles() }
            MediaView.changeAll(queue.playlist) { $0.showsSubtitles = on }
        case "sid":
            if value.flag == false { v.selectSubtitleTrack(id: nil); return }
            guard let n = value.number, let t = v.subtitleTracks.first(where: { Double($0.id) == n }) else { throw .propertyError }
            v.selectSubtitleTrack(id: t.id)
        case "aid":
            guard let n = value.number, let t = v.audioTracks.first(where: { Double($0.id) == n }) else { throw .propertyError }
            v.selectAudioTrack(id: t.id)
        default:
            // The one picture is always shown; choosing it again is all that can be asked.
            guard value.number == 1 || value.text == "auto" else { throw .propertyError }
        }
    }

    func trackList() throws(IPCError) -> JSONValue {
        let v = try presented()
        var list: [JSONValue] = []
        if let picture = pictureTrack(v) { list.append(picture) }
        list += (v.audioTracks + v.subtitleTracks).map { describe($0, in: v) }
        return .array(list)
    }

    /// mpv's `current-tracks`: the selected track of each type.
    func currentTracks() throws(IPCError) -> JSONValue {
        let v = try presented()
        var o: [String: JSONValue] = [:]
        if let picture = pictureTrack(v) { o["video"] = picture }
        if let a = v.selectedAudioTrack { o["audio"] = describe(a, in: v) }
        if let s = v.selectedSubtitleTrack { o["sub"] = describe(s, in: v) }
        return .object(o)
    }

    private func hasPicture(_ v: MediaView) -> Bool {
        guard let info = v.info else { return false }
        return info.kind != .audio || info.hasCoverArt
    }

    /// The picture as mpv's video track: its codec, size, and whether it is cover art or
    /// a still image.
    private func pictureTrack(_ v: MediaView) -> JSONValue? {
        guard hasPicture(v), let info = v.info else { return nil }
        var o: [String: JSONValue] = ["id": 1, "type": "video", "selected": true, "default": true, "external": false,
                                      "albumart": .bool(info.hasCoverArt), "image": .bool(info.kind == .image),
                                      "demux-w": .int(info.width), "demux-h": .int(info.height)]
        o["codec"] = .string(info.videoCodec ?? info.formatName)
        if let fps = info.streams.frameRate, info.kind == .video { o["demux-fps"] = .double(fps) }
        return .object(o)
    }

    /// One entry of mpv's `track-list`: `type` is `audio` or `sub`.
    private func describe(_ t: MediaTrack, in v: MediaView) -> JSONValue {
        let selected = t.kind == .audio ? v.selectedAudioTrack?.id == t.id : v.selectedSubtitleTrack?.id == t.id
        var o: [String: JSONValue] = ["id": .int(t.id), "type": .string(t.kind == .audio ? "audio" : "sub"),
                                      "codec": .string(t.codec), "external": .bool(t.isExternal),
                                      "selected": .bool(selected), "default": .bool(t.isDefault)]
        if let l = t.language { o["lang"] = .string(l) }
        if let title = t.title { o["title"] = .string(title) }
        if case .external(let path) = t.origin { o["external-filename"] = .string(path) }
        if let s = t.streamIndex { o["ff-index"] = .int(s) }
        return .object(o)
    }
}
