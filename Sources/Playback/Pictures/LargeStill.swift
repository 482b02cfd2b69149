import CFFmpeg
import MediaCore

/// A PNG or TIFF too large to hold whole (over the pixel budget, or a file too large to read
/// whole), shown fitted from one pass over its rows that keeps only a reduced copy.
///
/// FFmpeg would decode such a picture whole before anything could be said about it: a
/// 20,000 x 10,000 TIFF took 1.4 GB before it was refused. Read a few rows at a time and
/// halved as they come, it is shown at the size the window needs, and the zoom reads its
/// detail from tiles (`PyramidRegions`).
package enum LargeStill {
    /// Whether the local file behind `fd` (its first bytes `head`, `size` bytes long) goes
    /// this way, and as which format.
    static func format(head: [UInt8], fd: Int32, size: Int, maxPixels: Int) -> RowReader.Format? {
        guard let format = RowReader.Format(head: head) else { return nil }
        if size > PictureFormat.largestFile { return format }
        guard let stored = LargePictureHeader.size(head: head, fd: fd) else { return nil }
        return stored.width * stored.height > maxPixels ? format : nil
    }

    /// The most halvings of a `width` x `height` picture that still cover `target` (nil:
    /// the whole picture), and then enough more to come within `maxPixels`.
    static func level(width: Int, height: Int, target: (width: Int, height: Int)?, maxPixels: Int) -> Int {
        var level = 0
        if let target, target.width > 0, target.height > 0 {
            let scale = min(1, Double(target.width) / Double(width), Double(target.height) / Double(height))
            let need = (Int((Double(width) * scale).rounded(.up)), Int((Double(height) * scale).rounded(.up)))
            while level < 30, (width + (2 << level) - 1) >> (level + 1) >= need.0,
                  (height + (2 << level) - 1) >> (level + 1) >= need.1 {
                level += 1
            }
        }
        func pixels(_ l: Int) -> Int { ((width + (1 << l) - 1) >> l) * ((height + (1 << l) - 1) >> l) }
        while level < 30, pixels(level) > maxPixels { level += 1 }
        return level
    }

    /// Decodes the PNG or TIFF behind `fd` (read with pread; it stays the caller's), reduced
    /// to cover `target` within `maxPixels`; throws the one line for the user. Given a
    /// `store` (which stays the caller's), the same pass writes the zoom's tile pyramid
    /// there, so a zoom after the first picture reads tiles instead of the file again;
    /// the result says whether every tile was written.
    package static func decode(fd: Int32, name: String, target: (width: Int, height: Int)?,
                               maxPixels: Int, store: Int32 = -1) throws(AVError) -> StillWork.Result {
        let format = try RowReader.Format(fd: fd, name: name)
        let reader = try RowReader(fd: fd, format: format, name: name)
        let keep = level(width: reader.width, height: reader.height, target: target, maxPixels: maxPixels)
        let tiles = store >= 0 && PyramidRegions.fits(width: reader.width, height: reader.height)
            ? (fd: store, layout: layout(width: reader.width, height: reader.height)) : nil
        let pass = try PyramidBuilder.run(reader, keep: keep, store: tiles, storeIsOptional: true, name: name)
        guard let frame = pass.kept else { throw AVError(message: "\(name): no picture was kept") }
        var result = StillWork.Result(frame: frame, rotation: 0, stored: (reader.width, reader.height),
                                      formatName: format.codec + "_pipe", codec: format.codec)
        result.tilesStored = pass.stored
        return result
    }

    /// Where the tiles of a `width` x `height` picture lie in its store.
    package static func layout(width: Int, height: Int) -> PyramidLayout {
        PyramidLayout(width: width, height: height, side: PyramidRegions.side)
    }
}

/// A large still decoded here (the sandbox off), as the player shows any still.
final class LargePicture: PictureSource {
    let info: MediaInfo
    private let frame: Frame
    private var given = false

    init(_ result: StillWork.Result) {
        frame = result.frame
        info = MediaInfo.picture(kind: .image, width: result.stored.width, height: result.stored.height,
                                 format: result.formatName, codec: result.codec)
    }

    func next() throws(AVError) -> (frame: Frame, pts: Double, duration: Double)? {
        guard !given else { return nil }
        given = true
        return (frame, 0, 0)
    }

    func rewind() { given = false }
}
