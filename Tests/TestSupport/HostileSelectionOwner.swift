import CX11
import Foundation

/// A selection owner that misbehaves as a broken or hostile program does: it takes a
/// selection (the CLIPBOARD) and then either never answers a request, or answers with an
/// incremental (INCR) transfer and sends one byte at a time, slowly, for as long as it is
/// allowed to. It runs on a thread of its own with its own X connection, bounded in time and
/// in bytes, and is stopped by `stop()` (or when it is let go).
public final class HostileSelectionOwner: @unchecked Sendable {
    // @unchecked: the display and window are used only by the owner's thread after `init`
    // hands them over; `stopped` and `sent` are guarded by `lock`.
    /// How it answers a program that asks for the selection's data.
    public enum Behaviour: Sendable {
        /// Never: the request goes unanswered, as with a hung program.
        case silent
        /// INCR, then one byte each `every` seconds, never the empty chunk that ends it.
        case trickle(every: Double)
    }

    private let display: OpaquePointer
    private let window: UInt
    private let behaviour: Behaviour
    private let lifetime: Double
    private let lock = NSCondition()
    private var stopped = false
    private var finished = false
    private var sentBytes = 0
    /// The most bytes a trickle sends, whatever its lifetime.
    public static let mostBytes = 10_000

    /// Takes `selection` and starts misbehaving; gives up by itself after `lifetime` seconds.
    public init(selection: String = "CLIPBOARD", behaviour: Behaviour, lifetime: Double = 60) throws {
        let name = try TestEnvironment.display
        guard let d = XOpenDisplay(name) else { throw FixtureError("cannot open display \(name)") }
        display = d
        window = XCreateSimpleWindow(d, cx11_root_window(d, cx11_default_screen(d)), 0, 0, 1, 1, 0, 0, 0)
        self.behaviour = behaviour
        self.lifetime = lifetime
        XSetSelectionOwner(d, XInternAtom(d, selection, 0), window, UInt(CurrentTime))
        XSync(d, 0)
        guard XGetSelectionOwner(d, XInternAtom(d, selection, 0)) == window else {
            XCloseDisplay(d)
            throw FixtureError("could not take the \(selection) selection")
        }
        Thread.detachNewThread { [self] in run() }
    }

    deinit { stop() }

    /// Bytes sent so far in trickles.
    public var sent: Int { lock.lock(); defer { lock.unlock() }; return sentBytes }

    /// Stops misbehaving and disconnects (the selection goes with the connection).
    public func stop() {
        lock.lock()
        stopped = true
        while !finished { _ = lock.wait(until: Date().addingTimeInterval(1)) }
        lock.unlock()
    }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// One incremental transfer being trickled: where to, and when the reader last took a chunk.
    private struct Trickle {
        let requestor: UInt
        let property: Atom
        let type: Atom
        var takenAt: Date?
    }

    private func run() {
        let end = Date().addingTimeInterval(lifetime)
        var trickle: Trickle?
        var ev = XEvent()
        while !isStopped && Date() < end && sent < Self.mostBytes {
            if XPending(display) > 0 {
                XNextEvent(display, &ev)
                if ev.type == SelectionRequest { trickle = answer(ev.xselectionrequest) ?? trickle }
                if ev.type == PropertyNotify, let t = trickle, ev.xproperty.window == t.requestor,
                   ev.xproperty.atom == t.property, ev.xproperty.state == PropertyDelete {
                    trickle?.takenAt = Date()
                }
                continue
            }
            if case .trickle(let every) = behaviour, let t = trickle, let taken = t.takenAt,
               Date().timeIntervalSince(taken) >= every {
                var byte: UInt8 = UInt8(ascii: "a")
                XChangeProperty(display, t.requestor, t.property, t.type, 8, PropModeReplace, &byte, 1)
                XFlush(display)
                trickle?.takenAt = nil
                lock.lock(); sentBytes += 1; lock.unlock()
            }
            usleep(5_000)
        }
        XCloseDisplay(display)
        lock.lock()
        finished = true
        lock.broadcast()
        lock.unlock()
    }

    /// Answers a request as the behaviour says: nothing, or the start of an INCR transfer.
    private func answer(_ r: XSelectionRequestEvent) -> Trickle? {
        guard case .trickle = behaviour else { return nil }
        XSelectInput(display, r.requestor, PropertyChangeMask)
        var size: Int = 1 << 20
        XChangeProperty(display, r.requestor, r.property, XInternAtom(display, "INCR", 0), 32, PropModeReplace,
                        withUnsafeBytes(of: &size) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
        var ev = XEvent()
        ev.xselection.type = SelectionNotify
        ev.xselection.requestor = r.requestor
        ev.xselection.selection = r.selection
        ev.xselection.target = r.target
        ev.xselection.property = r.property
        ev.xselection.time = r.time
        XSendEvent(display, r.requestor, 0, 0, &ev)
        XFlush(display)
        return Trickle(requestor: r.requestor, property: r.property, type: r.target, takenAt: nil)
    }
}
