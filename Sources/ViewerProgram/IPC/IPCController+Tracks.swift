import Playback
import Viewer

/// The track properties, with mpv's names and values: `sid` and `aid` are a track number
/// or `false` ("no"), `sub-visibility` a flag, `track-list` the tracks described.
extension IPCController {
    func trackValue(_ property: IPCProperty, of view: MediaView?) throws(IPCError) -> JSONValue {
        guard let v = view else { throw .propertyUnavailable }
        switch property {
        case .sid: return v.selectedSubtitleTrack.map { .int($0.id) } ?? .bool(false)
        case .aid: return v.selectedAudioTrack.map { .int($0.id) } ?? .bool(false)
        case .subVisibility: return .bool(v.showsSubtitles)
        case .trackList: return .array((v.audioTracks + v.subtitleTracks).map { describe($0, in: v) })
        default: throw .propertyNotFound
        }
    }

    func setTrack(_ property: IPCProperty, to value: JSONValue, on view: MediaView?) throws(IPCError) {
        guard let v = view else { throw .propertyUnavailable }
        switch property {
        case .subVisibility:
            guard let on = value.flag else { throw .propertyFormat }
            if on != v.showsSubtitles { v.toggleSubtitles() }
            for other in queue.playlist { other.showsSubtitles = on }
        case .sid:
            if value.flag == false { v.selectSubtitleTrack(id: nil); return }
            guard let n = value.number, let t = v.subtitleTracks.first(where: { Double($0.id) == n }) else { throw .propertyError }
            v.selectSubtitleTrack(id: t.id)
        case .aid:
            guard let n = value.number, let t = v.audioTracks.first(where: { Double($0.id) == n }) else { throw .propertyError }
            v.selectAudioTrack(id: t.id)
        default:
            throw .propertyError
        }
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
