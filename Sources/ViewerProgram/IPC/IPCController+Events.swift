import Glibc
import MediaCore
import Playback
import Viewer

/// mpv's events, each once and in mpv's order: `start-file`, `file-loaded`,
/// `playback-restart` for an item; `seek` then `playback-restart` for a seek; `end-file`;
/// `idle` when the playlist is empty; `shutdown` at the end. What no callback reports
/// (a seek that landed, a file that finished opening, an empty queue) is noticed by
/// `watch()`, which also sends the observed properties that changed.
extension IPCController {
    /// What the events last said.
    struct Announced {
        /// The item `file-loaded` was sent for.
        var loaded: ObjectIdentifier?
        /// The `idle` event went out and nothing was loaded since.
        var idle = false
        /// Seeks not yet landed, by view: the target, and when it was asked for.
        var seeks: [ObjectIdentifier: (target: Double, at: Double)] = [:]
        /// A file was loaded since the start (for `--idle=once`).
        var anyLoaded = false
    }

    /// Sends an event to every client that did not turn it off.
    func broadcast(_ name: String, _ fields: [String: JSONValue] = [:]) {
        let line = IPCRequest.event(name, fields)
        for fd in server.clients {
            if let c = clients[fd], c.allDisabled || c.disabled.contains(name) { continue }
            server.send(line, to: fd)
        }
    }

    /// The entry id of `view`, for the events' `playlist_entry_id`.
    func entryFields(_ view: MediaView) -> [String: JSONValue] {
        ["playlist_entry_id": .int(Self.entryID(view))]
    }

    /// One look at the player: a file that finished opening, a seek that landed, an empty
    /// playlist, and the observed properties.
    func watch() {
        if let v = queue.current, v.info != nil || v.failure != nil, announced.loaded != ObjectIdentifier(v), v.failure == nil {
            announced.loaded = ObjectIdentifier(v)
            announced.anyLoaded = true
            if idleMode == .once { queue.presentation.idles = false }
            broadcast("file-loaded", entryFields(v))
            if v.info?.kind != .audio || v.info?.hasCoverArt == true { broadcast("video-reconfig") }
            if v.info?.hasAudio == true { broadcast("audio-reconfig") }
            broadcast("playback-restart")
        }
        let now = MonotonicClock.seconds()
        for (id, seek) in announced.seeks {
            guard let v = queue.current, ObjectIdentifier(v) == id else { announced.seeks[id] = nil; continue }
            // Landed: the clock runs again near the target (or the seek went to the start).
            if abs(v.position - seek.target) < 1.5 && (v.position != 0 || seek.target < 0.05) || now - seek.at > 3 {
                announced.seeks[id] = nil
                broadcast("playback-restart")
            }
        }
        let idle = queue.current == nil && queue.views.isEmpty
        if idle && !announced.idle {
            announced.idle = true
            announced.loaded = nil
            broadcast("idle")
        } else if !idle {
            announced.idle = false
        }
        checkObservations()
    }

    /// Where the view is: the target of a seek that has not landed yet (the player's clock
    /// reads 0 until then), else the player's position.
    func position(of v: MediaView) -> Double {
        if let seek = announced.seeks[ObjectIdentifier(v)], v.position == 0 { return seek.target }
        return v.position
    }

    /// Sends `property-change` for every observed property whose value changed since it
    /// was last sent (and the first value of a new observation). A property with no value
    /// now (or none at all) is sent without `data`, as mpv does.
    /// With `onlyNew`, only observations that have sent nothing yet: after each client
    /// line, so a client sending thousands of lines does not have every observation looked
    /// at for each of them (the rest follow events and the watch).
    func checkObservations(onlyNew: Bool = false) {
        // Each property is read once per look, however many observe it.
        var values: [String: JSONValue?] = [:]
        for i in observations.indices where !onlyNew || observations[i].last == nil {
            let o = observations[i]
            var data: JSONValue?
            if let known = values[o.name] { data = known } else {
                data = try? value(of: o.name)
                values[o.name] = data
            }
            if o.asString, let d = data { data = .string(IPCPropertyPath.string(d)) }
            let text = data?.json ?? ""
            guard text != o.last else { continue }
            observations[i].last = text
            var fields: [String: JSONValue] = ["id": .int(o.id), "name": .string(o.name)]
            if let data { fields["data"] = data }
            if let c = clients[o.client], c.allDisabled || c.disabled.contains("property-change") { continue }
            server.send(IPCRequest.event("property-change", fields), to: o.client)
        }
    }

    /// The end of the program: `end-file` for the item on screen, then `shutdown`, then
    /// the socket goes.
    func shutdown() {
        if let v = queue.current { broadcast("end-file", entryFields(v).merging(["reason": "quit"]) { a, _ in a }) }
        broadcast("shutdown")
        server.close()
    }
}
