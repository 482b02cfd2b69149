import MediaCore

/// Camera photos' own thumbnails: a gallery cell of 128 px needs no more than the 160x120
/// JPEG a camera stores in EXIF, which decodes in a fraction of a millisecond where the
/// photo's eighth-size decode still has to read every coefficient of twelve megapixels.
extension ThumbnailMaker {
    /// Bytes read from a JPEG before deciding how to make its thumbnail: the EXIF segment is
    /// at most 64 KiB, and the photo's header (its size, for the shape check) follows it.
    static let headBytes = 256 << 10

    /// Pixels above which an embedded picture is not a thumbnail but something to distrust:
    /// IFD1's picture fits in a 64 KiB segment, and the largest cameras write is 640x480.
    static let embeddedMaxPixels = 1 << 20

    /// The embedded thumbnail of the photo whose first bytes are `head`, fitted to `size`
    /// and turned as the photo is (the camera stores both the same way round); nil when it
    /// has none, or one that would show worse than decoding the photo: smaller than the
    /// cell, so enlarged and blurry (a 160 px one serves the 128 px `normal` size, never the
    /// 256 px `large`), or of another shape, as the letterboxed 4:3 thumbnails of 3:2
    /// cameras are, whose black bars the cell would show.
    static func embedded(_ head: UnsafeRawBufferPointer, size: Int) -> StillDecoder.RGBA? {
        guard let range = EmbeddedThumbnail.range(inJPEG: head),
              let photo = try? JPEGStill.storedSize(head) else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: head[range])
        guard let small = try? JPEGStill.storedSize(bytes), max(small.width, small.height) >= size,
              small.width * small.height <= embeddedMaxPixels,
              sameShape(photo, small) else { return nil }
        let lowres = Self.lowres(width: small.width, height: small.height, size: size)
        guard let frame = try? JPEGStill(lowres: lowres, maxPixels: embeddedMaxPixels).decode(bytes),
              let picture = try? fit(frame, size: size) else { return nil }
        return rotated(picture, by: JPEGOrientation.rotation(ofJPEG: head))
    }

    /// Whether two sizes have the same shape, within the rounding of a thumbnail's sides.
    static func sameShape(_ a: (width: Int, height: Int), _ b: (width: Int, height: Int)) -> Bool {
        guard a.width > 0, a.height > 0, b.width > 0, b.height > 0 else { return false }
        let ra = Double(a.width) / Double(a.height), rb = Double(b.width) / Double(b.height)
        return abs(ra / rb - 1) <= 0.02
    }

    /// The largest DCT scale-down (libjpeg's 1/2, 1/4, 1/8) that still covers `size`.
    static func lowres(width: Int, height: Int, size: Int) -> Int {
        var lowres = 0
        while lowres < 3, max(width, height) >> (lowres + 1) >= size { lowres += 1 }
        return lowres
    }
}
