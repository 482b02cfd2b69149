import CExif
import Glibc

/// The numbers of a photo's EXIF read as numbers (rationals, shorts) rather than
/// libexif's English text, so they can be written as photographers write them: "f/1.8",
/// "1/250 s", "ISO 100", "35 mm", and the GPS position as signed degrees.
struct PhotoFacts {
    /// Aperture, shutter time, sensitivity and focal length, those the photo has.
    var exposure: String?
    /// Latitude and longitude, "48.8584° N, 2.2945° E".
    var place: String?

    init(_ data: UnsafeMutablePointer<ExifData>) {
        let order = exif_data_get_byte_order(data)
        func rationals(_ entry: UnsafeMutablePointer<ExifEntry>?) -> [Double] {
            guard let e = entry, e.pointee.format == EXIF_FORMAT_RATIONAL, let bytes = e.pointee.data,
                  e.pointee.size >= UInt32(8 * e.pointee.components) else { return [] }
            return (0..<Int(e.pointee.components)).compactMap { i in
                let r = exif_get_rational(bytes + 8 * i, order)
                return r.denominator == 0 ? nil : Double(r.numerator) / Double(r.denominator)
            }
        }
        var parts: [String] = []
        if let f = rationals(mv_exif_entry(data, EXIF_TAG_FNUMBER)).first, f > 0 { parts.append("f/" + Self.short(f)) }
        if let t = rationals(mv_exif_entry(data, EXIF_TAG_EXPOSURE_TIME)).first, t > 0 { parts.append(Self.shutter(t)) }
        if let e = mv_exif_entry(data, EXIF_TAG_ISO_SPEED_RATINGS), e.pointee.format == EXIF_FORMAT_SHORT,
           let bytes = e.pointee.data, e.pointee.size >= 2 {
            parts.append("ISO \(exif_get_short(bytes, order))")
        }
        if let mm = rationals(mv_exif_entry(data, EXIF_TAG_FOCAL_LENGTH)).first, mm > 0 { parts.append(Self.short(mm) + " mm") }
        exposure = parts.isEmpty ? nil : parts.joined(separator: ", ")
        // The GPS tags' numbers are reused by other directories: read them from the GPS one.
        let gps = data.pointee.ifd.3
        func gpsEntry(_ tag: ExifTag) -> UnsafeMutablePointer<ExifEntry>? { gps.flatMap { exif_content_get_entry($0, tag) } }
        func ref(_ tag: ExifTag) -> String? {
            guard let e = gpsEntry(tag), let bytes = e.pointee.data, e.pointee.size >= 1 else { return nil }
            return String(UnicodeScalar(bytes[0]))
        }
        let lat = Self.degrees(rationals(gpsEntry(Self.gps(EXIF_TAG_GPS_LATITUDE)))), lon = Self.degrees(rationals(gpsEntry(Self.gps(EXIF_TAG_GPS_LONGITUDE))))
        if let lat, let lon, lat <= 90, lon <= 180 {
            let ns = ref(Self.gps(EXIF_TAG_GPS_LATITUDE_REF)) == "S" ? "S" : "N", ew = ref(Self.gps(EXIF_TAG_GPS_LONGITUDE_REF)) == "W" ? "W" : "E"
            place = Self.fixed4(lat) + "° " + ns + ", " + Self.fixed4(lon) + "° " + ew
        }
    }

    /// libexif defines the GPS tags as plain numbers, since they reuse other tags' values.
    static func gps(_ tag: Int32) -> ExifTag { ExifTag(rawValue: UInt32(tag)) }

    /// Degrees, minutes, seconds to degrees.
    static func degrees(_ dms: [Double]) -> Double? {
        guard dms.count == 3, dms.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        return dms[0] + dms[1] / 60 + dms[2] / 3600
    }

    /// "1/250 s" below a second, "2 s" or "1.5 s" from one up.
    static func shutter(_ seconds: Double) -> String {
        if seconds >= 1 { return short(seconds) + " s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    /// One decimal, none when it is zero: "1.8", "8", "35".
    static func short(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// Four decimals, as a map shows a place to about ten metres.
    static func fixed4(_ x: Double) -> String {
        let n = Int((x * 10000).rounded())
        let frac = String(n % 10000)
        return "\(n / 10000)." + String(repeating: "0", count: 4 - frac.count) + frac
    }

    /// The camera's wall-clock time (kept as if it were UTC) written the way the user's
    /// `LC_TIME` locale writes a date and time, without touching the program's own locale.
    static func localDate(_ seconds: Double) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 128)
        let n = strftime_l(&buffer, buffer.count, "%c", &parts, timeLocale)
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The user's time locale, or C when the environment names one not installed. Made once
    /// and never changed, and strftime_l only reads it, so every thread may share it.
    nonisolated(unsafe) private static let timeLocale: locale_t? =
        newlocale(LC_TIME_MASK, "", nil) ?? newlocale(LC_TIME_MASK, "C", nil)
}
