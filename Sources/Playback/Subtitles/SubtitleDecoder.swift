import CFFmpeg
import Glibc
import MediaCore

/// Turns the packets of one text subtitle stream (SubRip, ASS, mov_text, WebVTT) into ASS
/// events: FFmpeg's text subtitle decoders all write ASS, which is what libass draws.
final class SubtitleDecoder {
    private let decoder: Decoder

    /// Bitmap subtitles (PGS, DVB, DVD) are pictures, not text: they are not offered.
    static func isText(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        let par = stream.pointee.codecpar.pointee
        guard par.codec_type == AVMEDIA_TYPE_SUBTITLE, let d = avcodec_descriptor_get(par.codec_id) else { return false }
        return d.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0
    }

    init(stream: UnsafeMutablePointer<AVStream>) throws(AVError) {
        decoder = try Decoder(stream: stream, threads: 1, maxPixels: 1 << 20)
    }

    /// The ASS script header (play resolution, styles) the decoder made for this stream.
    var header: String {
        guard let h = decoder.ctx.pointee.subtitle_header, decoder.ctx.pointee.subtitle_header_size > 0 else { return "" }
        let bytes = UnsafeBufferPointer(start: h, count: Int(decoder.ctx.pointee.subtitle_header_size))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The events in one packet; none for a packet that does not decode.
    func decode(_ packet: Packet) -> [SubtitleCue] {
        var sub = AVSubtitle()
        var got: Int32 = 0
        let r = avcodec_decode_subtitle2(decoder.ctx, &sub, &got, packet.raw)
        guard r >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&sub) }
        let p = packet.raw.pointee
        guard let base = decoder.seconds(p.pts != cff_nopts ? p.pts : p.dts), base.isFinite else { return [] }
        let start = base + Double(sub.start_display_time) / 1000
        var duration = p.duration > 0 ? decoder.seconds(p.duration) ?? 0 : 0
        if duration <= 0, sub.end_display_time > sub.start_display_time, sub.end_display_time != UInt32.max {
            duration = Double(sub.end_display_time - sub.start_display_time) / 1000
        }
        // An event that never says when it ends stays a while, as players show such lines.
        if !(duration > 0) || !duration.isFinite { duration = 5 }
        var cues: [SubtitleCue] = []
        for i in 0..<Int(sub.num_rects) {
            guard let rect = sub.rects[i], rect.pointee.type == SUBTITLE_ASS, let ass = rect.pointee.ass else { continue }
            let line = String(cString: ass)
            // "ReadOrder,Layer,Style,...": the order number is the renderer's to give.
            guard let comma = line.firstIndex(of: ",") else { continue }
            cues.append(SubtitleCue(start: start, duration: duration,
                                    fields: SubtitleDecoder.bounded(String(line[line.index(after: comma)...]))))
        }
        return cues
    }

    /// The largest font size and scale an event may ask for: a line as tall as several
    /// screens is a broken or hostile script, and drawing it costs time and memory.
    static let maxFontSize = 400

    /// The largest value each override tag that costs pixels may take, in script pixels
    /// (or percent, for scales). libass draws a border or shadow of 10,000 pixels as asked
    /// (gigabytes of bitmap), so every such tag is bounded before libass sees it.
    static let tagLimits: [String: Double] = [
        "fs": Double(maxFontSize), "fscx": Double(maxFontSize), "fscy": Double(maxFontSize), "fsp": Double(maxFontSize),
        "bord": 50, "xbord": 50, "ybord": 50, "shad": 50, "xshad": 50, "yshad": 50,
        "be": 20, "blur": 20, "fax": 2, "fay": 2,
    ]
    /// A relative font size (`\fs+N`, `\fs-N`: a tenth of the size per step) may at most
    /// double or halve it; repeated, larger steps would grow it without end.
    static let relativeFontStep = 10.0

    /// The event with every bounded override tag (`tagLimits`) above its bound lowered to it.
    static func bounded(_ fields: String) -> String {
        guard fields.contains("\\") else { return fields }
        var out = ""
        var rest = Substring(fields)
        while let slash = rest.firstIndex(of: "\\") {
            out += rest[...slash]
            rest = rest[rest.index(after: slash)...]
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            out += name
            rest = rest.dropFirst(name.count)
            guard let limit = tagLimits[String(name)], let (value, sign, length) = number(rest) else { continue }
            let bound = name == "fs" && sign != 0 ? relativeFontStep : limit
            if value.isNaN || abs(value) > bound {
                // The whole number libass would read is replaced, exponent and all.
                out += rest.prefix { $0 == " " || $0 == "\t" || $0 == "(" }
                out += (value < 0 ? "-" : sign > 0 ? "+" : "") + String(Int(bound))
                rest = rest.dropFirst(length)
            }
        }
        return out + rest
    }

    /// The number at the start of a tag's argument as C's `strtod` reads it (after spaces or
    /// an opening parenthesis; `1e9` and hexadecimal included, which libass's reader may
    /// take too): its value, its explicit sign (0 for none), and the characters it spans.
    static func number(_ text: Substring) -> (Double, Int, Int)? {
        let lead = text.prefix { $0 == " " || $0 == "\t" || $0 == "(" }
        let head = String(text.dropFirst(lead.count).prefix(40))
        guard let first = head.unicodeScalars.first, "+-.0123456789".unicodeScalars.contains(first) else { return nil }
        var used = 0
        let value = head.withCString { start -> Double in
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(start, &end)
            used = end.map { start.distance(to: UnsafePointer($0)) } ?? 0
            return v
        }
        guard used > 0 else { return nil }
        return (value, first == "+" ? 1 : first == "-" ? -1 : 0, lead.count + used)
    }

    /// The override tags of an event's text with a number after them, by name, each with
    /// the largest size it takes (for the drawing budget; signs ignored).
    static func largestTags(_ text: String) -> [String: Double] {
        var found: [String: Double] = [:]
        var rest = Substring(text)
        while let slash = rest.firstIndex(of: "\\") {
            rest = rest[rest.index(after: slash)...]
            let name = String(rest.prefix { $0.isASCII && $0.isLetter })
            rest = rest.dropFirst(name.count)
            if tagLimits[name] != nil, let (v, _, _) = number(rest), v.isFinite { found[name] = max(found[name] ?? 0, abs(v)) }
        }
        return found
    }

    /// How many glyphs an event's text draws: characters outside override blocks, line
    /// breaks (`\N`, `\n`, `\h`) and drawings (after `\p1`, up to `\p0`) not counted.
    static func glyphCount(_ text: String) -> Int {
        var n = 0, drawing = false
        var rest = Substring(text)
        while let c = rest.first {
            if c == "{" {
                let block = rest.prefix { $0 != "}" }
                var tags = block
                while let r = tags.firstRange(of: "\\p") {
                    tags = tags[r.upperBound...]
                    if let d = tags.first, d.isASCII, let v = d.wholeNumberValue { drawing = v != 0 }
                }
                rest = rest.dropFirst(block.count + 1)
                continue
            }
            if c == "\\", let next = rest.dropFirst().first, "Nnh".contains(next) {
                rest = rest.dropFirst(2)
                continue
            }
            if !drawing { n += 1 }
            rest = rest.dropFirst()
        }
        return n
    }
}
