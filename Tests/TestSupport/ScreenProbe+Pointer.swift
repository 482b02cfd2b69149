import CX11
import Foundation

extension ScreenProbe {
    /// The pointer the X server shows now, as XFixes reports it: its name on the server
    /// (empty for an unnamed one) and whether any of its pixels can be seen.
    public struct Pointer: Equatable, CustomStringConvertible {
        public let name: String
        public let visible: Bool
        public var description: String { "\(name.isEmpty ? "(unnamed)" : name)\(visible ? "" : ", invisible")" }
    }

    /// The pointer on screen now; nil when the server has no XFixes.
    public var pointer: Pointer? {
        guard let image = XFixesGetCursorImage(display) else { return nil }
        defer { XFree(image) }
        let c = image.pointee
        let name = c.name.map { String(cString: $0) } ?? ""
        let count = Int(c.width) * Int(c.height)
        // Each pixel is ARGB in an unsigned long; the alpha says whether it shows.
        let visible = (0..<count).contains { (c.pixels[$0] >> 24) & 0xFF != 0 }
        return Pointer(name: name, visible: visible)
    }

    /// Waits until the pointer satisfies `condition`; the last one seen, and whether it did.
    public func waitForPointer(timeout: Double = 10, _ condition: (Pointer) -> Bool) -> (ok: Bool, last: Pointer?) {
        let end = Date().addingTimeInterval(timeout)
        var last: Pointer?
        repeat {
            last = pointer
            if let p = last, condition(p) { return (true, p) }
            usleep(20_000)
        } while Date() < end
        return (false, last)
    }
}
