import CX11

/// A window as an XDND (version 5) drop target: it says it is aware, answers the source's
/// position messages, fetches the dropped data through the `XdndSelection` (whole or
/// incrementally, INCR), and tells the source it is finished.
///
/// A source that dies mid-transfer sends nothing more; the transfer is then given up after
/// a few seconds (`SelectionReader.patience`) and the window carries on.
final class DropTarget: SelectionClient {
    let display: XDisplay
    let window: UInt
    /// The drag in progress: its source, the type we asked for, the action.
    private var source: (window: UInt, type: Atom?, action: Atom)?
    /// Fetches the dropped data (a 10,000-file uri-list is about 1 MB).
    let reader: SelectionReader

    init(display: XDisplay, window: UInt) {
        self.display = display
        self.window = window
        reader = SelectionReader(display: display, window: window, property: "MEDIAVIEW_DROP", limit: 32 << 20)
        var version: UInt = 5
        XChangeProperty(display.raw, window, display.atom("XdndAware"), XA_ATOM, 32, PropModeReplace,
                        withUnsafeBytes(of: &version) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
    }

    /// Types we take, best first.
    private var wanted: [Atom] {
        ["text/uri-list", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain"].map { display.atom($0) }
    }

    /// Handles an XDND client message; nil when the message is not about dragging.
    func clientMessage(_ c: XClientMessageEvent) -> WindowEvent?? {
        let name = c.message_type
        let l = c.data.l
        if name == display.atom("XdndEnter") {
            let from = UInt(l.0)
            var offered = [l.2, l.3, l.4].map { Atom($0) }.filter { $0 != 0 }
            if l.1 & 1 != 0, let list = display.windowProperty(from, "XdndTypeList", type: XA_ATOM) { offered = list }
            source = (from, wanted.first(where: offered.contains), display.atom("XdndActionCopy"))
            return .some(nil)
        }
        if name == display.atom("XdndPosition") {
            guard let s = source, UInt(l.0) == s.window else { return .some(nil) }
            let action = Atom(l.4)
            let known = ["XdndActionCopy", "XdndActionMove", "XdndActionLink"].map { display.atom($0) }
            let chosen = known.contains(action) ? action : display.atom("XdndActionCopy")
            source?.action = chosen
            let accept = s.type != nil && !reader.isBusy
            send(to: s.window, "XdndStatus", [Int(window), accept ? 1 : 0, 0, 0, accept ? Int(chosen) : 0])
            return .some(nil)
        }
        if name == display.atom("XdndLeave") {
            if !reader.isBusy { source = nil }
            return .some(nil)
        }
        if name == display.atom("XdndDrop") {
            guard let s = source, UInt(l.0) == s.window else { return .some(nil) }
            guard !reader.isBusy else {
                // A second drop while the first is still arriving: that source is told no.
                send(to: s.window, "XdndFinished", [Int(window), 0, 0, 0, 0])
                return .some(nil)
            }
            guard let type = s.type else {
                finish(accepted: false)
                return .some(.dropFailed("it had no text or file list in it"))
            }
            reader.request(display.atom("XdndSelection"), as: type, time: UInt(l.2))
            return .some(nil)
        }
        return nil
    }

    /// What a transfer's end means for the window.
    func outcome(_ o: SelectionReader.Outcome?) -> WindowEvent? {
        guard let o, let s = source else { return nil }
        switch o {
        case .done(let bytes, let type):
            finish(accepted: true)
            return .dropped(Drop(text: String(decoding: bytes, as: UTF8.self), isURIList: type == display.atom("text/uri-list"),
                                 isCopy: s.action == display.atom("XdndActionCopy")))
        case .failed(let why):
            finish(accepted: false)
            return .dropFailed(why)
        }
    }

    /// Tells the source we are done, and forgets the drag.
    private func finish(accepted: Bool) {
        if let s = source {
            send(to: s.window, "XdndFinished", [Int(window), accepted ? 1 : 0, accepted ? Int(s.action) : 0, 0, 0])
        }
        XFlush(display.raw)
        source = nil
    }

    private func send(to target: UInt, _ name: String, _ values: [Int]) {
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = target
        ev.xclient.message_type = display.atom(name)
        ev.xclient.format = 32
        ev.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
        // A source that died makes this a BadWindow, which the error handler records.
        XSendEvent(display.raw, target, 0, 0, &ev)
    }
}
