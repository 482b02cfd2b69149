import CX11
import Foundation

/// A plain window of a second X client, to prove that clicks beside the thumbnail reach
/// what is underneath.
public final class ProbeWindow {
    let display: OpaquePointer
    public let id: UInt

    public init(x: Int, y: Int, width: Int, height: Int) throws {
        let name = try TestEnvironment.display
        guard let d = XOpenDisplay(name) else { throw FixtureError("cannot open display \(name)") }
        display = d
        let s = cx11_default_screen(d)
        var attrs = XSetWindowAttributes()
        attrs.background_pixel = 0x336699
        attrs.event_mask = Int(ButtonPressMask | StructureNotifyMask)
        // Override-redirect so that a window manager puts it exactly where asked.
        attrs.override_redirect = 1
        id = XCreateWindow(d, cx11_root_window(d, s), Int32(x), Int32(y), UInt32(width), UInt32(height), 0,
                           cx11_default_depth(d, s), UInt32(InputOutput), cx11_default_visual(d, s),
                           UInt(CWBackPixel | CWEventMask | CWOverrideRedirect), &attrs)
        XMapWindow(d, id)
        XLowerWindow(d, id)
        XSync(d, 0)
    }

    deinit {
        XDestroyWindow(display, id)
        XCloseDisplay(display)
    }

    /// Button presses this window received so far, as (x, y) in its own coordinates.
    public func presses() -> [(x: Int, y: Int)] {
        var out: [(Int, Int)] = []
        var ev = XEvent()
        XSync(display, 0)
        while XPending(display) > 0 {
            XNextEvent(display, &ev)
            if ev.type == ButtonPress { out.append((Int(ev.xbutton.x), Int(ev.xbutton.y))) }
        }
        return out
    }
}
