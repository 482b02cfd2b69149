import Glibc
import Playback
import SessionBus
import Viewer
import MediaCore

/// A queue as an MPRIS2 media player on the session bus, so that the keyboard's media keys
/// (through the desktop), desktop media widgets and `playerctl` see and drive it.
///
/// It answers on the queue's main loop: the bus connection is one more descriptor there.
/// Play, pause, seek and next act on the presented view as the keys do; what changes (play
/// state, item, volume, a jump in position) is signalled with `PropertiesChanged` and
/// `Seeked` after the loop's turn that changed it. The name is
/// `org.mpris.MediaPlayer2.mediaview`, or with `.instance<PID>` appended when another
/// player already has it, as the MPRIS specification asks.
@MainActor
public final class MPRISPlayer {
    /// The well-known name the first player takes.
    public static let busName = "org.mpris.MediaPlayer2.mediaview"
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    let queue: MediaQueue
    let bus: BusConnection
    /// The name this player owns on the bus.
    public let name: String
    /// What the name says to people: the desktop entry's and the player's name.
    let identity: String
    /// Player properties as last signalled, to send only what changed.
    var published: [String: BusValue] = [:]
    /// Stop was asked for: paused at the start, "Stopped" until played again.
    var stopped = false
    /// Where the presented view was at the last turn, to tell a seek from playing on.
    var lastPosition: (view: ObjectIdentifier?, seconds: Double, at: Double) = (nil, 0, 0)
    /// The volume set through MPRIS: the player's, kept for every item that comes later.
    var volume: Double?
    /// A seek not landed yet: its view and target (the player's clock reads 0 until then).
    var seekTarget: (view: ObjectIdentifier, seconds: Double)?
    /// Views this player hears seeks from.
    var heard: Set<ObjectIdentifier> = []
    /// Cover pictures written out for `mpris:artUrl`, by track id.
    var covers: [String: String] = [:]

    /// Connects to the bus at `busAddress`, takes the MPRIS name and starts answering on
    /// `queue`'s loop. Throws, with libdbus's reason, when there is no bus to talk to.
    public init(queue: MediaQueue, busAddress: String, identity: String = "mediaview") throws(BusConnection.Failure) {
        self.queue = queue
        self.identity = identity
        bus = try BusConnection(address: busAddress,
                                watch: { [unowned queue] fd, readable in queue.watch(fileDescriptor: fd, onReadable: readable) },
                                unwatch: { [unowned queue] fd in queue.unwatch(fileDescriptor: fd) })
        if try bus.requestName(Self.busName) {
            name = Self.busName
        } else {
            let instance = Self.busName + ".instance\(getpid())"
            guard try bus.requestName(instance) else { throw BusConnection.Failure(description: "\(instance) is taken") }
            name = instance
        }
        published = playerProperties()
        bus.export(path: Self.objectPath) { [weak self] call in self?.answer(call) }
        queue.afterEachTurn { [weak self] in self?.publishChanges() }
    }

    /// Answers one call on the player's object.
    func answer(_ call: BusMessage) -> BusMessage? {
        guard let member = call.member else { return nil }
        guard let args = call.arguments else {
            return call.error(BusErrorName.invalidArgs, "\(member): arguments of a type the player does not take")
        }
        let reply: BusMessage?
        switch call.interface {
        case Self.propertiesInterface?: reply = answerProperties(call, member, args)
        case Self.playerInterface?: reply = answerPlayer(call, member, args)
        case Self.rootInterface?: reply = answerRoot(call, member, args)
        case "org.freedesktop.DBus.Introspectable"?:
            reply = member == "Introspect" && args.isEmpty ? call.reply([.string(Self.introspection)]) : nil
        case nil:
            // A call without an interface: the first interface with the method takes it.
            reply = answerPlayer(call, member, args) ?? answerRoot(call, member, args)
        default:
            return call.error(BusErrorName.unknownInterface, "no interface \(call.interface ?? "") here")
        }
        // What the call changed goes out now, not at the loop's next turn.
        publishChanges()
        return reply
    }

    private func answerRoot(_ call: BusMessage, _ member: String, _ args: [BusValue]) -> BusMessage? {
        switch member {
        case "Raise":
            guard args.isEmpty else { return wrongArguments(call, "Raise takes no arguments") }
            queue.raiseWindow()
            return call.reply()
        case "Quit":
            guard args.isEmpty else { return wrongArguments(call, "Quit takes no arguments") }
            queue.quit()
            return call.reply()
        default:
            return nil
        }
    }

    private func answerPlayer(_ call: BusMessage, _ member: String, _ args: [BusValue]) -> BusMessage? {
        let view = queue.current
        // Matched on the signature the caller sent, so a wrong type is an error reply.
        switch (member, call.signature) {
        case ("Play", ""):
            stopped = false
            view?.play()
        case ("Pause", ""):
            view?.pause()
        case ("PlayPause", ""):
            stopped = false
            view?.togglePlay()
        case ("Stop", ""):
            view?.pause()
            view?.seek(toFraction: 0)
            stopped = view != nil
        case ("Next", ""):
            if queue.views.count > 1 { queue.presentNext() }
        case ("Previous", ""):
            queue.presentPrevious()
        case ("Seek", "x"):
            view?.seek(by: MPRISArguments.seconds(microseconds: args[0].int64 ?? 0))
        case ("SetPosition", "ox"):
            // The specification: a stale track id or a position outside the media is ignored.
            if let v = view, args[0].text == trackID(v),
               let at = MPRISArguments.position(microseconds: args[1].int64 ?? -1, length: length(v)) {
                v.seek(by: at - v.position)
            }
        case ("OpenUri", "s"):
            return openURI(call, args[0].text ?? "")
        case ("Play", _), ("Pause", _), ("PlayPause", _), ("Stop", _), ("Next", _), ("Previous", _):
            return wrongArguments(call, "\(member) takes no arguments")
        case ("Seek", _):
            return wrongArguments(call, "Seek takes one int64 offset in microseconds (x)")
        case ("SetPosition", _):
            return wrongArguments(call, "SetPosition takes a track id and an int64 position in microseconds (ox)")
        case ("OpenUri", _):
            return wrongArguments(call, "OpenUri takes one string (s)")
        default:
            return nil
        }
        return call.reply()
    }

    /// OpenUri: the item is made as a dropped one is and shown now, the one on screen
    /// staying in the history.
    private func openURI(_ call: BusMessage, _ uri: String) -> BusMessage? {
        guard let source = MPRISArguments.source(openURI: uri), let make = queue.presentation.makeView else {
            return call.error(BusErrorName.invalidArgs,
                              "cannot open '\(TextFormat.quotable(uri))': not a file path or an http(s) URL")
        }
        queue.queue(mediaViews: [make(source)], presentingFirst: true)
        return call.reply()
    }

    func wrongArguments(_ call: BusMessage, _ text: String) -> BusMessage? {
        call.error(BusErrorName.invalidArgs, "\(text), got (\(call.signature))")
    }

    /// The `mpris:trackid` of a view: stable while the view lives, and a valid object path.
    func trackID(_ v: MediaView) -> String {
        "/org/mediaview/track/\(UInt(bitPattern: ObjectIdentifier(v).hashValue))"
    }

    /// The media's length in microseconds, when it is known. A still lasts what
    /// `--image-duration` gives it in a slide show (`autoExit`), and has no length when it
    /// stays until the user moves on.
    func length(_ v: MediaView) -> Int64? {
        if isStill(v) { return queue.presentation.autoExit ? Int64(v.imageDuration * 1_000_000) : nil }
        guard let d = v.info?.duration, d.isFinite, d > 0 else { return nil }
        return Int64(d * 1_000_000)
    }

    /// Whether `v` is a still: what the opened file says, and until it has opened, what its
    /// name says, so a widget asking in the first moments does not see a still "Playing".
    func isStill(_ v: MediaView) -> Bool {
        if let info = v.info { return info.kind == .image }
        return v.kind == .image
    }

    /// Where the presented view is, in microseconds: a seek's target until it lands.
    func position(_ v: MediaView) -> Int64 {
        if let t = seekTarget, t.view == ObjectIdentifier(v), v.position == 0 { return Int64(t.seconds * 1_000_000) }
        return Int64(v.position * 1_000_000)
    }

    /// Starts hearing `v`'s seeks (once per view).
    func hear(_ v: MediaView) {
        guard heard.insert(ObjectIdentifier(v)).inserted else { return }
        v.addObserver(self)
    }

    /// URI schemes OpenUri takes.
    static let schemes = ["file", "http", "https"]
}

/// The seeks of the views: the position reads the target until the player has decoded it.
extension MPRISPlayer: MediaViewDelegate {
    /// Remembers the target of a seek of the presented view.
    public func mediaView(_ mediaView: MediaView, didSeekTo position: Double) {
        seekTarget = (ObjectIdentifier(mediaView), position)
    }
}
