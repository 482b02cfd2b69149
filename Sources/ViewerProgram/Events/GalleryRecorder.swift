import Playback
import Viewer

/// The gallery's events as lines of the `--events` log: what a script or `make bench` reads
/// (how long the first screen of thumbnails took, where each thumbnail came from).
enum GalleryRecorder {
    static func record(_ e: GalleryEvent, to log: EventLog?) {
        guard let log else { return }
        switch e {
        case .shown(let items, let columns, let first, let step, let thumbnail):
            log.log("gallery_shown", [("items", .int(items)), ("columns", .int(columns)),
                                      ("x", .int(first.x)), ("y", .int(first.y)),
                                      ("cell_width", .int(first.width)), ("cell_height", .int(first.height)),
                                      ("step_x", .int(step.x)), ("step_y", .int(step.y)),
                                      ("thumbnail", .int(thumbnail))])
        case .firstScreen(let seconds, let cells):
            log.log("gallery_first_screen", [("ms", .double(seconds * 1000)), ("cells", .int(cells))])
        case .thumbnail(let path, let source, let seconds, let reason):
            var fields: [(String, JSONValue)] = [("path", .string(path)), ("from", .string(source.rawValue)),
                                                 ("ms", .double(seconds * 1000))]
            if let reason { fields.append(("reason", .string(reason))) }
            log.log("thumbnail_made", fields)
        case .selected(let index):
            log.log("gallery_selected", [("index", .int(index))])
        case .closed(let opened):
            log.log("gallery_closed", opened.map { [("opened", .int($0))] } ?? [])
        case .hoverRested(let index, let plays):
            log.log("gallery_hover", [("index", .int(index)), ("plays", .bool(plays))])
        case .hoverPicture(let index, let number, let at, let rested):
            log.log("gallery_hover_picture", [("index", .int(index)), ("number", .int(number)),
                                              ("at", .double(at)), ("rested_ms", .double(rested * 1000))])
        case .hoverEnded(let index, let pictures):
            log.log("gallery_hover_ended", [("index", .int(index)), ("pictures", .int(pictures))])
        case .hoverFailed(let index):
            log.log("gallery_hover_failed", [("index", .int(index))])
        }
    }

    /// The desktop's thumbnail cache: `$XDG_CACHE_HOME/thumbnails`, else `~/.cache/thumbnails`.
    static func thumbnailDirectory(_ environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/thumbnails" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/thumbnails" }
        return nil
    }
}
