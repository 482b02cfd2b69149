import Viewer

/// Every key and mouse button event as one line of the `--events` log, with what took it:
/// `{"event":"key","name":"q","press":true,"window":4194305,"synthetic":false,
/// "repeat":false,"taken":"quit"}`, or `"dropped":"unbound"` (`repeat_of` names the command
/// a held key's repeat was kept from). A script or test sees whether a key arrived, and
/// whether it did what the bindings say.
enum InputRecorder {
    static func record(_ r: InputRecord, to log: EventLog) {
        var fields: [(String, JSONValue)] = [("name", r.name.map { .string($0) } ?? .null), ("press", .bool(r.isPress)),
                                             ("window", .int(Int(r.window))), ("synthetic", .bool(r.isSynthetic)),
                                             ("repeat", .bool(r.isAutoRepeat))]
        switch r.outcome {
        case .taken(let c): fields.append(("taken", .string(c.description)))
        case .heldRepeat(let c): fields += [("dropped", .string("held_repeat")), ("repeat_of", .string(c.description))]
        default: fields.append(("dropped", .string(reason(r.outcome))))
        }
        log.log(r.device.rawValue, fields)
    }

    /// The log's word for why nothing took an event.
    static func reason(_ o: InputOutcome) -> String {
        switch o {
        case .taken: "taken"
        case .unbound: "unbound"
        case .heldRepeat: "held_repeat"
        case .release: "release"
        case .unnamed: "unnamed"
        case .gesture: "gesture"
        case .thumbnailResize: "thumbnail_resize"
        case .thumbnailVolume: "thumbnail_volume"
        case .galleryConsumed: "gallery_consumed"
        }
    }
}
