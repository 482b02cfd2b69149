import Viewer

/// What the IPC socket's lines do to the running player: commands carried out on the
/// queue, replies to the client that asked, and events to every client.
///
/// The protocol is mpv's (`IPCRequest`, `IPCCommand`), so mpv users' scripts drive
/// mediaview as they drive mpv. Each command is a row of `handlers`, each property a row
/// of `propertyTable`; the events come from `IPCEventRelay` and `watch()`.
@MainActor
final class IPCController {
    let server: IPCServer
    unowned let queue: MediaQueue
    /// Makes a view for a file or URL with the command line's options, as an argument would be.
    let makeView: (String) -> MediaView
    /// mpv's `--idle`, as the command line gave it.
    let idleMode: IdleMode
    /// Each client's `observe_property` requests, with the value last sent.
    var observations: [Observation] = []
    /// Each client's name (`client_name`) and the events it turned off.
    var clients: [Int32: Client] = [:]
    /// Hears every item's callbacks and turns them into events; one for all items, held by
    /// each of them (`adopt`).
    private(set) lazy var relay = IPCEventRelay(controller: self)
    /// Views that played to their end, so `end-file` says `eof` rather than `stop`.
    var finished: Set<ObjectIdentifier> = []
    /// Player settings set over the socket, kept for items that come later: a player's
    /// volume or looping is one setting, not one per file.
    var player = PlayerSettings()
    /// What the events last said, so each is sent once (`IPCController+Events.swift`).
    var announced = Announced()
    /// Keys bound by clients (`keybind`, `define-section`).
    let keys = IPCKeyBindings()
    /// The exit status `quit CODE` asked for.
    var exitCode: Int32?
    private var watching = false

    /// Observations one client may hold; mpv's scripts use a handful.
    static let maxObservationsPerClient = 64
    /// Observations all clients together may hold.
    static let maxObservations = 1024

    /// One client's observation of one property.
    struct Observation {
        var client: Int32
        var id: Int
        var name: String
        /// Sent as text (`observe_property_string`).
        var asString: Bool
        /// The JSON last sent; nil before the first event.
        var last: String?
    }

    /// What is known of one client.
    struct Client {
        var name: String
        /// Events it asked not to get (`disable_event`).
        var disabled: Set<String> = []
        var allDisabled = false
    }

    /// mpv's `--idle`: whether an empty playlist keeps the window.
    typealias IdleMode = ProgramOptions.Idle

    /// Settings of the player as a whole.
    struct PlayerSettings {
        var volume: Double?
        var muted: Bool?
        var loopFile: Bool?
        var imageDuration: Double?
    }

    init(server: IPCServer, queue: MediaQueue, idleMode: IdleMode = .no, makeView: @escaping (String) -> MediaView) {
        self.server = server
        self.queue = queue
        self.idleMode = idleMode
        self.makeView = makeView
        server.onLine = { [weak self] line, client in self?.handle(line, from: client) }
        server.onOpen = { [weak self] client in self?.clients[client] = Client(name: "ipc-\(client)") }
        server.onClose = { [weak self] client in
            self?.observations.removeAll { $0.client == client }
            self?.clients[client] = nil
        }
        keys.run = { [weak self] text in self?.runText(text, from: nil) }
    }

    /// Gives a view (the template the program's items are made like) the player's
    /// settings. Items' events reach the clients through `relay`, which they are made
    /// with, and an item's entry id is its `tag` counted from 1.
    func adopt(_ view: MediaView) {
        apply(player, to: view)
    }

    /// mpv's `playlist_entry_id` of `view`: items counted from 1 in the order they came.
    static func entryID(_ view: MediaView) -> Int { view.tag + 1 }

    /// Gives `view` the settings set over the socket. Only what differs is written, so the
    /// items of a folder keep sharing one copy of their options.
    func apply(_ p: PlayerSettings, to view: MediaView) {
        if let v = p.volume, view.volume != v { view.volume = v }
        if let m = p.muted, view.isMuted != m { view.isMuted = m }
        if let l = p.loopFile, view.allowLooping != l { view.allowLooping = l }
        if let d = p.imageDuration, view.imageDuration != d { view.imageDuration = d }
    }

    /// Gives every item of the playlist the settings set over the socket, items that
    /// shared their options still sharing them.
    func applyToAll() {
        MediaView.changeAll(queue.playlist) { apply(player, to: $0) }
    }

    /// Answers one line from `client`.
    func handle(_ line: IPCConnection.Line, from client: Int32) {
        let request: IPCRequest
        do throws(IPCRequest.Failure) {
            guard case .text(let text) = line else { throw IPCRequest.Failure(error: .invalidParameter, requestID: 0) }
            guard let r = try IPCRequest.parse(text) else { return }
            request = r
        } catch {
            if error.wantsReply { server.send(IPCRequest.reply(requestID: error.requestID, error: error.error), to: client) }
            else { ViewerApp.say("mediaview: ipc: a text command was refused: \(error.error.rawValue)") }
            return
        }
        for (i, command) in request.commands.enumerated() {
            // Text commands expand `${...}` in show-text and the like unless `raw`; JSON
            // commands do not (mpv's client API), unless asked with `expand-properties`.
            let prefixes = request.prefixes.indices.contains(i) ? request.prefixes[i] : []
            let expand = prefixes.contains("expand-properties") || (!request.wantsReply && !prefixes.contains("raw"))
            do throws(IPCError) {
                let data = try execute(command, for: client, expanding: expand)
                if request.wantsReply { server.send(IPCRequest.reply(requestID: request.requestID, data: data), to: client) }
            } catch {
                if request.wantsReply { server.send(IPCRequest.reply(requestID: request.requestID, error: error), to: client) }
            }
        }
        // After the reply, as mpv does: an observation's first value follows its success.
        checkObservations(onlyNew: true)
        startWatching()
    }

    /// Runs a text command from a key binding (or a client's `keypress`), with no reply.
    func runText(_ text: String, from client: Int32?) {
        guard let request = try? IPCRequest.parse(text) else {
            ViewerApp.say("mediaview: ipc: cannot run the bound command '\(text)'")
            return
        }
        for c in request.commands { _ = try? execute(c, for: client ?? -1, expanding: true) }
        checkObservations()
    }

    /// Carries out one command through its row of `handlers`; returns the reply's data.
    func execute(_ command: IPCCommand, for client: Int32, expanding: Bool = false) throws(IPCError) -> JSONValue? {
        if let handler = Self.handlers[command.name] {
            return try Self.narrow { try handler(self, Invocation(command: command, client: client, expanding: expanding)) }
        }
        // The mediaview commands a key can be bound to (`rotate 90`, `gallery`), by their text.
        let text = ([command.name] + command.args.compactMap(\.text)).joined(separator: " ")
        guard let c = try? PlayerCommand.parse(text) else { throw .invalidParameter }
        queue.execute(c)
        return nil
    }

    /// One command being carried out, with who asked.
    struct Invocation {
        var command: IPCCommand
        var client: Int32
        var expanding: Bool
    }

    /// A command's handler.
    /// (Untyped throws, as `PropertyRow`'s closures; every handler throws IPCError.)
    typealias Handler = @MainActor (IPCController, Invocation) throws -> JSONValue?

    /// Looks at the player twenty times a second while any client is connected: the
    /// position moves, seeks land and files finish loading with no callback saying so.
    func startWatching() {
        guard !watching else { return }
        watching = true
        onMainActor(after: 0.05) { [weak self] in
            guard let self else { return }
            self.watching = false
            guard !self.server.clients.isEmpty else { return }
            self.watch()
            self.startWatching()
        }
    }
}
