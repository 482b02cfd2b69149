import CX11
import Foundation

/// A small XDND (version 5) drag source, as a file manager or browser is one: it owns the
/// `XdndSelection`, sends Enter, Position and Drop to a window, and serves the data when the
/// target asks for it.
public final class XdndSource {
    let display: OpaquePointer
    let window: UInt
    /// Whether the target answered our position with "accepted".
    public private(set) var accepted = false
    /// What the target's XdndFinished said: nil until it came.
    public private(set) var finished: Bool?

    public init() throws {
        let name = try TestEnvironment.display
        guard let d = XOpenDisplay(name) else { throw FixtureError("cannot open display \(name)") }
        display = d
        window = XCreateSimpleWindow(d, cx11_root_window(d, cx11_default_screen(d)), 0, 0, 1, 1, 0, 0, 0)
        XSync(d, 0)
    }

    deinit { close() }

    private var closed = false
    /// Disconnects, as a source that dies does: its window and selection go with it.
    public func close() {
        guard !closed else { return }
        closed = true
        XCloseDisplay(display)
    }

    private func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// Drags `data` of `type` onto `target` with `action` and drops it. With `serve` false it
    /// sends nothing after the drop: it goes away as a crashed source does, or with `hang`
    /// stays connected and never answers, as a hung one does. Returns
    /// once the target said it finished (or `timeout` passed).
    public func drop(_ data: Data, type: String = "text/uri-list", action: String = "XdndActionCopy",
                     onto target: UInt, serve: Bool = true, hang: Bool = false, timeout: Double = 10) {
        payload = data
        XSetSelectionOwner(display, atom("XdndSelection"), window, UInt(CurrentTime))
        send(target, "XdndEnter", [Int(window), 5 << 24, Int(atom(type)), 0, 0])
        send(target, "XdndPosition", [Int(window), 0, (10 << 16) | 10, Int(CurrentTime), Int(atom(action))])
        guard wait(timeout: timeout, until: { [self] in accepted }) else { return }
        send(target, "XdndDrop", [Int(window), 0, Int(CurrentTime), 0, 0])
        if !serve {
            if !hang { close() }
            return
        }
        _ = wait(timeout: timeout) { [self] in finished != nil }
    }

    private func send(_ target: UInt, _ name: String, _ values: [Int]) {
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = target
        ev.xclient.message_type = atom(name)
        ev.xclient.format = 32
        ev.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
        XSendEvent(display, target, 0, 0, &ev)
        XFlush(display)
    }

    /// The data to serve once the drop was sent.
    private var payload = Data()

    /// Handles our events until `condition` holds.
    private func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        var ev = XEvent()
        while !condition() {
            if Date() > end { return false }
            guard XPending(display) > 0 else { usleep(5_000); continue }
            XNextEvent(display, &ev)
            switch ev.type {
            case ClientMessage where ev.xclient.message_type == atom("XdndStatus"):
                accepted = ev.xclient.data.l.1 & 1 != 0
                if !accepted { return false }
            case ClientMessage where ev.xclient.message_type == atom("XdndFinished"):
                finished = ev.xclient.data.l.1 & 1 != 0
            case SelectionRequest:
                answer(ev.xselectionrequest)
            default:
                break
            }
        }
        return true
    }

    private func answer(_ r: XSelectionRequestEvent) {
        _ = payload.withUnsafeBytes { b in
            XChangeProperty(display, r.requestor, r.property, r.target, 8, PropModeReplace,
                            b.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(b.count))
        }
        var ev = XEvent()
        ev.xselection.type = SelectionNotify
        ev.xselection.requestor = r.requestor
        ev.xselection.selection = r.selection
        ev.xselection.target = r.target
        ev.xselection.property = r.property
        ev.xselection.time = r.time
        XSendEvent(display, r.requestor, 0, 0, &ev)
        XFlush(display)
    }
}
