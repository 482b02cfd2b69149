import Playback
import Viewer

/// The properties a script can read, set and observe: mpv's names and units, plus
/// `minimized`, which is mediaview's own.
enum IPCProperty: String, CaseIterable {
    case pause, volume, mute, duration, path, fullscreen, minimized, speed
    case timePos = "time-pos"
    case mediaTitle = "media-title"
    case playlistPos = "playlist-pos"
    case playlistCount = "playlist-count"
    case sid, aid
    case subVisibility = "sub-visibility"
    case trackList = "track-list"
}

extension IPCController {
    /// The property's value now; mpv's errors when it has none.
    func value(of name: String) throws(IPCError) -> JSONValue {
        guard let property = IPCProperty(rawValue: name) else { throw .propertyNotFound }
        let v = queue.current
        switch property {
        case .pause: return .bool(!(v?.isPlaying ?? false))
        case .volume: return .double(((v?.volume ?? sound.volume ?? 1) * 100).rounded())
        case .mute: return .bool(v?.isMuted ?? sound.muted ?? false)
        case .timePos:
            guard let v, v.isPlayable, v.info != nil else { throw .propertyUnavailable }
            return .double(v.position)
        case .duration:
            guard let d = v?.info?.duration, d > 0 else { throw .propertyUnavailable }
            return .double(d)
        case .path:
            guard let url = v?.mediaURL else { throw .propertyUnavailable }
            return .string(SourceOptions.redacted(url))
        case .mediaTitle:
            guard let v, let url = v.mediaURL else { throw .propertyUnavailable }
            if let t = v.title, !t.isEmpty { return .string(t) }
            if SourceOptions.isNetwork(url) { return .string(SourceOptions.redacted(url)) }
            return .string(url.split(separator: "/").last.map(String.init) ?? url)
        case .playlistPos: return .int(queue.playlistPosition ?? -1)
        case .playlistCount: return .int(queue.playlist.count)
        case .fullscreen: return .bool(v?.isFullscreen ?? false)
        case .minimized: return .bool(v?.isMinimized ?? false)
        case .speed: return .double(v?.playbackSpeed ?? 1)
        case .sid, .aid, .subVisibility, .trackList: return try trackValue(property, of: v)
        }
    }

    /// Changes a property as a script asked; mpv's errors for a wrong type or a read-only one.
    func set(_ name: String, to value: JSONValue) throws(IPCError) {
        guard let property = IPCProperty(rawValue: name) else { throw .propertyNotFound }
        let v = queue.current
        switch property {
        case .pause:
            guard let paused = value.flag else { throw .propertyFormat }
            if paused { v?.pause() } else { v?.play() }
        case .volume:
            // Numbers or their text, as mpv takes both.
            guard let n = value.number else { throw .propertyFormat }
            setVolume(n)
        case .mute:
            guard let muted = value.flag else { throw .propertyFormat }
            sound.muted = muted
            for view in queue.playlist { view.isMuted = muted }
        case .timePos:
            guard let seconds = value.number else { throw .propertyFormat }
            try seekTo(seconds)
        case .playlistPos:
            guard case .int(let index) = value else { throw .propertyFormat }
            try jump(to: index)
        case .fullscreen:
            guard let on = value.flag else { throw .propertyFormat }
            if let v, v.isFullscreen != on { queue.execute(.toggleFullscreen) }
        case .minimized:
            guard let on = value.flag else { throw .propertyFormat }
            if on { v?.minimize() } else { v?.restore() }
        case .speed:
            // A number or its text, 0.25 to 4; anything else leaves the speed alone.
            guard let n = value.number, PlaybackSpeed(n) != nil else { throw .propertyFormat }
            queue.execute(.speed(.set(n)))
        case .sid, .aid, .subVisibility:
            try setTrack(property, to: value, on: v)
        case .duration, .path, .mediaTitle, .playlistCount, .trackList:
            throw .propertyError
        }
    }

    /// mpv's volume is 0-100 here (no amplification above 100).
    private func setVolume(_ percent: Double) {
        let level = max(0, min(100, percent)) / 100
        sound.volume = level
        for view in queue.playlist { view.volume = level }
    }

    private func seekTo(_ seconds: Double) throws(IPCError) {
        guard queue.current?.isPlayable == true else { throw .propertyUnavailable }
        queue.execute(.seekAbsolute(seconds: max(0, seconds)))
    }

    /// Steps through the queue to `index`, so the items passed go into the history in order
    /// and `playlist-prev` comes back through them.
    private func jump(to index: Int) throws(IPCError) {
        guard let from = queue.playlistPosition, queue.playlist.indices.contains(index) else { throw .propertyError }
        if index > from { for _ in from..<index { queue.presentNext() } }
        if index < from { for _ in index..<from { queue.presentPrevious() } }
    }
}
