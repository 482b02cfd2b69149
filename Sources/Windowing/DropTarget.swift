import CX11
import Glibc

/// What was dropped on a window: the text a file manager or browser sent, and how.
public struct Drop: Sendable, Equatable {
    /// The data as sent: a `text/uri-list` (one URI a line, `#` comments) or plain text.
    public var text: String
    /// Whether it came as `text/uri-list` rather than plain text.
    public var isURIList: Bool
    /// The action the user chose: copy is a plain drag; move or link (a modifier held in most
    /// file managers) is anything else.
    public var isCopy: Bool
}

/// A window as an XDND (version 5) drop target: it says it is aware, answers the source's
/// position messages, fetches the dropped data through the `XdndSelection` (whole or
/// incrementally, INCR), and tells the source it is finished.
///
/// A source that dies mid-transfer sends nothing more; the transfer is then given up after
/// `patience` seconds and the window carries on.
final class DropTarget {
    let display: XDisplay
    let window: UInt
    /// The drag in progress: its source, the type we asked for, the action.
    private var source: (window: UInt, type: Atom?, action: Atom)?
    /// The transfer in progress: what has come so far and when it must be done.
    private var transfer: (type: Atom, data: [UInt8], incremental: Bool, deadline: Double)?
    /// Seconds a silent source is waited for.
    static let patience = 5.0
    /// The most a drop may carry (a 10,000-file uri-list is about 1 MB).
    static let maxBytes = 32 << 20

    init(display: XDisplay, window: UInt) {
        self.display = display
        self.window = window
        var version: UInt = 5
        XChangeProperty(display.raw, window, display.atom("XdndAware"), XA_ATOM, 32, PropModeReplace,
                        withUnsafeBytes(of: &version) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
        // PropertyNotify brings the chunks of an incremental transfer.
        var attrs = XWindowAttributes()
        XGetWindowAttributes(display.raw, window, &attrs)
        XSelectInput(display.raw, window, attrs.your_event_mask | PropertyChangeMask)
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
            source?.action = known.contains(action) ? action : display.atom("XdndActionCopy")
            send(to: s.window, "XdndStatus", [Int(window), s.type == nil ? 0 : 1, 0, 0,
                                                s.type == nil ? 0 : Int(source!.action)])
            return .some(nil)
        }
        if name == display.atom("XdndLeave") {
            source = nil
            return .some(nil)
        }
        if name == display.atom("XdndDrop") {
            guard let s = source, UInt(l.0) == s.window else { return .some(nil) }
            guard let type = s.type else {
                finish(accepted: false)
                return .some(.dropFailed("it had no text or file list in it"))
            }
            transfer = (type, [], false, now() + Self.patience)
            XConvertSelection(display.raw, display.atom("XdndSelection"), type, display.atom("MEDIAVIEW_DROP"),
                              window, UInt(l.2))
            XFlush(display.raw)
            return .some(nil)
        }
        return nil
    }

    /// The source answered the conversion: the data, the start of an incremental transfer,
    /// or a refusal.
    func selectionNotify(_ s: XSelectionEvent) -> WindowEvent? {
        guard transfer != nil, s.selection == display.atom("XdndSelection") else { return nil }
        guard s.property != 0, let (type, bytes) = take() else { return fail("the program it came from refused to send it") }
        if type == display.atom("INCR") {
            transfer?.incremental = true
            transfer?.deadline = now() + Self.patience
            return nil
        }
        transfer?.data = bytes
        return complete()
    }

    /// A chunk of an incremental transfer is there; an empty one ends it.
    func propertyNotify(_ p: XPropertyEvent) -> WindowEvent? {
        guard let t = transfer, t.incremental, p.atom == display.atom("MEDIAVIEW_DROP"), p.state == PropertyNewValue,
              let (_, bytes) = take() else { return nil }
        if bytes.isEmpty { return complete() }
        guard t.data.count + bytes.count <= Self.maxBytes else { return fail("it is larger than \(Self.maxBytes >> 20) MiB") }
        transfer?.data += bytes
        transfer?.deadline = now() + Self.patience
        return nil
    }

    /// When a silent source is given up, if a transfer is waiting.
    var deadline: Double? { transfer?.deadline }

    /// Gives up a transfer whose source went silent (it died, or hangs).
    func expire() -> WindowEvent? {
        guard let t = transfer, now() >= t.deadline else { return nil }
        return fail("the program it came from stopped answering")
    }

    private func complete() -> WindowEvent? {
        guard let t = transfer, let s = source else { return nil }
        let drop = Drop(text: String(decoding: t.data, as: UTF8.self), isURIList: t.type == display.atom("text/uri-list"),
                        isCopy: s.action == display.atom("XdndActionCopy"))
        finish(accepted: true)
        return .dropped(drop)
    }

    private func fail(_ why: String) -> WindowEvent {
        finish(accepted: false)
        return .dropFailed(why)
    }

    /// Tells the source we are done, and forgets the drag.
    private func finish(accepted: Bool) {
        if let s = source {
            send(to: s.window, "XdndFinished", [Int(window), accepted ? 1 : 0, accepted ? Int(s.action) : 0, 0, 0])
        }
        XDeleteProperty(display.raw, window, display.atom("MEDIAVIEW_DROP"))
        XFlush(display.raw)
        source = nil
        transfer = nil
    }

    /// Reads and deletes our transfer property: its type and bytes (8-bit data only).
    private func take() -> (Atom, [UInt8])? {
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let r = XGetWindowProperty(display.raw, window, display.atom("MEDIAVIEW_DROP"), 0, Self.maxBytes / 4 + 1, 1,
                                   UInt(AnyPropertyType), &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard r == Success, XDisplay.errorCode.load(ordering: .relaxed) == 0 else { return nil }
        if type == display.atom("INCR") { return (type, []) }
        guard format == 8 || count == 0, after == 0 else { return nil }
        return (type, data.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
    }

    private func send(to target: UInt, _ name: String, _ values: [Int]) {
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = target
        ev.xclient.message_type = display.atom(name)
        ev.xclient.format = 32
        ev.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
        XDisplay.errorCode.store(0, ordering: .relaxed)
        // A source that died makes this a BadWindow, which the error handler records.
        XSendEvent(display.raw, target, 0, 0, &ev)
    }

    private func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
