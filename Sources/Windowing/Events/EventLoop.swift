import CX11
import Glibc

/// What one turn of a loop decided: sleep until a deadline (nil: until something happens),
/// or stop.
public enum LoopStep: Equatable, Sendable {
    case wait(Double?)
    case stop
}

/// The one wake-driven main loop: it sleeps in `poll` on the X connection, a wake pipe, the
/// app's own descriptors and the main dispatch queue, with the next deadline as the timeout.
/// No fixed-rate timer ever runs.
///
/// An app built on the viewer schedules its own work the usual ways (`DispatchQueue.main`,
/// `Task { @MainActor in }`, `Task.sleep`, dispatch timers); the loop runs that work between
/// its turns, so a timer fires on time while a video plays.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: only `wake()` is called from other threads, and it touches nothing but
    // the waker (a pipe, written with a syscall). Everything else is used from the thread
    // that runs the loop.
    let display: XDisplay
    /// What other threads hold to wake this loop (never the loop itself; see `LoopWaker`).
    public let waker: LoopWaker
    private var windows: [UInt: (window: XWindow, surface: Surface?)] = [:]
    private var repeats: KeyRepeatFilter
    /// Descriptors the app added, with what to do when they can be read.
    private(set) var watched: [Int32: () -> Void] = [:]
    /// The main dispatch queue's wake-up descriptor, when this loop runs that queue's work.
    private let mainQueue: MainQueuePort?

    public init(display: XDisplay) throws(XError) {
        self.display = display
        repeats = KeyRepeatFilter(display: display)
        waker = try LoopWaker()
        mainQueue = MainQueuePort.forThisThread()
    }

    /// Makes the loop look again; safe from any thread. A thread that keeps waking the loop
    /// holds `waker` instead, so it never holds the X connection.
    public func wake() { waker.wake() }

    /// Adds a descriptor to the loop: `onReadable` runs on the loop's thread whenever it can
    /// be read (a socket, a bus connection, a signal pipe). Watching it again replaces it.
    public func watch(_ fd: Int32, onReadable: @escaping () -> Void) {
        watched[fd] = onReadable
    }

    /// Takes a descriptor out of the loop (before the app closes it).
    public func unwatch(_ fd: Int32) {
        watched[fd] = nil
    }

    /// Registers a window so its events and SHM completions are routed.
    public func attach(_ window: XWindow, surface: Surface?) {
        windows[window.id] = (window, surface)
    }

    public func detach(_ window: XWindow) {
        windows[window.id] = nil
    }

    /// Sleeps until an X event, a wake, a watched descriptor, work on the main dispatch
    /// queue, or `timeout` seconds (nil: no limit); then runs the app's work that came due.
    public func wait(timeout: Double?) {
        mainQueue?.run()
        guard let sleep = sleep(timeout: timeout, servingMainQueue: true) else { return }
        handle(sleep.polled())
        mainQueue?.run()
    }

    /// What the next sleep waits on; nil when there is no need to sleep, as Xlib already
    /// holds events (asking also sends what was drawn to the server).
    func sleep(timeout: Double?, servingMainQueue: Bool) -> LoopSleep? {
        if XPending(display.raw) > 0 { return nil }
        return LoopSleep(x: display.fileDescriptor, wake: waker.readEnd,
                         mainQueue: servingMainQueue ? mainQueue?.descriptor : nil,
                         watched: Array(watched.keys), timeout: timeout)
    }

    /// Acts on what a sleep found: empties the wake pipe, runs the handlers of the app's
    /// descriptors that are ready (a descriptor unwatched meanwhile is skipped).
    func handle(_ sleep: LoopSleep) {
        if sleep.woke { waker.drain() }
        for fd in sleep.readyWatched { watched[fd]?() }
    }

    /// Takes every queued X event and returns the ones the viewer handles, by window.
    public func pendingEvents() -> [(window: UInt, event: WindowEvent)] {
        var out: [(UInt, WindowEvent)] = []
        var ev = XEvent()
        while XPending(display.raw) > 0 {
            XNextEvent(display.raw, &ev)
            if ev.type == KeymapNotify {
                repeats.keysDown(withUnsafeBytes(of: ev.xkeymap.key_vector) { Array($0) })
                continue
            }
            guard let e = translate(&ev) else { continue }
            if case .focus = e.1 { repeats.forgetHeldKeys() }
            out.append(e)
        }
        for (id, w) in windows {
            if let e = w.window.dropTarget?.expire() { out.append((id, e)) }
            if let e = w.window.clipboardReader?.expire() { out.append((id, e)) }
        }
        return out
    }

    private func translate(_ ev: inout XEvent) -> (UInt, WindowEvent)? {
        let type = ev.type
        if type == display.shmCompletionType {
            let c = withUnsafePointer(to: &ev) { $0.withMemoryRebound(to: XShmCompletionEvent.self, capacity: 1) { $0.pointee } }
            windows[c.drawable]?.surface?.completed(segment: c.shmseg)
            return nil
        }
        switch type {
        case KeyPress, KeyRelease:
            return (ev.xkey.window, .key(keyEvent(&ev)))
        case ButtonPress, ButtonRelease:
            let b = ev.xbutton
            return (b.window, .button(ButtonEvent(isPress: type == ButtonPress, button: b.button, x: Int(b.x), y: Int(b.y),
                                                  rootX: Int(b.x_root), rootY: Int(b.y_root), modifiers: b.state,
                                                  time: b.time)))
        case MotionNotify:
            // Only the newest position matters; older queued motion is skipped.
            var m = ev.xmotion
            while XCheckTypedWindowEvent(display.raw, m.window, MotionNotify, &ev) != 0 { m = ev.xmotion }
            return (m.window, .motion(x: Int(m.x), y: Int(m.y), rootX: Int(m.x_root), rootY: Int(m.y_root), state: m.state, time: m.time))
        case ConfigureNotify:
            let c = ev.xconfigure
            if c.window == display.root {
                display.noteScreenSize(width: Int(c.width), height: Int(c.height))
                return (c.window, .screenChanged(width: Int(c.width), height: Int(c.height)))
            }
            // Under a reparenting window manager a real ConfigureNotify has coordinates
            // relative to the frame; only synthetic ones (ICCCM 4.1.5) are root coordinates.
            let rootCoords = c.send_event != 0 || !display.hasWindowManager
            windows[c.window]?.window.noteConfigured(x: rootCoords ? Int(c.x) : nil, y: rootCoords ? Int(c.y) : nil,
                                                     width: Int(c.width), height: Int(c.height))
            return (c.window, .configured(x: Int(c.x), y: Int(c.y), width: Int(c.width), height: Int(c.height)))
        case Expose:
            return ev.xexpose.count == 0 ? (ev.xexpose.window, .exposed) : nil
        case ClientMessage, SelectionNotify, PropertyNotify, SelectionRequest, SelectionClear:
            return translateTransfer(&ev)
        case FocusIn, FocusOut:
            if type == FocusOut { windows[ev.xfocus.window]?.window.noteFocusElsewhere() }
            return (ev.xfocus.window, .focus(isIn: type == FocusIn, window: ev.xfocus.window))
        case DestroyNotify:
            if display.windowDestroyed(ev.xdestroywindow.window) {
                for (_, o) in windows { o.window.windowManagerChanged() }
            }
            return nil
        case MapNotify:
            return (ev.xmap.window, .mapped(true))
        case UnmapNotify:
            return (ev.xunmap.window, .mapped(false))
        case EnterNotify, LeaveNotify:
            return (ev.xcrossing.window, .pointerInside(type == EnterNotify))
        default:
            return nil
        }
    }

    /// The events of drops and the clipboard: the window's drop target, clipboard reader or
    /// owner takes each.
    private func translateTransfer(_ ev: inout XEvent) -> (UInt, WindowEvent)? {
        switch ev.type {
        case ClientMessage:
            let c = ev.xclient
            if let w = windows[c.window]?.window, w.isDeleteRequest(c) { return (c.window, .closeRequested) }
            if let answer = windows[c.window]?.window.dropTarget?.clientMessage(c) { return answer.map { (c.window, $0) } }
            return nil
        case SelectionNotify:
            let s = ev.xselection
            let w = windows[s.requestor]?.window
            return (w?.dropTarget?.selectionNotify(s) ?? w?.clipboardReader?.selectionNotify(s)).map { (s.requestor, $0) }
        case PropertyNotify:
            let p = ev.xproperty
            if p.window == display.root {
                if display.rootPropertyChanged(p.atom) {
                    for (_, o) in windows { o.window.windowManagerChanged() }
                }
                return nil
            }
            guard let w = windows[p.window]?.window else {
                // A reader's window: the next chunk of what we copied is due.
                for (_, o) in windows where o.window.clipboardOwner?.propertyNotify(p) == true { break }
                return nil
            }
            return (w.dropTarget?.propertyNotify(p) ?? w.clipboardReader?.propertyNotify(p)).map { (p.window, $0) }
        case SelectionRequest:
            windows[ev.xselectionrequest.owner]?.window.clipboardOwner?.selectionRequest(ev.xselectionrequest)
            return nil
        case SelectionClear:
            windows[ev.xselectionclear.window]?.window.clipboardOwner?.selectionClear(ev.xselectionclear)
            return nil
        default:
            return nil
        }
    }

    private func keyEvent(_ ev: inout XEvent) -> KeyEvent {
        let isPress = ev.type == KeyPress
        var keysym: KeySym = 0
        var text = ""
        var buf = [CChar](repeating: 0, count: 32)
        var status: Int32 = 0
        if isPress, let ic = windows[ev.xkey.window]?.window.inputContext {
            let n = Xutf8LookupString(ic, &ev.xkey, &buf, Int32(buf.count - 1), &keysym, &status)
            if n > 0 && (status == XLookupChars || status == XLookupBoth) {
                text = String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if status != XLookupKeySym && status != XLookupBoth { keysym = XLookupKeysym(&ev.xkey, 0) }
        } else {
            let n = XLookupString(&ev.xkey, &buf, Int32(buf.count - 1), &keysym, nil)
            if n > 0 { text = String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        // Text is what a key types, not control characters (Ctrl+A, Escape, Return).
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { text = "" }
        let k = ev.xkey
        let synthetic = k.send_event != 0
        let repeatFlag = repeats.isRepeat(press: isPress, code: k.keycode, time: k.time, window: k.window, synthetic: synthetic)
        return KeyEvent(isPress: isPress, keysym: keysym, name: KeyName.name(keysym: keysym, state: k.state),
                        text: text, modifiers: k.state, isAutoRepeat: repeatFlag, time: k.time, window: k.window,
                        isSynthetic: synthetic)
    }
}
