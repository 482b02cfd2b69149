import CASS

/// One subtitle image to blend over the video: a coverage mask (one byte a pixel, 0
/// transparent to 255 solid) drawn in one colour, placed inside the video's rectangle.
/// The mask is valid only during the call that hands it out.
public struct SubtitleBitmap {
    /// The coverage bytes, `stride` bytes a row.
    public let mask: UnsafePointer<UInt8>
    /// Width of the mask in pixels.
    public let width: Int
    /// Height of the mask in pixels.
    public let height: Int
    /// Bytes from one row of the mask to the next.
    public let stride: Int
    /// Where its left edge goes, relative to the video's rectangle.
    public let x: Int
    /// Where its top edge goes, relative to the video's rectangle.
    public let y: Int
    /// Red, 0...255.
    public let red: UInt8
    /// Green, 0...255.
    public let green: UInt8
    /// Blue, 0...255.
    public let blue: UInt8
    /// Opacity: 255 solid.
    public let alpha: UInt8

    /// An image of `mask` placed at `x`, `y`, drawn in the colour given.
    package init(mask: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, x: Int, y: Int,
                 red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.mask = mask
        self.width = width
        self.height = height
        self.stride = stride
        self.x = x
        self.y = y
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// Draws a player's chosen subtitle track with libass, for the thread that owns the player.
///
/// It keeps a libass track for the chosen subtitle track and gives it each event the demux
/// thread decoded since the last call; choosing another track starts a new one. The
/// player's side is `render(_:at:width:height:_:)`, in Playback.
public final class SubtitleRenderer {
    private let library: ASSLibrary
    private let renderer: ASSRenderer
    private var track: (id: Int, ass: ASSTrack)?

    /// Nil when libass cannot start.
    public init?() {
        guard let l = ASSLibrary(), let r = ASSRenderer(library: l) else { return nil }
        library = l
        renderer = r
    }

    /// Hands `draw` the images of subtitle track `id` due at `seconds`, for a video shown
    /// `width` x `height` pixels large. `news` gives the track's header and its events from
    /// the given index on: the ones decoded since the last call. Text is drawn `fontScale`
    /// times the script's size.
    /// `changed`, when given, is set to whether the images differ from the last call's.
    package func render(track id: Int, at seconds: Double, width: Int, height: Int, fontScale: Double = 1,
                        news: (Int) -> (header: String, cues: [SubtitleCue]), changed: UnsafeMutablePointer<Bool>? = nil,
                        _ draw: (SubtitleBitmap) -> Void) {
        changed?.pointee = true
        guard width > 0, height > 0, seconds.isFinite else { return }
        if track?.id != id {
            guard let t = ASSTrack(library: library) else { return }
            track = (id, t)
        }
        guard let ass = track?.ass else { return }
        let new = news(ass.count)
        if !ass.hasHeader { ass.setHeader(new.header) }
        for c in new.cues { ass.add(c) }
        renderer.setSize(width: width, height: height)
        renderer.setFontScale(fontScale)
        renderer.eachImage(renderer.render(ass, at: Int64((seconds * 1000).rounded()), changed: changed)) { p in
            if p.w > 0, p.h > 0, let bitmap = p.bitmap {
                // libass's colour is RGBA with A as transparency (0 solid).
                draw(SubtitleBitmap(mask: UnsafePointer(bitmap), width: Int(p.w), height: Int(p.h), stride: Int(p.stride),
                                    x: Int(p.dst_x), y: Int(p.dst_y), red: UInt8(p.color >> 24),
                                    green: UInt8((p.color >> 16) & 0xFF), blue: UInt8((p.color >> 8) & 0xFF),
                                    alpha: 255 - UInt8(p.color & 0xFF)))
            }
        }
    }
}
