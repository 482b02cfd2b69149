import Glibc
import MediaCore
import Playback
import SessionBus
import Viewer
import Web

/// The MPRIS properties: read from the queue and its presented view, set through
/// `org.freedesktop.DBus.Properties`, and signalled when they change.
extension MPRISPlayer {
    /// The root interface's properties: what the player is and can do as an application.
    func rootProperties() -> [String: BusValue] {
        ["CanQuit": .bool(true), "CanRaise": .bool(true), "HasTrackList": .bool(false),
         "Identity": .string(identity), "DesktopEntry": .string(identity),
         "SupportedUriSchemes": .strings(Self.schemes), "SupportedMimeTypes": .strings(Self.mimeTypes)]
    }

    /// What OpenUri plays, as the desktop file declares it: pictures, animations, video, sound.
    static let mimeTypes = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff", "image/avif", "image/heif",
        "image/heic", "image/jxl", "image/svg+xml", "video/mp4", "video/webm", "video/x-matroska", "video/quicktime",
        "video/x-msvideo", "video/mpeg", "video/ogg", "audio/mpeg", "audio/ogg", "audio/flac", "audio/x-wav",
        "audio/wav", "audio/mp4", "audio/aac", "audio/opus", "audio/webm",
    ]

    /// The player interface's properties, for the presented view (or none).
    func playerProperties() -> [String: BusValue] {
        let v = queue.current
        let seekable = v.flatMap { length($0) } != nil
        // Shuffle is left out, as the specification allows for a player that cannot shuffle.
        return ["PlaybackStatus": .string(playbackStatus), "LoopStatus": .string(v?.allowLooping == true ? "Track" : "None"),
                "Rate": .double(v?.playbackSpeed ?? 1), "MinimumRate": .double(MPRISArguments.rates.min),
                "MaximumRate": .double(MPRISArguments.rates.max),
                "Metadata": .dictionary(v.map(metadata) ?? []),
                "Volume": .double(v?.isMuted == true ? 0 : volume ?? v?.volume ?? 1),
                "Position": .int64(v.map(position) ?? 0),
                "CanGoNext": .bool(queue.views.count > 1), "CanGoPrevious": .bool(queue.hasPrevious),
                "CanPlay": .bool(v != nil), "CanPause": .bool(v?.isPlayable == true), "CanSeek": .bool(seekable),
                "CanControl": .bool(true)]
    }

    /// `Playing`, `Paused` or `Stopped` (nothing presented, or Stop was asked for). A
    /// still plays only in a slide show, where its time runs; otherwise it stands.
    var playbackStatus: String {
        guard let v = queue.current else { return "Stopped" }
        if isStill(v) { return queue.presentation.autoExit ? "Playing" : "Paused" }
        if v.isPlaying { return "Playing" }
        return stopped ? "Stopped" : "Paused"
    }

    /// The presented item as desktop widgets show it: title, where it is from, its length.
    func metadata(_ v: MediaView) -> [(String, BusValue)] {
        var m: [(String, BusValue)] = [("mpris:trackid", .objectPath(trackID(v)))]
        let source = v.mediaURL.map { SourceOptions.redacted($0) }
        let title = v.title ?? v.info?.title ?? source.map(Self.lastComponent)
        if let title { m.append(("xesam:title", .string(title))) }
        if let source { m.append(("xesam:url", .string(Self.uri(source)))) }
        if let artist = v.info?.artist { m.append(("xesam:artist", .strings([artist]))) }
        if let album = v.info?.album { m.append(("xesam:album", .string(album))) }
        if let l = length(v) { m.append(("mpris:length", .int64(l))) }
        if let art = coverFile(v) ?? v.thumbnailURL { m.append(("mpris:artUrl", .string(Self.uri(art)))) }
        return m
    }

    /// A file of the cover embedded in a sound file, written once into the cache
    /// directory: widgets read artUrl as a file, and the cover is only inside the media.
    func coverFile(_ v: MediaView) -> String? {
        guard v.info?.kind == .audio, v.info?.hasCoverArt == true else { return nil }
        let id = trackID(v)
        if let done = covers[id] { return done }
        guard let png = v.pictureAsPNG() else { return nil }
        let dir = CacheManager.shared.directory + "/mpris-art"
        mkdir(CacheManager.shared.directory, 0o700)
        mkdir(dir, 0o700)
        let path = dir + "/cover-\(getpid())-\(covers.count).png"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard png.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == png.count else { return nil }
        covers[id] = path
        return path
    }

    /// Properties that change, and the one that is read, never signalled: the position.
    static let unsignalled: Set<String> = ["Position"]

    /// Answers Get, GetAll and Set.
    func answerProperties(_ call: BusMessage, _ member: String, _ args: [BusValue]) -> BusMessage? {
        switch (member, call.signature) {
        case ("Get", "ss"):
            let interface = args[0].text ?? "", property = args[1].text ?? ""
            guard let all = properties(of: interface) else { return unknownInterface(call, interface) }
            guard let value = all[property] else {
                return call.error(BusErrorName.unknownProperty, "no property \(property) on \(interface)")
            }
            return call.reply([.variant(value)])
        case ("GetAll", "s"):
            let interface = args[0].text ?? ""
            guard let all = properties(of: interface) else { return unknownInterface(call, interface) }
            return call.reply([.dictionary(all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })])
        case ("Set", "ssv"):
            return set(call, args[0].text ?? "", args[1].text ?? "", args[2].unwrapped ?? args[2])
        case ("Get", _):
            return wrongArguments(call, "Get takes an interface and a property name (ss)")
        case ("GetAll", _):
            return wrongArguments(call, "GetAll takes an interface name (s)")
        case ("Set", _):
            return wrongArguments(call, "Set takes an interface, a property name and a value (ssv)")
        default:
            return nil
        }
    }

    private func set(_ call: BusMessage, _ interface: String, _ property: String, _ value: BusValue) -> BusMessage? {
        guard let all = properties(of: interface) else { return unknownInterface(call, interface) }
        guard all[property] != nil else {
            return call.error(BusErrorName.unknownProperty, "no property \(property) on \(interface)")
        }
        guard interface == Self.playerInterface else {
            return call.error(BusErrorName.propertyReadOnly, "\(property) cannot be set")
        }
        switch MPRISArguments.setting(property, value) {
        case .failure(let refusal):
            return call.error(refusal.name, refusal.text)
        case .success(.volume(let level)):
            // The player's volume, not the item's: the next item plays at it too.
            volume = level
            MediaView.changeAll(queue.playlist) { view in
                view.volume = level
                if level > 0 { view.isMuted = false }
            }
        case .success(.pause):
            queue.current?.pause()
        case .success(.rate(let rate)):
            queue.execute(.speed(.set(rate)))
        case .success(.loop(let on)):
            queue.current?.allowLooping = on
        }
        return call.reply()
    }

    private func properties(of interface: String) -> [String: BusValue]? {
        switch interface {
        case Self.rootInterface: rootProperties()
        case Self.playerInterface: playerProperties()
        default: nil
        }
    }

    private func unknownInterface(_ call: BusMessage, _ interface: String) -> BusMessage? {
        call.error(BusErrorName.unknownInterface, "no interface \(interface) on \(Self.objectPath)")
    }

    /// Signals what changed since the last time: PropertiesChanged for the player's state,
    /// Seeked when the position jumped (a seek, a new item, a loop) rather than played on.
    func publishChanges() {
        guard bus.isConnected else { return }
        if let v = queue.current {
            hear(v)
            // An item that came after the volume was set plays at it too.
            if let level = volume, abs(v.volume - level) > 0.0001 { v.volume = level }
            if let t = seekTarget, t.view != ObjectIdentifier(v) || v.position != 0 { seekTarget = nil }
        }
        let now = playerProperties()
        var changed: [(String, BusValue)] = []
        for (key, value) in now.sorted(by: { $0.key < $1.key })
        where !Self.unsignalled.contains(key) && published[key] != value {
            changed.append((key, value))
        }
        published = now
        if !changed.isEmpty, let m = BusMessage.signal(path: Self.objectPath, interface: Self.propertiesInterface,
                                                       name: "PropertiesChanged",
                                                       [.string(Self.playerInterface), .dictionary(changed), .strings([])]) {
            bus.send(m)
        }
        noticeSeek()
    }

    private func noticeSeek() {
        let clock = MonotonicClock.seconds()
        guard let v = queue.current else { lastPosition = (nil, 0, clock); return }
        let id = ObjectIdentifier(v), at = v.position
        let (before, seconds, then) = lastPosition
        lastPosition = (id, at, clock)
        guard before == id else { return }
        let expected = seconds + (v.isPlaying ? clock - then : 0)
        if abs(at - expected) > 1,
           let m = BusMessage.signal(path: Self.objectPath, interface: Self.playerInterface, name: "Seeked",
                                     [.int64(Int64(at * 1_000_000))]) {
            bus.send(m)
        }
    }

    /// A path as a `file://` URI (as `xesam:url` and `mpris:artUrl` want); URLs as they are.
    static func uri(_ source: String) -> String {
        if source.contains("://") { return source }
        var path = source
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            path = FileName.decode(cString: cwd) + "/" + path
            free(cwd)
        }
        return FileName.fileURL(absolutePath: path)
    }

    static func lastComponent(_ source: String) -> String {
        FileName.display(source.split(separator: "/").last.map(String.init) ?? source)
    }
}
