import CX11
import Foundation

/// Reads pixels back from the X server, as a person would see them.
public final class ScreenProbe {
    let display: OpaquePointer

    public init() throws {
        let name = try TestEnvironment.display
        guard let d = XOpenDisplay(name) else { throw FixtureError("cannot open display \(name)") }
        display = d
    }

    deinit { XCloseDisplay(display) }

    /// The root window's size.
    public var screenSize: (width: Int, height: Int) {
        let s = cx11_default_screen(display)
        return (Int(cx11_display_width(display, s)), Int(cx11_display_height(display, s)))
    }

    /// Pixels (0xRRGGBB) of a rectangle of the screen (root window), row by row.
    public func grab(x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) -> Image {
        let s = screenSize
        let w = width ?? s.width, h = height ?? s.height
        return grab(window: cx11_root_window(display, cx11_default_screen(display)), x: x, y: y, width: w, height: h)
    }

    /// Pixels of a rectangle of one window.
    public func grab(window: UInt, x: Int, y: Int, width w: Int, height h: Int) -> Image {
        XSync(display, 0)
        // A window that is being unmapped or moved off screen makes XGetImage fail with
        // BadMatch, and Xlib's default handler would end the whole test process: for the
        // grab, an error is an empty picture, which the waits look at again.
        let previous = XSetErrorHandler { _, _ in 0 }
        let grabbed = XGetImage(display, window, Int32(x), Int32(y), UInt32(w), UInt32(h), cx11_all_planes, ZPixmap)
        XSync(display, 0)
        XSetErrorHandler(previous)
        guard let img = grabbed else {
            return Image(width: 0, height: 0, pixels: [])
        }
        defer { _ = cx11_destroy_image(img) }
        var px = [UInt32](repeating: 0, count: w * h)
        for yy in 0..<h {
            for xx in 0..<w { px[yy * w + xx] = UInt32(truncatingIfNeeded: cx11_get_pixel(img, Int32(xx), Int32(yy))) & 0xFFFFFF }
        }
        return Image(width: w, height: h, pixels: px)
    }

    /// Top-level windows whose WM_CLASS is `className`, by walking the tree; with `pid`, only
    /// those whose `_NET_WM_PID` names that process, so that a window left by an earlier
    /// test's program (still closing, under load) is never taken for this test's.
    public func windows(className: String, pid: Int32? = nil) -> [UInt] {
        var found: [UInt] = []
        func visit(_ w: UInt) {
            var hint = XClassHint()
            if XGetClassHint(display, w, &hint) != 0 {
                if let c = hint.res_class, String(cString: c) == className, pid == nil || processID(of: w) == pid {
                    found.append(w)
                }
                if let n = hint.res_name { XFree(n) }
                if let c = hint.res_class { XFree(c) }
            }
            var root: UInt = 0, parent: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var n: UInt32 = 0
            guard XQueryTree(display, w, &root, &parent, &children, &n) != 0, let children else { return }
            for i in 0..<Int(n) { visit(children[i]) }
            XFree(children)
        }
        visit(cx11_root_window(display, cx11_default_screen(display)))
        return found
    }

    /// The process a window says it belongs to (`_NET_WM_PID`), or nil when it says none.
    public func processID(of window: UInt) -> Int32? {
        var type: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let atom = XInternAtom(display, "_NET_WM_PID", 0)
        guard XGetWindowProperty(display, window, atom, 0, 1, 0, XA_CARDINAL, &type, &format, &count, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 32, count == 1 else { return nil }
        return data.withMemoryRebound(to: UInt.self, capacity: 1) { Int32(truncatingIfNeeded: $0.pointee) }
    }

    /// A window's geometry relative to the root.
    public func geometry(of window: UInt) -> (x: Int, y: Int, width: Int, height: Int)? {
        var attrs = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attrs) != 0 else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(display, window, attrs.root, 0, 0, &x, &y, &child)
        return (Int(x), Int(y), Int(attrs.width), Int(attrs.height))
    }

    /// Whether a window is mapped and all its ancestors are: on screen for a person, and
    /// on a task bar. A window found by class may still be unmapped while its program
    /// sets it up.
    public func isViewable(_ window: UInt) -> Bool {
        var attrs = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attrs) != 0 else { return false }
        return attrs.map_state == IsViewable
    }

    /// Tells every client watching the root window that the screen is now `width` x
    /// `height`, the ConfigureNotify a RandR resize or rotation sends (Xvfb cannot turn its
    /// screen, so the tests send the event itself).
    public func announceScreenSize(width: Int, height: Int) {
        let root = cx11_root_window(display, cx11_default_screen(display))
        var ev = XEvent()
        ev.xconfigure.type = ConfigureNotify
        ev.xconfigure.event = root
        ev.xconfigure.window = root
        ev.xconfigure.width = Int32(width)
        ev.xconfigure.height = Int32(height)
        XSendEvent(display, root, 0, Int(StructureNotifyMask), &ev)
        XSync(display, 0)
    }

    /// Waits until `condition` holds for a fresh grab, up to `timeout` seconds.
    public func waitFor(timeout: Double = 10, _ condition: (Image) -> Bool) -> Image? {
        let start = Date()
        repeat {
            let img = grab()
            if condition(img) { return img }
            usleep(50_000)
        } while Date().timeIntervalSince(start) < timeout
        return nil
    }
}

/// A grabbed rectangle of pixels.
public struct Image: Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    public func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

    /// Whether a pixel is within `tolerance` per channel of `rgb`.
    public func matches(_ x: Int, _ y: Int, _ rgb: UInt32, tolerance: Int = 24) -> Bool {
        Image.close(pixel(x, y), rgb, tolerance: tolerance)
    }

    public static func close(_ a: UInt32, _ b: UInt32, tolerance: Int) -> Bool {
        for shift in [16, 8, 0] {
            let ca = Int((a >> UInt32(shift)) & 0xFF), cb = Int((b >> UInt32(shift)) & 0xFF)
            if abs(ca - cb) > tolerance { return false }
        }
        return true
    }

    /// Share of pixels in a rectangle that match `rgb`.
    public func fraction(matching rgb: UInt32, x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil,
                         tolerance: Int = 24) -> Double {
        let w = w ?? width, h = h ?? height
        guard w > 0, h > 0 else { return 0 }
        var n = 0
        for yy in y..<(y + h) { for xx in x..<(x + w) where Image.close(pixel(xx, yy), rgb, tolerance: tolerance) { n += 1 } }
        return Double(n) / Double(w * h)
    }
}

/// The display's colour profile as a colour daemon publishes it.
extension ScreenProbe {
    /// Sets `_ICC_PROFILE` on the root window to `icc`, or removes it when nil (a test
    /// that sets it must remove it: the screen is shared by the tests that follow).
    public func setDisplayProfile(_ icc: [UInt8]?) {
        let root = cx11_root_window(display, cx11_default_screen(display))
        let atom = XInternAtom(display, "_ICC_PROFILE", 0)
        if let icc {
            icc.withUnsafeBufferPointer { b in
                _ = XChangeProperty(display, root, atom, XA_CARDINAL, 8, PropModeReplace, b.baseAddress, Int32(b.count))
            }
        } else {
            XDeleteProperty(display, root, atom)
        }
        XSync(display, 0)
    }
}
