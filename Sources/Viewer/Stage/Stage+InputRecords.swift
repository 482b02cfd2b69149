import Windowing

/// Keys and buttons to commands, each event reported with what took it
/// (`presentation.onInput`), so a key that did nothing can be told from one that never came.
extension Stage {
    /// Runs the command bound to a key press (in the bindings' `section`; nil: the default
    /// one), after reporting the key and what takes it.
    func take(_ k: KeyEvent, section: String? = nil) {
        if k.isPress && !k.isSynthetic { input.lastTime = k.time }
        let outcome = keyOutcome(k, section: section)
        report(InputRecord(device: .key, name: k.name, isPress: k.isPress, window: k.window, isSynthetic: k.isSynthetic,
                           isAutoRepeat: k.isAutoRepeat, outcome: outcome))
        if case .taken(let c) = outcome { router.execute(c, on: self) }
    }

    private func keyOutcome(_ k: KeyEvent, section: String?) -> InputOutcome {
        guard k.isPress else { return .release }
        guard let name = k.name, let c = command(for: name, in: section) else { return unbound(k.name, section: section) }
        // A held key repeats what makes sense to repeat (seeking, volume, zoom), not a
        // pin, a dismissal or the next item.
        return k.isAutoRepeat && !c.repeatsWhileHeld ? .heldRepeat(c) : .taken(c)
    }

    /// Runs the command bound to a button that is not the left one (the wheel, the middle
    /// and right buttons), after reporting it.
    func take(_ b: ButtonEvent, window id: UInt, section: String? = nil) {
        let outcome = buttonOutcome(b, section: section)
        report(b, window: id, outcome)
        guard case .taken(let c) = outcome else { return }
        // The wheel zooms about the pointer, keeping what is under it in place, as image
        // viewers do; a key zooms about the centre.
        if case .zoom(let step) = c, let v = view, !isMinimized {
            v.zoom(by: step, about: (b.x, b.y), in: (window.width, window.height))
            needsRedraw = true
            return
        }
        router.execute(c, on: self)
    }

    private func buttonOutcome(_ b: ButtonEvent, section: String?) -> InputOutcome {
        guard b.isPress else { return .release }
        let name = KeyName.name(button: b.button, state: b.modifiers)
        guard let name, let c = command(for: name, in: section) else { return unbound(name, section: section) }
        return .taken(c)
    }

    /// Reports a button event and what became of it.
    func report(_ b: ButtonEvent, window id: UInt, _ outcome: InputOutcome) {
        if b.isPress && b.time != 0 { input.lastTime = b.time }
        report(InputRecord(device: .button, name: KeyName.name(button: b.button, state: b.modifiers), isPress: b.isPress,
                           window: id, outcome: outcome))
    }

    private func report(_ record: InputRecord) {
        router.queue.presentation.onInput?(record)
    }

    /// The command in `section`; with none, the still-aware default (`command(for:)`), so
    /// the `{still}` keys are reported as what took them too.
    private func command(for name: String, in section: String?) -> PlayerCommand? {
        guard let section else { return command(for: name) }
        return input.bindings.command(for: name, in: section)
    }

    /// Why nothing took a press: the gallery takes whatever it has no binding for, so
    /// nothing acts behind the grid.
    private func unbound(_ name: String?, section: String?) -> InputOutcome {
        if section == "gallery" { return .galleryConsumed }
        return name == nil ? .unnamed : .unbound
    }
}
