import CX11
import Dispatch
import FoundationEssentials
import Glibc

/// Owns one X11 top-level (or embedded) window and its window-manager properties.
public final class XWindow {
    /// The connection; held strongly so the window never outlives it.
    public let display: XDisplay
    public let id: UInt
    public private(set) var x: Int
    public private(set) var y: Int
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var isMapped = false
    /// Whether the window is (asked to be) fullscreen.
    public var isFullscreen: Bool { managerRequests.fullscreen }
    /// What the window has asked of a window manager, kept to be asked again of one that
    /// starts later.
    var managerRequests = ManagerRequests()
    /// The input context, made with the display's input method at the first key press.
    private var madeInputContext: XIC??
    /// The foreign window this one lives in (`--wid`), nil for a top-level window.
    public let parent: UInt?
    /// Inside its parent now (false while detached to show fullscreen).
    public var isEmbedded: Bool { parent != nil && !isDetached }
    /// An embedded window that was lifted out to the screen.
    public private(set) var isDetached = false
    /// Takes drops from file managers and browsers, once `acceptDrops()` was called.
    private(set) var dropTarget: DropTarget?
    /// Reads the clipboard for pastes, made on the first one.
    private(set) var clipboardReader: ClipboardReader?
    /// Serves what was copied, made on the first copy.
    private(set) var clipboardOwner: ClipboardOwner?
    /// The other window that held the keyboard focus last (nil: none), to give it back to.
    var focusBefore: UInt?
    /// The pointer shape last set over the window, so an unchanged one costs no request.
    var pointerShape = PointerShape.standard

    /// Creates a window at the given geometry; `parent` embeds it into a foreign window.
    public init(display: XDisplay, x: Int, y: Int, width: Int, height: Int, parent: UInt? = nil,
                className: String = "mediaview") throws(XError) {
        self.display = display
        self.x = x; self.y = y
        self.width = max(1, width); self.height = max(1, height)
        self.parent = parent
        let d = display.raw
        var attrs = XSetWindowAttributes()
        attrs.background_pixel = 0
        attrs.border_pixel = 0
        attrs.bit_gravity = Int32(NorthWestGravity)
        attrs.event_mask = Int(ExposureMask | KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask
                               | PointerMotionMask | StructureNotifyMask | FocusChangeMask | EnterWindowMask
                               | LeaveWindowMask | VisibilityChangeMask | KeymapStateMask)
        let mask = UInt(CWBackPixel | CWBorderPixel | CWBitGravity | CWEventMask)
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let w = XCreateWindow(d, parent ?? display.root, Int32(x), Int32(y), UInt32(self.width), UInt32(self.height), 0,
                              display.depth, UInt32(InputOutput), display.visual, mask, &attrs)
        XSync(d, 0)
        if w == 0 || XDisplay.errorCode.load(ordering: .relaxed) != 0 {
            throw XError(parent != nil ? "cannot embed into window \(parent!): no such window" : "cannot create a window")
        }
        id = w
        setClass(className)
        var proto = display.atom("WM_DELETE_WINDOW")
        XSetWMProtocols(d, w, &proto, 1)
        var pid = UInt(getpid())
        XChangeProperty(d, w, display.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace,
                        withUnsafeBytes(of: &pid) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
    }

    deinit {
        if case let ic?? = madeInputContext { XDestroyIC(ic) }
        XDestroyWindow(display.raw, id)
        XFlush(display.raw)
    }

    /// The context that turns this window's key presses into text; nil where the locale
    /// has no input method (keys then give Latin-1 text).
    var inputContext: XIC? {
        if let made = madeInputContext { return made }
        let ic = display.inputMethod.flatMap { cx11_create_ic($0, id) }
        madeInputContext = .some(ic)
        return ic
    }

    private func setClass(_ name: String) {
        guard let hint = XAllocClassHint() else { return }
        name.withCString { n in
            hint.pointee.res_name = UnsafeMutablePointer(mutating: n)
            hint.pointee.res_class = UnsafeMutablePointer(mutating: n)
            XSetClassHint(display.raw, id, hint)
        }
        XFree(hint)
    }

    /// Sets the title as UTF-8 (`_NET_WM_NAME`) and as the legacy `WM_NAME`.
    public func setTitle(_ title: String) {
        let bytes = Array(title.utf8)
        XChangeProperty(display.raw, id, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8,
                        PropModeReplace, bytes, Int32(bytes.count))
        XStoreName(display.raw, id, title)
    }

    public func map() {
        noteFocusElsewhere()
        XMapRaised(display.raw, id)
        isMapped = true
        XFlush(display.raw)
    }

    public func unmap() {
        XUnmapWindow(display.raw, id)
        isMapped = false
        XFlush(display.raw)
    }

    /// Moves and resizes; the new size is also what the surface uses from now on.
    public func setGeometry(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y
        self.width = max(1, width); self.height = max(1, height)
        XMoveResizeWindow(display.raw, id, Int32(x), Int32(y), UInt32(self.width), UInt32(self.height))
        XFlush(display.raw)
    }

    /// Records a size the server reported (ConfigureNotify).
    func noteConfigured(x: Int?, y: Int?, width: Int, height: Int) {
        if let x { self.x = x }
        if let y { self.y = y }
        self.width = max(1, width); self.height = max(1, height)
    }

    /// Asks for fullscreen: through EWMH when a window manager runs, else by covering the
    /// screen ourselves.
    public func setFullscreen(_ on: Bool, restore: (x: Int, y: Int, width: Int, height: Int)? = nil) {
        managerRequests.fullscreen = on
        guard !isEmbedded else { return }
        if display.hasWindowManager {
            if isMapped {
                sendState(on ? 1 : 0, "_NET_WM_STATE_FULLSCREEN")
            } else {
                var atom = display.atom("_NET_WM_STATE_FULLSCREEN")
                XChangeProperty(display.raw, id, display.atom("_NET_WM_STATE"), XA_ATOM, 32, PropModeReplace,
                                withUnsafeBytes(of: &atom) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) },
                                on ? 1 : 0)
            }
            if on {
                let m = monitor
                noteConfigured(x: m.x, y: m.y, width: m.width, height: m.height)
            }
        } else if on {
            // No window manager: cover the monitor the window is on ourselves.
            let m = monitor
            setGeometry(x: m.x, y: m.y, width: m.width, height: m.height)
        }
        if !on, let r = restore { setGeometry(x: r.x, y: r.y, width: r.width, height: r.height) }
    }

    /// Lifts an embedded window out of its parent onto the screen, where it stays at the
    /// same place until moved; override-redirect, so no window manager adds a frame to it.
    public func detach() {
        guard let parent, !isDetached else { return }
        var rx: Int32 = 0, ry: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(display.raw, parent, display.root, Int32(x), Int32(y), &rx, &ry, &child)
        var attrs = XSetWindowAttributes()
        attrs.override_redirect = 1
        XChangeWindowAttributes(display.raw, id, UInt(CWOverrideRedirect), &attrs)
        XReparentWindow(display.raw, id, display.root, rx, ry)
        x = Int(rx); y = Int(ry)
        isDetached = true
        XRaiseWindow(display.raw, id)
        XFlush(display.raw)
    }

    /// Puts a detached window back into its parent, filling it.
    public func reattach() {
        guard let parent, isDetached else { return }
        var attrs = XSetWindowAttributes()
        attrs.override_redirect = 0
        XChangeWindowAttributes(display.raw, id, UInt(CWOverrideRedirect), &attrs)
        XReparentWindow(display.raw, id, parent, 0, 0)
        isDetached = false
        let size = display.windowSize(parent) ?? (width, height)
        setGeometry(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// The monitor that holds the window's centre.
    public var monitor: Rect { display.monitor(containingX: x + width / 2, y: y + height / 2) }

    /// The window's rectangle in root coordinates.
    public var rootFrame: Rect {
        var rx: Int32 = 0, ry: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(display.raw, id, display.root, 0, 0, &rx, &ry, &child)
        return Rect(x: Int(rx), y: Int(ry), width: width, height: height)
    }

    /// Turns the window into a floating thumbnail (always on top, undecorated, out of the
    /// task bar and pager) or back into an ordinary one.
    public func setFloating(_ on: Bool, decorated: Bool = true) {
        guard !isEmbedded else { return }
        setDecorated(on ? false : decorated)
        managerRequests.floating = on
        if display.hasWindowManager {
            if on && isFullscreen { sendState(0, "_NET_WM_STATE_FULLSCREEN") }
            sendState(on ? 1 : 0, "_NET_WM_STATE_ABOVE")
            sendState(on ? 1 : 0, "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER")
        }
        if on { managerRequests.fullscreen = false }
        XRaiseWindow(display.raw, id)
        XFlush(display.raw)
    }

    /// Motif hints: the de-facto way to ask a window manager for no title bar or borders.
    public func setDecorated(_ on: Bool) {
        var hints = cx11_motif_hints()
        hints.flags = 2 // MWM_HINTS_DECORATIONS
        hints.decorations = on ? 1 : 0
        let atom = display.atom("_MOTIF_WM_HINTS")
        _ = withUnsafeBytes(of: &hints) { raw in
            XChangeProperty(display.raw, id, atom, atom, 32, PropModeReplace,
                            raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 5)
        }
    }

    /// Keeps a floating window above others where no window manager does it.
    public func raise() {
        XRaiseWindow(display.raw, id)
    }

    /// Sends a `_NET_WM_STATE` change (1 add, 0 remove) to the window manager.
    func sendState(_ action: Int, _ first: String, _ second: String? = nil) {
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = id
        ev.xclient.message_type = display.atom("_NET_WM_STATE")
        ev.xclient.format = 32
        ev.xclient.data.l.0 = action
        ev.xclient.data.l.1 = Int(display.atom(first))
        ev.xclient.data.l.2 = second.map { Int(display.atom($0)) } ?? 0
        ev.xclient.data.l.3 = 1
        XSendEvent(display.raw, display.root, 0, Int(SubstructureRedirectMask | SubstructureNotifyMask), &ev)
        XFlush(display.raw)
    }

    /// Whether `WM_DELETE_WINDOW` is what a client message says.
    func isDeleteRequest(_ ev: XClientMessageEvent) -> Bool {
        UInt(ev.data.l.0) == display.atom("WM_DELETE_WINDOW")
    }

    /// Makes the window an XDND drop target: dropped files and links then arrive as
    /// `.dropped` events.
    public func acceptDrops() {
        if dropTarget == nil { dropTarget = DropTarget(display: display, window: id) }
    }

    /// Seconds from now until a drop or paste whose source went silent is to be given up;
    /// the loop must look then. Relative, as every deadline the loop sleeps on: a still on
    /// screen wakes the loop for nothing else.
    public var transferDeadline: Double? {
        let now = SelectionReader.now()
        return [dropTarget?.deadline, clipboardReader?.deadline].compactMap { $0 }.min().map { max(0, $0 - now) }
    }

    /// Reads the clipboard's paths, links or text; they arrive as a `.pasted` event (or
    /// `.pasteFailed`). Returns why not at once when the clipboard is empty.
    public func paste() -> String? {
        if clipboardReader == nil { clipboardReader = ClipboardReader(display: display, window: id) }
        return clipboardReader?.paste(time: UInt(CurrentTime))
    }

    /// Puts a picture (PNG bytes; empty for none) and text on the clipboard, served from this
    /// window until another program takes it; with `fileURI` (a `file://` URI) also as a
    /// file a file manager pastes (`text/uri-list`, `x-special/gnome-copied-files`). False
    /// when the server did not give it to us.
    public func offerClipboard(png: [UInt8], text: String, fileURI: String? = nil) -> Bool {
        if clipboardOwner == nil { clipboardOwner = ClipboardOwner(display: display, window: id) }
        return clipboardOwner?.offer(png: png, text: text, fileURI: fileURI) ?? false
    }

    /// Gives the window the keyboard focus (needed with no window manager).
    public func focus() {
        XSetInputFocus(display.raw, id, RevertToParent, UInt(CurrentTime))
        XFlush(display.raw)
    }

    /// Asks for the keyboard focus back for a window shown again, so the keys typed next
    /// reach it. A window manager decides (`_NET_ACTIVE_WINDOW` as the application's
    /// request, with `time`, the server time of the user's last key or click, so its
    /// focus-stealing rules can judge it); with none, the focus is set directly. `time` 0
    /// means now.
    public func activate(time: UInt) {
        guard isMapped else { return }
        if display.hasWindowManager {
            var ev = XEvent()
            ev.xclient.type = ClientMessage
            ev.xclient.window = id
            ev.xclient.message_type = display.atom("_NET_ACTIVE_WINDOW")
            ev.xclient.format = 32
            ev.xclient.data.l.0 = 1
            ev.xclient.data.l.1 = Int(time)
            XSendEvent(display.raw, display.root, 0, Int(SubstructureRedirectMask | SubstructureNotifyMask), &ev)
        } else {
            // Mapped without a window manager means viewable, which XSetInputFocus needs.
            XSetInputFocus(display.raw, id, RevertToParent, time)
        }
        XFlush(display.raw)
    }
}
