import CFFmpeg
import FoundationEssentials
import Glibc

/// The formats that are decoded outside FFmpeg, told apart by their first bytes.
enum PictureFormat: Equatable {
    case avif, heif, jxl, svg, animatedWebP

    /// How many first bytes `sniff` looks at.
    static let headSize = 1024

    /// The format of a file starting with `head` and called `name`; nil for anything FFmpeg
    /// opens as before.
    static func sniff(_ head: [UInt8], name: String) -> PictureFormat? {
        if let brand = isoBrand(head) { return brand }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return .jxl }
        if WebPAnimation.isAnimated(head) { return .animatedWebP }
        let lower = name.lowercased()
        if lower.hasSuffix(".svgz"), head.starts(with: [0x1F, 0x8B]) { return .svg }
        if looksLikeSVG(head) { return .svg }
        return nil
    }

    /// AVIF or HEIF from the ISO file-type box: its major brand, then its compatible ones
    /// (an AVIF often says `mif1` first and `avif` among the rest).
    private static func isoBrand(_ h: [UInt8]) -> PictureFormat? {
        guard h.count >= 16, h[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = min(h.count, Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3]))
        var brands: [String] = [String(decoding: h[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= size {
            brands.append(String(decoding: h[i..<i + 4], as: UTF8.self))
            i += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if heif.contains(brands[0]) || brands.contains(where: { $0 == "heic" || $0 == "heix" }) { return .heif }
        return nil
    }

    /// XML text whose first element is `<svg`: after an optional BOM, whitespace, an XML
    /// declaration, comments and a doctype.
    static func looksLikeSVG(_ h: [UInt8]) -> Bool {
        var text = String(decoding: h, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop(while: { $0.isWhitespace })
        guard trimmed.hasPrefix("<") else { return false }
        var rest = Substring(trimmed)
        while let open = rest.firstIndex(of: "<") {
            let tail = rest[open...]
            if tail.hasPrefix("<svg") { return true }
            if tail.hasPrefix("<?") || tail.hasPrefix("<!") {
                guard let close = tail.firstIndex(of: ">") else { return false }
                rest = tail[tail.index(after: close)...]
                continue
            }
            return false
        }
        return false
    }

    /// Web addresses whose pictures are fetched whole into memory and sniffed: the formats
    /// above need the whole file, and so does any still before it shows.
    static func fetchesWhole(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)[0].lowercased()
        return [".webp", ".avif", ".heic", ".heif", ".jxl", ".svg", ".svgz"].contains(where: { path.hasSuffix($0) })
    }

    /// The largest picture file read whole: far above any real photo, far below memory.
    static let largestFile = 256 << 20
}
