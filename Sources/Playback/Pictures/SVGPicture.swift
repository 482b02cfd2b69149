import CFFmpeg
import CRSVG
import MediaCore

/// An SVG drawn by librsvg and cairo at the size it is shown, not at a fixed bitmap size:
/// the player's target size (the window, or a zoomed picture's size on screen) decides.
///
/// librsvg bounds what a document may make it do (its limits on loaded and referenced
/// elements and on nesting stop "billion laughs" and `<use>` bombs with an error); the
/// canvas it declares is checked against the pixel budget before anything is drawn, and
/// the drawing itself is never larger than `largestDrawing`.
final class SVGPicture: PictureSource {
    private let handle: OpaquePointer
    private let name: String
    private let colour: PictureColour
    let info: MediaInfo
    /// The size it is drawn at.
    private let drawWidth: Int
    private let drawHeight: Int
    private var done = false

    /// Pixels of the largest drawing: zoomed further, the picture is scaled up from this
    /// (about 6000x4000; 96 MiB of pixels).
    static let largestDrawing = 24_000_000
    /// Cairo's largest surface side.
    static let largestSide = 32_767

    init(bytes: [UInt8], name: String, maxPixels: Int, target: (width: Int, height: Int)?,
         colour: PictureColour) throws(AVError) {
        var error: UnsafeMutablePointer<mv_gerror>?
        guard let h = bytes.withUnsafeBufferPointer({ rsvg_handle_new_from_data($0.baseAddress, $0.count, &error) }) else {
            throw SVGPicture.failure(name, "not a valid SVG picture", &error)
        }
        handle = h
        self.name = name
        self.colour = colour
        let (w, hh) = SVGPicture.naturalSize(h)
        // The canvas it declares is what 1:1 shows: refused like any picture over the budget.
        guard w.isFinite, hh.isFinite, w > 0, hh > 0, w * hh <= Double(maxPixels) else {
            info = MediaInfo.picture(kind: .image, width: 0, height: 0, format: "svg", codec: nil)
            drawWidth = 0
            drawHeight = 0
            throw PictureSources.tooLarge(name, Int(min(w, 1e12)), Int(min(hh, 1e12)), maxPixels)
        }
        let iw = max(1, Int(w.rounded())), ih = max(1, Int(hh.rounded()))
        info = MediaInfo.picture(kind: .image, width: iw, height: ih, format: "svg", codec: "svg (librsvg)",
                                 isScalable: true)
        var scale = 1.0
        if let t = target, t.width > 0, t.height > 0 { scale = min(Double(t.width) / w, Double(t.height) / hh) }
        let limit = Double(min(maxPixels, SVGPicture.largestDrawing))
        scale = min(scale, (limit / (w * hh)).squareRoot())
        scale = min(scale, Double(SVGPicture.largestSide) / max(w, hh))
        drawWidth = max(1, Int((w * scale).rounded()))
        drawHeight = max(1, Int((hh * scale).rounded()))
        let work = SVGPicture.filterWork(bytes, scale: scale) * Double(drawWidth * drawHeight)
        guard work <= SVGPicture.mostFilterWork else {
            throw AVError(code: cff_averror_invaliddata,
                          message: "\(name): its filters would take too long to draw (about \(Int(work / 1e9)) billion steps)")
        }
    }

    /// Pixel steps all filters of a document may take to draw (a few seconds' work). Blurs
    /// and morphology cost in proportion to their radius, and librsvg draws them on the
    /// calling thread with no time limit: 20 large ones took 30 s. Bounded by reading the
    /// document's own numbers before drawing; a filter used by many elements is counted
    /// once, so this is a cheap bound, not a time limit.
    static let mostFilterWork = 8e9

    /// Steps per drawn pixel the filter primitives of `bytes` ask for, at `scale` pixels per
    /// user unit: each primitive a pass; a blur its box widths; morphology its window's area.
    static func filterWork(_ bytes: [UInt8], scale: Double) -> Double {
        let text = String(decoding: bytes, as: UTF8.self)
        var work = 0.0
        var rest = Substring(text)
        while let open = rest.firstRange(of: "<fe") {
            rest = rest[open.upperBound...]
            let tag = rest.prefix { $0 != ">" }
            let name = tag.prefix { $0.isLetter }
            let numbers = ["stdDeviation", "radius", "order"].compactMap { attribute($0, in: tag) }.first ?? []
            let largest = (numbers.map { abs($0) }.max() ?? 0) * (name == "ConvolveMatrix" ? 1 : scale)
            switch name {
            case "GaussianBlur": work += 1 + 6 * largest
            case "Morphology": work += 1 + (2 * largest + 1) * (2 * largest + 1)
            case "ConvolveMatrix": work += 1 + largest * largest
            default: work += 1
            }
        }
        return work
    }

    /// The numbers of attribute `name` in an element's text (`radius="4 8"`), if it is there.
    private static func attribute(_ name: String, in tag: Substring) -> [Double]? {
        guard let r = tag.firstRange(of: name + "=") else { return nil }
        let value = tag[r.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
        return value.split { $0 == " " || $0 == "," }.compactMap { Double($0) }.filter(\.isFinite)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The size the document states, in pixels; else its viewBox's; else a browser's 300x150.
    private static func naturalSize(_ h: OpaquePointer) -> (Double, Double) {
        var w = 0.0, hh = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh) != 0, w > 0, hh > 0 { return (w, hh) }
        var hasW: Int32 = 0, hasH: Int32 = 0, hasBox: Int32 = 0
        var lw = mv_rsvg_length(), lh = mv_rsvg_length()
        var box = mv_rsvg_rect()
        rsvg_handle_get_intrinsic_dimensions(h, &hasW, &lw, &hasH, &lh, &hasBox, &box)
        if hasBox != 0, box.width > 0, box.height > 0 {
            // Sized in percent of a viewport that does not exist here: the viewBox's own
            // units, as browsers show such a file on its own.
            return (box.width, box.height)
        }
        return (300, 150)
    }

    private static func failure(_ name: String, _ what: String, _ error: inout UnsafeMutablePointer<mv_gerror>?) -> AVError {
        defer { if let error { g_error_free(error) } }
        let why = error.flatMap { $0.pointee.message.map { PictureSources.oneLine(String(cString: $0)) } } ?? "librsvg gave no reason"
        return AVError(code: cff_averror_invaliddata, message: "\(name): \(what) (\(why))")
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        guard !done else { return nil }
        done = true
        let w = drawWidth, h = drawHeight
        // Cairo's ARGB32 is BGRA in memory here (little endian), premultiplied.
        guard let frame = PictureSources.frame(width: w, height: h, format: AV_PIX_FMT_BGRA),
              let base = frame.raw.pointee.data.0 else {
            throw AVError(message: "\(name): no memory for a \(w)x\(h) drawing")
        }
        let stride = Int(frame.raw.pointee.linesize.0)
        for y in 0..<h { (base + y * stride).initialize(repeating: 0, count: w * 4) }
        guard let surface = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw AVError(message: "\(name): cairo cannot draw a \(w)x\(h) picture")
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw AVError(message: "\(name): out of memory") }
        var viewport = mv_rsvg_rect(x: 0, y: 0, width: Double(w), height: Double(h))
        var error: UnsafeMutablePointer<mv_gerror>?
        let ok = rsvg_handle_render_document(handle, cr, &viewport, &error)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard ok != 0 else { throw SVGPicture.failure(name, "the SVG picture cannot be drawn", &error) }
        SVGPicture.unpremultiply(base, width: w, height: h, stride: stride)
        return (colour.manage(frame), 0, 0)
    }

    func rewind() { done = false }

    /// Straight alpha, as every other picture the viewer draws: edges over the background
    /// would otherwise come out darker than drawn.
    private static func unpremultiply(_ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width {
                let p = row + x * 4
                let a = Int(p[3])
                guard a != 0, a != 255 else { continue }
                p[0] = UInt8(min(255, (Int(p[0]) * 255 + a / 2) / a))
                p[1] = UInt8(min(255, (Int(p[1]) * 255 + a / 2) / a))
                p[2] = UInt8(min(255, (Int(p[2]) * 255 + a / 2) / a))
            }
        }
    }
}
