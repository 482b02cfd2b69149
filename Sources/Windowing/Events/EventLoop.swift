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
    // the pipe's write end (a file descriptor, written with a syscall). Everything else is
    // used from the thread that runs the loop.
    let display: XDisplay
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var windows: [UInt: (window: XWindow, surface: Surface?)] = [:]
    private var repeats: KeyRepeatFilter
    /// Descriptors the app added, with what to do when they can be read.
    private(set) var watched: [Int32: () -> Void] = [:]
    /// The main dispatch queue's wake-up descriptor, when this loop runs that queue's work.
    private let mainQueue: MainQueuePort?

    public init(display: XDisplay) throws(XError) {
        self.display = display
        repeats = KeyRepeatFilter(display: display)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw XError("cannot create the wake pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        mainQueue = MainQueuePort.forThisThread()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Makes the loop look again; safe from any thread (decoders call it for new frames).
    /// It carries no work: what runs on the main thread goes through the main dispatch queue.
    public func wake() {
        var b: UInt8 = 1
        _ = Glibc.write(wakeWrite, &b, 1)
    }

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
        if XPending(display.raw) > 0 { return }
        var fds = [pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if let q = mainQueue { fds.append(pollfd(fd: q.descriptor, events: Int16(POLLIN), revents: 0)) }
        let extra = Array(watched.keys)
        for fd in extra { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ms: Int32 = timeout.map { Int32(max(0, min(3_600_000, ($0 * 1000).rounded(.up)))) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), ms)
        if fds[1].revents != 0 { drainWakePipe() }
        let firstExtra = mainQueue == nil ? 2 : 3
        for (i, fd) in extra.enumerated() where fds[firstExtra + i].revents != 0 {
            watched[fd]?()
        }
        mainQueue?.run()
    }

    /// Empties the wake pipe; a wake only says "look again", however many came.
    func drainWakePipe() {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buf, buf.count) > 0 {}
    }

    /// The descriptors the loop sleeps on besides the app's: the X connection and the wake
    /// pipe.
    var coreDescriptors: (x: Int32, wake: Int32) { (display.fileDescriptor, wakeRead) }

    /// Whether Xlib already holds events read off the connection, which poll cannot see.
    var hasQueuedEvents: Bool { XEventsQueued(display.raw, QueuedAlready) > 0 }

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
            return (ev.xfocus.window, .focus(isIn: type == FocusIn, window: ev.xfocus.window))
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
