import Windowing

/// The queue's policy for files and links dropped on its window or pasted into it.
extension MediaQueue {
    /// Queues what was dropped. A plain drag (the copy action, as mpv reads it) presents
    /// the first dropped item now, the rest after it and what waited before after those;
    /// a drag with another action (move or link: Shift or Ctrl held in most file managers)
    /// appends them to the end, presenting only when nothing is on screen.
    func take(_ drop: Drop) {
        let found = MediaSources(text: drop.text, isURIList: drop.isURIList)
        if let problem = found.problem(from: "drop") { presentation.onMessage?(problem) }
        queue(sources: found.sources, presentingFirst: drop.isCopy)
    }

    /// Plays what was pasted: the first item now, as a drop with a plain drag does.
    func takePaste(_ text: String, isURIList: Bool) {
        let found = MediaSources(text: text, isURIList: isURIList)
        if let problem = found.problem(from: "clipboard") { presentation.onMessage?(problem) }
        queue(sources: found.sources, presentingFirst: true)
    }

    /// Makes a view for each source (the app's way, or like the view on screen) and queues them.
    func queue(sources: [String], presentingFirst: Bool) {
        guard !sources.isEmpty else { return }
        let model = current
        let made = sources.map { source -> MediaView in
            if let make = presentation.makeView { return make(source) }
            let v = MediaView()
            if let model { v.takeOptions(of: model) }
            v.setMedia(url: source)
            return v
        }
        queue(mediaViews: made, presentingFirst: presentingFirst)
    }
}
