import Glibc
import MediaCore

/// What a photo's EXIF says about it: when it was taken (to sort a folder by date taken)
/// and the camera, lens and exposure (for the info panel).
///
/// Read in the viewer's own process, for every photo of a folder sorted by date, so by
/// `ExifBlock`'s bounds-checked reading of the few tags shown, not by a C parser of all of
/// EXIF: a hostile file's offsets make a fact absent, never a read outside its bytes. Only
/// the file's segment headers and its EXIF segment are read, not the picture.
public enum PhotoMetadata {
    /// The tags read here (the exposure's and the place's are `PhotoFacts`').
    enum Tag {
        static let dateTimeOriginal = 0x9003
        static let dateTime = 0x0132
        static let make = 0x010F
        static let model = 0x0110
        static let lensModel = 0xA434
    }

    /// DateTimeOriginal (else DateTime) as seconds since 1970, reading the camera's
    /// local time as UTC: good for ordering photos, not for showing a time zone.
    public static func dateTaken(path: String) -> Double? {
        ExifSegment.tiff(ofFileAt: path).flatMap(dateTaken(tiff:))
    }

    /// The EXIF facts a photographer looks for, as label and value, in a fixed order;
    /// only those the photo has. The date reads in the user's own way (`LC_TIME`), the
    /// exposure as a photographer writes it ("f/1.8, 1/250 s, ISO 100, 35 mm") and the
    /// place as degrees ("48.8584° N, 2.2945° E").
    public static func describe(path: String) -> [(label: String, value: String)] {
        ExifSegment.tiff(ofFileAt: path).map(describe(tiff:)) ?? []
    }

    /// `dateTaken` of the JPEG whose bytes (or first part) are `bytes`.
    package static func dateTaken(jpeg bytes: [UInt8]) -> Double? {
        ExifSegment.tiff(ofJPEG: bytes).flatMap(dateTaken(tiff:))
    }

    /// `describe` of the JPEG whose bytes (or first part) are `bytes`.
    package static func describe(jpeg bytes: [UInt8]) -> [(label: String, value: String)] {
        ExifSegment.tiff(ofJPEG: bytes).map(describe(tiff:)) ?? []
    }

    static func dateTaken(tiff: (bytes: [UInt8], offset: Int)) -> Double? {
        tiff.bytes.withUnsafeBytes { b in
            guard let exif = ExifBlock(tiff: b, at: tiff.offset) else { return nil }
            let ifds = exif.photoIFDs
            for tag in [Tag.dateTimeOriginal, Tag.dateTime] {
                if let text = exif.text(tag, in: ifds), let seconds = parseDate(text) { return seconds }
            }
            return nil
        }
    }

    static func describe(tiff: (bytes: [UInt8], offset: Int)) -> [(label: String, value: String)] {
        tiff.bytes.withUnsafeBytes { b in
            guard let exif = ExifBlock(tiff: b, at: tiff.offset) else { return [] }
            let ifds = exif.photoIFDs
            var out: [(String, String)] = []
            if let t = exif.text(Tag.dateTimeOriginal, in: ifds) ?? exif.text(Tag.dateTime, in: ifds) {
                out.append(("Taken", parseDate(t).map(PhotoFacts.localDate) ?? t))
            }
            let camera = [exif.text(Tag.make, in: ifds), exif.text(Tag.model, in: ifds)].compactMap { $0 }
            if !camera.isEmpty { out.append(("Camera", cameraName(camera))) }
            if let lens = exif.text(Tag.lensModel, in: ifds) { out.append(("Lens", lens)) }
            let facts = PhotoFacts(exif)
            if let exposure = facts.exposure { out.append(("Exposure", exposure)) }
            if let place = facts.place { out.append(("Place", place)) }
            return out
        }
    }

    /// "Canon Canon EOS R5" reads as "Canon EOS R5": makers repeat their name in the model.
    static func cameraName(_ parts: [String]) -> String {
        if parts.count == 2, parts[1].lowercased().hasPrefix(parts[0].lowercased()) { return parts[1] }
        return parts.joined(separator: " ")
    }

    /// "2024:06:01 12:34:56" to seconds; nil for the all-zero date some cameras write, and
    /// for numbers no calendar has (a year past 9999, a two-digit field past 99).
    static func parseDate(_ text: String) -> Double? {
        let numbers = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard numbers.count >= 6, (1...9999).contains(numbers[0]),
              numbers[1...5].allSatisfy({ (0...99).contains($0) }) else { return nil }
        var t = tm()
        t.tm_year = Int32(numbers[0] - 1900)
        t.tm_mon = Int32(numbers[1] - 1)
        t.tm_mday = Int32(numbers[2])
        t.tm_hour = Int32(numbers[3])
        t.tm_min = Int32(numbers[4])
        t.tm_sec = Int32(numbers[5])
        return Double(timegm(&t))
    }
}
