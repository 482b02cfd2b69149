/// The small JPEG that cameras and phones store inside a photo's EXIF block (IFD1's
/// JPEGInterchangeFormat and JPEGInterchangeFormatLength), so that a gallery of their photos
/// can show a screen of them without decoding twelve megapixels each.
///
/// The offsets are the file's word, not to be trusted: the picture must lie wholly inside
/// the EXIF segment it is named from, and start as a JPEG does. Anything else (a length
/// past the end, an uncompressed thumbnail, a damaged IFD) gives nil, and the caller
/// decodes the photo itself, saying nothing: a file with odd EXIF is not a broken photo.
package enum EmbeddedThumbnail {
    /// The TIFF tags of IFD1 read here.
    private enum Tag {
        static let compression = 0x0103
        static let jpegOffset = 0x0201
        static let jpegLength = 0x0202
    }

    /// IFD1's Compression value for a JPEG thumbnail.
    private static let jpegCompression = 6

    /// Where the embedded JPEG lies in `b`, the bytes of a JPEG file (or of its first part,
    /// as long as that holds the whole EXIF segment); nil when there is none to use.
    package static func range(inJPEG b: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let exif = ExifBlock(jpeg: b), let ifd0 = exif.ifd0, let ifd1 = exif.next(after: ifd0),
              let offset = exif.value(of: Tag.jpegOffset, inIFDAt: ifd1),
              let length = exif.value(of: Tag.jpegLength, inIFDAt: ifd1) else { return nil }
        // Within the segment (and so within the bytes read); the TIFF header's 8 bytes come first.
        guard offset >= 8, length >= 4, length <= exif.tiff.count - offset else { return nil }
        if let c = exif.value(of: Tag.compression, inIFDAt: ifd1), c != jpegCompression { return nil }
        let start = exif.offsetInFile + offset
        guard b[start] == 0xFF, b[start + 1] == 0xD8, b[start + 2] == 0xFF else { return nil }
        return start..<(start + length)
    }
}
