import CX11
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Owns the connection to the X server: screen facts, atoms, and the MIT-SHM check.
///
/// Xlib is used from the main thread only; other threads reach the loop through
/// `EventLoop.wake()`, never through Xlib.
public final class XDisplay {
    let raw: OpaquePointer
    let screen: Int32
    public let root: UInt
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    /// Whether shared-memory images can be used (local server with MIT-SHM).
    public private(set) var shmAvailable: Bool
    /// The first event number of the MIT-SHM extension, for completion events.
    let shmCompletionType: Int32
    /// The input method once a key press asked for it: `.some(nil)` when it could not be opened.
    private var openedInputMethod: XIM??
    private var atoms: [String: Atom] = [:]
    /// Pointer shapes made so far; the server frees them with the connection.
    var cursors: [PointerShape: Cursor] = [:]
    /// The desktop's interface scale, looked up once per connection, and its warning line
    /// until someone took it.
    var scaleDetectionStore: (scale: InterfaceScale, source: String, warning: String?)?

    /// Connects to `name` (nil: `$DISPLAY`). Throws with a message that names the display.
    public init(name: String? = nil, allowShm: Bool = true) throws(XError) {
        let shown = name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        if shown.isEmpty {
            throw XError("no X display: DISPLAY is not set (run it inside a graphical session, or under Xvfb)")
        }
        XDisplay.installErrorHandlers()
        setlocale(LC_CTYPE, "")
        guard let d = XOpenDisplay(name) else {
            throw XError("cannot open X display '\(shown)' (is an X server running there, and may we connect?)")
        }
        raw = d
        screen = cx11_default_screen(d)
        root = cx11_root_window(d, screen)
        visual = cx11_default_visual(d, screen)
        depth = cx11_default_depth(d, screen)
        var major: Int32 = 0, minor: Int32 = 0, pixmaps: Int32 = 0
        let hasShm = XShmQueryVersion(d, &major, &minor, &pixmaps) != 0
        shmAvailable = allowShm && hasShm && XDisplay.isLocal(shown)
        shmCompletionType = hasShm ? XShmGetEventBase(d) + ShmCompletion : -1
        watchRoot()
    }

    deinit {
        if case let im?? = openedInputMethod { XCloseIM(im) }
        XCloseDisplay(raw)
    }

    /// The input method that turns keys into layout-aware text, opened at the first key
    /// press: opening it reads the locale's whole compose table, which would hold up the
    /// first picture by several milliseconds for a keyboard not yet touched.
    var inputMethod: XIM? {
        if let opened = openedInputMethod { return opened }
        // "@im=none": we only want layout-aware text from keys, not an input method server.
        XSetLocaleModifiers("@im=none")
        let im = XOpenIM(raw, nil, nil, nil)
        openedInputMethod = .some(im)
        return im
    }

    /// The connection's file descriptor, for poll.
    var fileDescriptor: Int32 { cx11_connection_number(raw) }

    /// The whole screen's size in pixels: as the server said at connection, or as the last
    /// change of the root window said (RandR resizes and rotations).
    public var screenSize: (width: Int, height: Int) {
        changedScreenSize ?? (Int(cx11_display_width(raw, screen)), Int(cx11_display_height(raw, screen)))
    }

    private var changedScreenSize: (width: Int, height: Int)?
    /// The running window manager's check window, watched for its destruction.
    private var managerCheckWindow: UInt?

    /// Where the pointer is, in root coordinates.
    public var pointerPosition: (x: Int, y: Int) {
        var r: UInt = 0, c: UInt = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(raw, root, &r, &c, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry))
    }

    /// The monitor that holds the point (x, y): RandR 1.5's monitors where the server has
    /// them (each output, or what `xrandr --setmonitor` defined), else the whole screen.
    public func monitor(containingX x: Int, y: Int) -> Rect {
        let screen = Rect(x: 0, y: 0, width: screenSize.width, height: screenSize.height)
        var count: Int32 = 0
        guard let list = XRRGetMonitors(raw, root, 1, &count) else { return screen }
        defer { XRRFreeMonitors(list) }
        var best: Rect?
        for i in 0..<Int(count) {
            let m = list[i]
            let r = Rect(x: Int(m.x), y: Int(m.y), width: Int(m.width), height: Int(m.height))
            // A monitor reaching past the screen's latest size is stale (the screen was
            // turned or resized and RandR's list lags behind): the screen decides.
            guard r.maxX <= screen.maxX, r.maxY <= screen.maxY else { continue }
            if r.contains(x: x, y: y) { return r }
            if best == nil { best = r }
        }
        return best ?? screen
    }

    /// Every monitor's rectangle (RandR 1.5), or the whole screen where there are none:
    /// what names a monitor layout, so a thumbnail's place is remembered per layout.
    public var monitors: [Rect] {
        let screen = Rect(x: 0, y: 0, width: screenSize.width, height: screenSize.height)
        var count: Int32 = 0
        guard let list = XRRGetMonitors(raw, root, 1, &count), count > 0 else { return [screen] }
        defer { XRRFreeMonitors(list) }
        return (0..<Int(count)).map { Rect(x: Int(list[$0].x), y: Int(list[$0].y), width: Int(list[$0].width),
                                          height: Int(list[$0].height)) }
    }

    /// Records a new root window size from its ConfigureNotify.
    func noteScreenSize(width: Int, height: Int) {
        changedScreenSize = (max(1, width), max(1, height))
    }

    /// Asks for a foreign window's size changes (the host of an embedded view).
    public func watchStructure(of window: UInt) {
        XSelectInput(raw, window, Int(StructureNotifyMask))
    }

    /// Asks for the root window's structure events, so screen changes are seen, and its
    /// property changes, so a window manager that starts or quits later is seen.
    func watchRoot() {
        XSelectInput(raw, root, Int(StructureNotifyMask | PropertyChangeMask))
    }

    /// The size of any window on this display, nil when there is no such window.
    public func windowSize(_ window: UInt) -> (width: Int, height: Int)? {
        var attrs = XWindowAttributes()
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let ok = XGetWindowAttributes(raw, window, &attrs) != 0
        guard ok, XDisplay.errorCode.load(ordering: .relaxed) == 0 else { return nil }
        return (Int(attrs.width), Int(attrs.height))
    }

    /// Interns and caches an atom.
    func atom(_ name: String) -> Atom {
        if let a = atoms[name] { return a }
        let a = XInternAtom(raw, name, 0)
        atoms[name] = a
        return a
    }

    /// Whether an EWMH window manager is running (it sets `_NET_SUPPORTING_WM_CHECK`);
    /// looked up once, since it is asked on every configure event, and again whenever that
    /// root property changes: a manager a session script starts after the viewer, one that
    /// replaces another, or one that quits is followed rather than remembered wrong.
    public private(set) lazy var hasWindowManager: Bool = checkWindowManager()

    /// Takes note of a root window property change; true when it was the window manager
    /// arriving or leaving. A new colour profile is read when it is next asked for.
    func rootPropertyChanged(_ name: Atom) -> Bool {
        if name == atom("_ICC_PROFILE") {
            knownColourProfile = nil
            return false
        }
        guard name == atom("_NET_SUPPORTING_WM_CHECK") else { return false }
        return recheckWindowManager()
    }

    /// Takes note of a destroyed window; true when it was the window manager's check window,
    /// which is how a manager that quits without clearing the root's property is seen to go.
    func windowDestroyed(_ window: UInt) -> Bool {
        guard window == managerCheckWindow else { return false }
        managerCheckWindow = nil
        return recheckWindowManager()
    }

    private func recheckWindowManager() -> Bool {
        let was = hasWindowManager
        hasWindowManager = checkWindowManager()
        return hasWindowManager != was
    }

    /// The display's ICC colour profile, as colord or xiccd publish it on the root window
    /// (`_ICC_PROFILE`); nil when none is set. Read on first use and again after the
    /// property changes, so a calibration loaded while the viewer runs, or the profile of
    /// another monitor, is used for the pictures shown from then on.
    public var colourProfile: [UInt8]? {
        if let known = knownColourProfile { return known.bytes }
        let bytes = readColourProfile()
        knownColourProfile = KnownProfile(bytes: bytes)
        return bytes
    }
    /// The profile as last read; nil until it is read, and again once it changes.
    private var knownColourProfile: KnownProfile?

    private func checkWindowManager() -> Bool {
        guard let data = windowProperty(root, "_NET_SUPPORTING_WM_CHECK", type: XA_WINDOW), let w = data.first else {
            return false
        }
        // The check window must point at itself, or it is a stale property.
        guard windowProperty(w, "_NET_SUPPORTING_WM_CHECK", type: XA_WINDOW)?.first == w else { return false }
        if w != managerCheckWindow {
            managerCheckWindow = w
            XSelectInput(raw, w, Int(StructureNotifyMask))
        }
        return true
    }

    /// Reads a 32-bit-format property as an array of longs.
    func windowProperty(_ window: UInt, _ name: String, type: Atom) -> [UInt]? {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let r = XGetWindowProperty(raw, window, atom(name), 0, 64, 0, type, &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard r == Success, format == 32, let data, XDisplay.errorCode.load(ordering: .relaxed) == 0 else { return nil }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// Flushes and waits until the server has handled every request.
    public func sync() { XSync(raw, 0) }

    public func flush() { XFlush(raw) }

    /// A display is local when it names no host (":0", "unix:0"); only then can SHM work.
    static func isLocal(_ name: String) -> Bool {
        guard let colon = name.lastIndex(of: ":") else { return false }
        let host = name[..<colon]
        return host.isEmpty || host == "unix" || host.hasPrefix("/")
    }

    /// The last X protocol error code seen (0 when none); errors are recorded, not fatal,
    /// so that a failed SHM attach can fall back to XPutImage.
    static let errorCode = Atomic<UInt8>(0)
    private static let handlersInstalled = Atomic<Bool>(false)

    private static func installErrorHandlers() {
        if handlersInstalled.exchange(true, ordering: .relaxed) { return }
        XSetErrorHandler { _, event in
            if let e = event { XDisplay.errorCode.store(e.pointee.error_code, ordering: .relaxed) }
            return 0
        }
        XSetIOErrorHandler { _ in
            // Xlib exits after this returns; say why in one line and use the failure status.
            // Every thread that talks to the server meets the lost connection, often at once:
            // the first ends the process, the others wait for that. `_exit`, not `exit`: the
            // libraries' destructors run under the player's live threads crashed the viewer
            // (SIGABRT instead of status 1), and two threads in `exit` at once is undefined.
            guard !XDisplay.lostConnection.exchange(true, ordering: .relaxed) else {
                while true { pause() }
            }
            let line = "mediaview: lost the connection to the X display\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            fflush(nil)
            _exit(1)
        }
    }

    /// Set by the first thread to find the X connection gone.
    private static let lostConnection = Atomic<Bool>(false)
}
