import CExif
import Glibc
import MediaCore

/// What a photo's EXIF says about it, read with libexif: when it was taken (to sort a
/// folder by date taken) and the camera, lens and exposure (for the info panel).
///
/// libexif's loader stops reading once it has the EXIF block, so this costs one open and
/// a few kilobytes per photo, not the whole file.
public enum PhotoMetadata {
    /// DateTimeOriginal (else DateTime) as seconds since 1970, reading the camera's
    /// local time as UTC: good for ordering photos, not for showing a time zone.
    public static func dateTaken(path: String) -> Double? {
        guard let data = exif_data_new_from_file(path) else { return nil }
        defer { exif_data_unref(data) }
        for tag in [EXIF_TAG_DATE_TIME_ORIGINAL, EXIF_TAG_DATE_TIME] {
            if let text = value(data, tag), let seconds = parseDate(text) { return seconds }
        }
        return nil
    }

    /// The EXIF facts a photographer looks for, as label and value, in a fixed order;
    /// only those the photo has. The date reads in the user's own way (`LC_TIME`), the
    /// exposure as a photographer writes it ("f/1.8, 1/250 s, ISO 100, 35 mm") and the
    /// place as degrees ("48.8584° N, 2.2945° E").
    public static func describe(path: String) -> [(label: String, value: String)] {
        guard let data = exif_data_new_from_file(path) else { return [] }
        defer { exif_data_unref(data) }
        var out: [(String, String)] = []
        if let t = value(data, EXIF_TAG_DATE_TIME_ORIGINAL) ?? value(data, EXIF_TAG_DATE_TIME) {
            out.append(("Taken", parseDate(t).map(PhotoFacts.localDate) ?? t))
        }
        let camera = [value(data, EXIF_TAG_MAKE), value(data, EXIF_TAG_MODEL)].compactMap { $0 }
        if !camera.isEmpty { out.append(("Camera", cameraName(camera))) }
        if let lens = value(data, EXIF_TAG_LENS_MODEL) { out.append(("Lens", lens)) }
        let facts = PhotoFacts(data)
        if let exposure = facts.exposure { out.append(("Exposure", exposure)) }
        if let place = facts.place { out.append(("Place", place)) }
        return out
    }

    /// "Canon Canon EOS R5" reads as "Canon EOS R5": makers repeat their name in the model.
    static func cameraName(_ parts: [String]) -> String {
        if parts.count == 2, parts[1].lowercased().hasPrefix(parts[0].lowercased()) { return parts[1] }
        return parts.joined(separator: " ")
    }

    static func value(_ data: UnsafeMutablePointer<ExifData>, _ tag: ExifTag) -> String? {
        guard let entry = mv_exif_entry(data, tag) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard exif_entry_get_value(entry, &buffer, UInt32(buffer.count)) != nil else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = Substring(String(decoding: bytes, as: UTF8.self)).trimmingSpaces
        return text.isEmpty ? nil : text
    }

    /// "2024:06:01 12:34:56" to seconds; nil for the all-zero date some cameras write.
    static func parseDate(_ text: String) -> Double? {
        let numbers = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard numbers.count >= 6, numbers[0] > 0 else { return nil }
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
