import Glibc

/// The numbers of a photo's EXIF read as numbers (rationals, shorts) rather than text, so
/// they can be written as photographers write them: "f/1.8", "1/250 s", "ISO 100",
/// "35 mm", and the GPS position as signed degrees.
struct PhotoFacts {
    /// The EXIF tags read here; the GPS ones are numbered within the GPS sub-IFD.
    enum Tag {
        static let fNumber = 0x829D
        static let exposureTime = 0x829A
        static let iso = 0x8827
        static let focalLength = 0x920A
        static let latitudeRef = 1
        static let latitude = 2
        static let longitudeRef = 3
        static let longitude = 4
    }

    /// Aperture, shutter time, sensitivity and focal length, those the photo has.
    var exposure: String?
    /// Latitude and longitude, "48.8584° N, 2.2945° E".
    var place: String?

    init(_ exif: ExifBlock) {
        let ifds = exif.photoIFDs
        func first(_ tag: Int) -> Double? {
            for ifd in ifds { if let v = exif.rationals(tag, inIFDAt: ifd, limit: 1).first { return v } }
            return nil
        }
        var parts: [String] = []
        if let f = first(Tag.fNumber), f > 0 { parts.append("f/" + Self.short(f)) }
        if let t = first(Tag.exposureTime), t > 0 { parts.append(Self.shutter(t)) }
        if let iso = exif.short(Tag.iso, in: ifds) { parts.append("ISO \(iso)") }
        if let mm = first(Tag.focalLength), mm > 0 { parts.append(Self.short(mm) + " mm") }
        exposure = parts.isEmpty ? nil : parts.joined(separator: ", ")
        // The GPS tags' numbers are reused by other directories: read them from the GPS one.
        let gps = exif.gpsIFD
        func position(_ tag: Int) -> Double? { Self.degrees(exif.rationals(tag, inIFDAt: gps, limit: 4)) }
        func ref(_ tag: Int) -> String? { gps.flatMap { exif.text(tag, in: [$0]) }.map { String($0.prefix(1)) } }
        if let lat = position(Tag.latitude), let lon = position(Tag.longitude), lat <= 90, lon <= 180 {
            let ns = ref(Tag.latitudeRef) == "S" ? "S" : "N", ew = ref(Tag.longitudeRef) == "W" ? "W" : "E"
            place = Self.fixed4(lat) + "° " + ns + ", " + Self.fixed4(lon) + "° " + ew
        }
    }

    /// Degrees, minutes, seconds to degrees.
    /// Exactly three, each with a denominator; a damaged one gives no place.
    static func degrees(_ dms: [Double?]) -> Double? {
        let values = dms.compactMap { $0 }
        guard dms.count == 3, values.count == 3, values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        return values[0] + values[1] / 60 + values[2] / 3600
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
