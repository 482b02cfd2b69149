import CX11

/// The double-buffered drawing target of one window.
///
/// Draw into `begin()`'s buffer, then `present()`. Two buffers let the next frame be drawn
/// while the server still reads the last one; a buffer is reused only after its SHM
/// completion event came back.
public final class Surface {
    let window: XWindow
    private var buffers: [ImageBuffer] = []
    private var current = 0
    private let gc: GC
    /// Whether SHM is in use (false on a remote display or after a failed attach).
    public private(set) var usesShm = false
    /// Frames presented so far.
    public private(set) var presentedCount = 0
    /// For each buffer, where its last frame drew anything but black; nil when unknown.
    private var inked: [Rect?] = []
    /// Where the window shows anything but black, when known: the last frame's ink.
    private var shownInk: Rect?
    /// The ink of the frame being drawn, when its drawer keeps track.
    private var drawing: Ink?
    /// Frames presented by sending only the part that could have changed.
    public private(set) var partialPuts = 0
    /// Frames sent to the server, whole or in part.
    public private(set) var framesSent = 0
    /// Whether any frame sent so far drew anything but black. Until one does, the window
    /// shows its own black background, mapped, exposed or resized alike.
    private var everInked = false

    public init(window: XWindow) {
        self.window = window
        gc = XCreateGC(window.display.raw, window.id, 0, nil)
    }

    deinit {
        buffers.removeAll()
        XFreeGC(window.display.raw, gc)
    }

    /// A buffer of the window's current size that the server is not reading; its old
    /// content is whatever was drawn into it two presents ago.
    ///
    /// With `trackingInk`, the buffer says where that old content may be other than black
    /// (`earlierInk`) and collects where this frame draws (`ink`); whoever draws then
    /// leaves black only what is not black already, and `present()` sends only the part
    /// of the window that can have changed. Without it, the whole window is sent.
    public func begin(trackingInk: Bool = false) -> PixelBuffer? {
        let w = max(1, window.width), h = max(1, window.height)
        // A window that shrinks (a drag to the thumbnail) keeps its larger buffers and uses
        // a corner of them: no new SHM segments on every step of a gesture.
        if buffers.first.map({ $0.width < w || $0.height < h }) ?? true {
            reallocate(width: w, height: h)
        }
        if viewSize != (w, h) {
            // The old frames are of another size: nothing they drew says where ink is now.
            inked = inked.map { _ in nil }
            shownInk = nil
        }
        viewSize = (w, h)
        guard !buffers.isEmpty else { return nil }
        if buffers[current].inFlight {
            // Both buffers are with the server: wait until it is done with them.
            // The completion events still arrive later and are then ignored.
            window.display.sync()
            for b in buffers { b.inFlight = false }
        }
        var px = buffers[current].pixels
        px.width = w
        px.height = h
        let view = Rect(x: 0, y: 0, width: w, height: h)
        drawing = trackingInk ? Ink() : nil
        px.ink = drawing
        px.earlierInk = trackingInk ? (inked[current] ?? view) : view
        return px
    }

    /// The window's pixels were lost or never came (exposed, mapped): the next present
    /// sends all of it.
    public func invalidate() { shownInk = nil }

    /// The part of the buffers in use since the last `begin()`.
    private var viewSize = (width: 1, height: 1)

    /// Gives back memory when the window became much smaller than its buffers (after a
    /// gesture settled).
    public func compact() {
        guard let b = buffers.first else { return }
        if window.width * window.height * 4 < b.width * b.height { buffers.removeAll() }
    }

    /// Sends the buffer from the last `begin()` to the window and flips.
    public func present() {
        guard !buffers.isEmpty else { return }
        let ink = drawing?.bounds
        drawing = nil
        inked[current] = ink
        let view = Rect(x: 0, y: 0, width: viewSize.width, height: viewSize.height)
        if let ink, ink.isEmpty, !everInked {
            // Black on a window that has only ever been black (a launch waiting for its
            // first picture): the server would copy the whole window for nothing.
            shownInk = ink
            presentedCount += 1
            return
        }
        if ink?.isEmpty != true { everInked = true }
        if let ink, let shown = shownInk {
            // Outside both frames' ink the window is black and stays black.
            let changed = ink.union(shown).intersection(view)
            if !changed.isEmpty {
                buffers[current].put(to: window.id, gc: gc, x: changed.x, y: changed.y, dstX: changed.x, dstY: changed.y,
                                     width: changed.width, height: changed.height)
                framesSent += 1
            }
            partialPuts += 1
        } else {
            buffers[current].put(to: window.id, gc: gc, width: viewSize.width, height: viewSize.height)
            framesSent += 1
        }
        shownInk = ink
        window.display.flush()
        presentedCount += 1
        current = (current + 1) % buffers.count
    }

    /// Called by the event loop for an `XShmCompletionEvent`.
    func completed(segment: ShmSeg) {
        for b in buffers where b.shmSegment == segment { b.inFlight = false }
    }

    private func reallocate(width: Int, height: Int) {
        buffers.removeAll()
        let d = window.display
        for _ in 0..<2 {
            guard let b = ImageBuffer(display: d, width: width, height: height, shm: d.shmAvailable) else { break }
            buffers.append(b)
        }
        usesShm = buffers.first?.usesShm ?? false
        // Memory known black needs no blackening: at a launch that was every page of both
        // buffers faulted in and written on the main thread while the first picture decoded.
        inked = buffers.map { $0.startsBlack ? Rect.zero : nil }
        viewSize = (width, height)
        shownInk = nil
        current = 0
    }
}
