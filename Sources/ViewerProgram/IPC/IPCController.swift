import Viewer

/// What the IPC socket's lines do to the running player: commands carried out on the
/// queue, replies to the client that asked, and events to every client.
///
/// The protocol is mpv's (`IPCRequest`, `IPCCommand`), so mpv users' scripts drive
/// mediaview as they drive mpv. Properties are in `IPCController+Properties.swift`, the
/// events in `IPCController+Events.swift`.
@MainActor
final class IPCController {
    let server: IPCServer
    unowned let queue: MediaQueue
    /// Makes a view for a file or URL with the command line's options, as an argument would be.
    let makeView: (String) -> MediaView
    /// Each client's `observe_property` requests, with the value last sent.
    var observations: [Observation] = []
    /// Playlist entry ids (mpv's `playlist_entry_id`), counted from 1 in the order items came.
    var entryIDs: [ObjectIdentifier: Int] = [:]
    /// Views that played to their end, so `end-file` says `eof` rather than `stop`.
    var finished: Set<ObjectIdentifier> = []
    /// Volume and mute set over the socket, kept for items that come later, as a player's
    /// volume is one setting, not one per file.
    var sound: (volume: Double?, muted: Bool?) = (nil, nil)
    private var polling = false

    /// Observations one client may hold; mpv's scripts use a handful. Past it a request
    /// is refused, so a client cannot make every look at the properties send thousands
    /// of events.
    static let maxObservationsPerClient = 64
    /// Observations all clients together may hold.
    static let maxObservations = 1024

    /// One client's observation of one property.
    struct Observation {
        var client: Int32
        var id: Int
        var name: String
        /// The JSON last sent; nil before the first event.
        var last: String?
    }

    init(server: IPCServer, queue: MediaQueue, makeView: @escaping (String) -> MediaView) {
        self.server = server
        self.queue = queue
        self.makeView = makeView
        server.onLine = { [weak self] line, client in self?.handle(line, from: client) }
        server.onClose = { [weak self] client in self?.observations.removeAll { $0.client == client } }
    }

    /// Takes a view into the IPC's view of the playlist: it gets an entry id, and its
    /// events reach the clients.
    func adopt(_ view: MediaView) {
        entryIDs[ObjectIdentifier(view)] = entryIDs.count + 1
        if let v = sound.volume { view.volume = v }
        if let m = sound.muted { view.isMuted = m }
        view.addObserver(IPCEventRelay(controller: self))
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
            return
        }
        do throws(IPCError) {
            let data = try execute(request.command, for: client)
            if request.wantsReply { server.send(IPCRequest.reply(requestID: request.requestID, data: data), to: client) }
        } catch {
            if request.wantsReply { server.send(IPCRequest.reply(requestID: request.requestID, error: error), to: client) }
        }
        // After the reply, as mpv does: an observation's first value follows its success.
        // Only new ones: the rest follow events and the poll, so a client sending thousands
        // of lines does not have every observation looked at for each of them.
        checkObservations(onlyNew: true)
        if case .quit = request.command { queue.quit() }
    }

    /// Carries out one command; returns the reply's data.
    func execute(_ command: IPCCommand, for client: Int32) throws(IPCError) -> JSONValue? {
        switch command {
        case .loadfile(let url, let mode):
            let view = makeView(url)
            adopt(view)
            switch mode {
            case .replace: queue.replaceAll(with: view)
            case .append, .appendPlay: queue.queue(mediaView: view)
            }
            return nil
        case .playlistNext:
            queue.presentNext()
        case .playlistPrev:
            queue.presentPrevious()
        case .seek(let target, let mode):
            guard queue.current?.isPlayable == true else { throw .command }
            switch mode {
            case .relative: queue.execute(.seek(seconds: target))
            case .absolute: queue.execute(.seekAbsolute(seconds: max(0, target)))
            case .absolutePercent: queue.execute(.seekAbsolutePercent(max(0, min(100, target))))
            }
        case .getProperty(let name):
            return try value(of: name)
        case .setProperty(let name, let value):
            try set(name, to: value)
        case .observeProperty(let id, let name):
            guard IPCProperty(rawValue: name) != nil else { throw .propertyNotFound }
            guard observations.count < Self.maxObservations,
                  observations.lazy.filter({ $0.client == client }).count < Self.maxObservationsPerClient else { throw .command }
            observations.append(Observation(client: client, id: id, name: name))
            startPolling()
        case .unobserveProperty(let id):
            observations.removeAll { $0.client == client && $0.id == id }
        case .quit:
            break
        case .binding(let c):
            queue.execute(c)
        }
        return nil
    }

    /// Sends `property-change` for every observed property whose value changed since it
    /// was last sent (and the first value of a new observation).
    /// With `onlyNew`, only observations that have sent nothing yet.
    func checkObservations(onlyNew: Bool = false) {
        // Each property is read once per look, however many observe it.
        var values: [String: JSONValue?] = [:]
        for i in observations.indices where !onlyNew || observations[i].last == nil {
            let o = observations[i]
            let data: JSONValue?
            if let known = values[o.name] { data = known } else {
                data = try? value(of: o.name)
                values[o.name] = data
            }
            let text = data?.json ?? ""
            guard text != o.last else { continue }
            observations[i].last = text
            var fields: [String: JSONValue] = ["id": .int(o.id), "name": .string(o.name)]
            if let data { fields["data"] = data }
            server.send(IPCRequest.event("property-change", fields), to: o.client)
        }
    }

    /// Looks at the observed properties ten times a second while any are observed: the
    /// position moves with no event to tell of it.
    private func startPolling() {
        guard !polling else { return }
        polling = true
        onMainActor(after: 0.1) { [weak self] in
            guard let self else { return }
            self.polling = false
            guard !self.observations.isEmpty else { return }
            self.checkObservations()
            self.startPolling()
        }
    }
}
