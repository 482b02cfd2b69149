import Glibc
import Playback
import SessionBus
import Viewer

/// The MPRIS properties: read from the queue and its presented view, set through
/// `org.freedesktop.DBus.Properties`, and signalled when they change.
extension MPRISPlayer {
    /// The root interface's properties: what the player is and can do as an application.
    func rootProperties() -> [String: BusValue] {
        ["CanQuit": .bool(true), "CanRaise": .bool(false), "HasTrackList": .bool(false),
         "Identity": .string(identity), "DesktopEntry": .string(identity),
         // OpenUri is not offered: items come from the command line or the program's app.
         "SupportedUriSchemes": .strings([]), "SupportedMimeTypes": .strings([])]
    }

    /// The player interface's properties, for the presented view (or none).
    func playerProperties() -> [String: BusValue] {
        let v = queue.current
        let seekable = v.flatMap { length($0) } != nil
        return ["PlaybackStatus": .string(playbackStatus), "LoopStatus": .string(v?.allowLooping == true ? "Track" : "None"),
                "Rate": .double(1), "MinimumRate": .double(1), "MaximumRate": .double(1), "Shuffle": .bool(false),
                "Metadata": .dictionary(v.map(metadata) ?? []), "Volume": .double(v.map { $0.isMuted ? 0 : $0.volume } ?? 1),
                "Position": .int64(v.map { Int64($0.position * 1_000_000) } ?? 0),
                "CanGoNext": .bool(queue.views.count > 1), "CanGoPrevious": .bool(queue.hasPrevious),
                "CanPlay": .bool(v != nil), "CanPause": .bool(v?.isPlayable == true), "CanSeek": .bool(seekable),
                "CanControl": .bool(true)]
    }

    /// `Playing`, `Paused` or `Stopped` (nothing presented, or Stop was asked for).
    var playbackStatus: String {
        guard let v = queue.current else { return "Stopped" }
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
        if let l = length(v) { m.append(("mpris:length", .int64(l))) }
        if let art = v.thumbnailURL { m.append(("mpris:artUrl", .string(Self.uri(art)))) }
        return m
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
        let v = queue.current
        switch (interface, property, value) {
        case (Self.playerInterface, "Volume", .double(let level)):
            guard level.isFinite else { return call.error(BusErrorName.invalidArgs, "Volume must be a finite number") }
            // MPRIS allows more than 1 (amplification); this player's sound stops at full.
            v?.volume = max(0, min(1, level))
            if level > 0 { v?.isMuted = false }
        case (Self.playerInterface, "LoopStatus", .string(let loop)):
            guard ["None", "Track", "Playlist"].contains(loop) else {
                return call.error(BusErrorName.invalidArgs, "LoopStatus is None, Track or Playlist, got '\(loop)'")
            }
            v?.allowLooping = loop != "None"
        case (Self.playerInterface, "Volume", _), (Self.playerInterface, "LoopStatus", _):
            let wanted = property == "Volume" ? "a double (d)" : "a string (s)"
            return call.error(BusErrorName.invalidArgs, "\(property) takes \(wanted), got '\(value.signature)'")
        default:
            return call.error(BusErrorName.propertyReadOnly, "\(property) cannot be set")
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
            path = String(cString: cwd) + "/" + path
            free(cwd)
        }
        var out = "file://"
        for b in path.utf8 {
            let safe = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "/-._~".utf8.contains(b)
            out += safe ? String(UnicodeScalar(b)) : (b < 16 ? "%0" : "%") + String(b, radix: 16, uppercase: true)
        }
        return out
    }

    static func lastComponent(_ source: String) -> String {
        source.split(separator: "/").last.map(String.init) ?? source
    }
}
