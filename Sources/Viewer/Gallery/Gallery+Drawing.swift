import Playback
import Windowing

/// Drawing the grid: each cell on screen, its thumbnail (or why there is none) and its file
/// name under it, the highlighted one framed in the theme colour.
extension Gallery {
    static let background = Color(rgb: 0x121212)
    static let cellColor = Color(rgb: 0x262626)
    static let labelColor = Color(rgb: 0xDDDDDD)
    /// The disc of a file that has no thumbnail because it is damaged: red, not the theme
    /// colour of the highlight, so the two are never confused.
    static let failColor = Color(rgb: 0xC0392B)

    /// Draws the cells on screen; true when every one of them had its thumbnail (or knew
    /// it has none), which is when the first screen is complete.
    @discardableResult
    func draw(on stage: Stage, layout l: GalleryLayout) -> Bool {
        guard let buf = stage.surface.begin() else { return false }
        var complete = true
        buf.clear(color: 0x121212)
        let canvas = Canvas(buffer: buf)
        let theme = queue.current?.themeColor ?? .defaultTheme
        let scale = scale(on: stage)
        let font = FontCache.shared.font(family: nil, size: scale.px(13))
        for i in l.visible {
            let cell = l.cell(i)
            if i == selection {
                canvas.fillRoundedRect(cell.insetBy(-4), radius: 8, color: theme)
            }
            canvas.fillRoundedRect(cell, radius: 6, color: Self.cellColor)
            let area = l.thumbnailArea(of: cell)
            complete = drawThumbnail(i, in: area, on: canvas, theme: theme, scale: scale) && complete
            if let font, let url = queue.item(at: i)?.mediaURL {
                let name = font.truncated(MediaView.displayName(url), toWidth: cell.width - 8)
                let w = font.measure(name).width
                font.draw(name, at: cell.x + (cell.width - w) / 2, baseline: area.maxY + scale.px(4) + font.ascent,
                          color: Self.labelColor, on: canvas)
            }
        }
        drawPosition(on: canvas, scale: scale)
        stage.surface.present()
        return complete
    }

    /// "12 / 340" at the top right: where the highlight is in the whole queue, which the
    /// rows on screen alone do not tell in a long folder.
    private func drawPosition(on canvas: Canvas, scale: InterfaceScale) {
        guard let font = FontCache.shared.font(family: nil, size: scale.px(14), bold: true) else { return }
        let text = MediaQueue.Position(number: selection + 1, count: queue.itemCount).text
        let w = font.measure(text).width, pad = scale.px(8)
        let box = Rect(x: canvas.bounds.width - w - 3 * pad, y: pad, width: w + 2 * pad, height: font.lineHeight + pad)
        canvas.fillRoundedRect(box, radius: Double(pad), color: Color.black.withAlpha(fraction: 0.7))
        font.draw(text, at: box.x + pad, baseline: box.y + pad / 2 + font.ascent, color: .white, on: canvas)
    }

    /// A video's length ("1:23") in a small dark pill at the bottom right of its picture,
    /// as file managers and video sites show it: a user picks a clip by how long it is.
    private func drawLength(_ seconds: Double, over picture: Rect, on canvas: Canvas, scale: InterfaceScale) {
        guard let font = FontCache.shared.font(family: nil, size: scale.px(11), bold: true) else { return }
        let text = MediaView.formatTime(seconds, longest: seconds)
        let w = font.measure(text).width, pad = scale.px(4), h = font.lineHeight + pad / 2
        guard w + 2 * pad + 2 * pad <= picture.width, h + 2 * pad <= picture.height else { return }
        let box = Rect(x: picture.maxX - w - 3 * pad, y: picture.maxY - h - pad, width: w + 2 * pad, height: h)
        canvas.fillRoundedRect(box, radius: Double(h) / 2, color: Color.black.withAlpha(fraction: 0.75))
        font.draw(text, at: box.x + pad, baseline: box.y + pad / 4 + font.ascent, color: .white, on: canvas)
    }

    /// Draws item `i`'s thumbnail, or why there is none; false while it is being made.
    private func drawThumbnail(_ i: Int, in area: Rect, on canvas: Canvas, theme: Color, scale: InterfaceScale) -> Bool {
        guard let path = path(i) else {
            // Web media: no file to make a thumbnail of.
            Indicators.drawPlayIndicator(on: canvas, in: area.insetBy(area.width / 4), theme: theme)
            return true
        }
        switch worker?.outcome(for: path) {
        case .picture(let p, let length):
            let image: RGBAImage? = images[path] ?? RGBAImage(width: p.width, height: p.height, pixels: p.pixels)
            guard let image else { return true }
            images[path] = image
            let shown = area.centered(width: image.width, height: image.height)
            canvas.blit(image: image, in: shown)
            drawHoverPicture(i, in: area, over: shown, on: canvas)
            if let length { drawLength(length, over: shown, on: canvas, scale: scale) }
        case .failed:
            Indicators.drawFailIndicator(on: canvas, in: area.insetBy(area.width / 4), theme: Self.failColor)
        case .noPicture:
            Indicators.drawMusicIndicator(on: canvas, in: area.insetBy(area.width / 4), theme: theme)
        case nil:
            return false
        }
        return true
    }
}
