import Glibc
import Playback
import Windowing

/// Fonts are costly to open; one renderer per family, size and weight for the process.
@MainActor
final class FontCache {
    static let shared = FontCache()
    private var fonts: [String: FontRenderer?] = [:]

    func font(family: String?, size: Int, bold: Bool = false) -> FontRenderer? {
        let key = "\(family ?? "sans-serif")|\(size)|\(bold)"
        if let f = fonts[key] { return f }
        let f = try? FontRenderer(family: family ?? "sans-serif", pixelSize: size, bold: bold)
        fonts[key] = f
        return f
    }
}
