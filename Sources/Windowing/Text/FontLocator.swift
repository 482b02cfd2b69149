import CFreeType

/// Finds font files through fontconfig, the way every other Linux desktop program does.
///
/// fontconfig answers a family name ("sans-serif", "DejaVu Sans") with the user's
/// configured choice, honours aliases and substitutions, and can name a font that covers a
/// given character, which is how text with symbols missing from the main font still draws.
enum FontLocator {
    /// One font file fontconfig chose.
    struct Match: Equatable {
        /// Path of the font file.
        var path: String
        /// Face index inside the file (TrueType collections hold several).
        var index: Int
        /// The family names the file declares, most preferred first.
        var families: [String]
    }

    /// Generic aliases that stand for "whatever the desktop prefers", never a real family.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji",
    ]

    /// The best font for `family`; with `requireFamily`, fails unless the chosen file really
    /// belongs to that family instead of being fontconfig's substitute.
    static func match(family: String, bold: Bool, requireFamily: Bool) throws(FontError) -> Match {
        guard let found = query(family: family, bold: bold, codepoint: nil) else {
            throw FontError.familyNotFound(family)
        }
        if requireFamily && !genericFamilies.contains(family.lowercased()) {
            let wanted = family.lowercased()
            guard found.families.contains(where: { $0.lowercased() == wanted }) else {
                throw FontError.familyNotFound(family)
            }
        }
        return found
    }

    /// A font of (preferably) `family` that has a glyph for `codepoint`, or nil if none does.
    static func match(covering codepoint: UInt32, family: String, bold: Bool) -> Match? {
        query(family: family, bold: bold, codepoint: codepoint)
    }

    /// Runs one FcFontMatch; with a codepoint, only accepts a result whose charset has it
    /// (fontconfig always returns *some* font, covering or not).
    private static func query(family: String, bold: Bool, codepoint: UInt32?) -> Match? {
        guard FcInit() != 0, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        withFcString(family) { _ = FcPatternAddString(pattern, FC_FAMILY, $0) }
        if bold { FcPatternAddInteger(pattern, FC_WEIGHT, FC_WEIGHT_BOLD) }
        // FreeType rasterises outlines; bitmap-only fonts would come out at one size.
        FcPatternAddBool(pattern, FC_SCALABLE, 1)
        if let cp = codepoint, let set = FcCharSetCreate() {
            FcCharSetAddChar(set, cp)
            FcPatternAddCharSet(pattern, FC_CHARSET, set)
            FcCharSetDestroy(set)  // the pattern keeps its own reference
        }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        guard result == FcResultMatch else { return nil }
        if let cp = codepoint {
            var set: OpaquePointer?
            guard FcPatternGetCharSet(matched, FC_CHARSET, 0, &set) == FcResultMatch,
                  let set, FcCharSetHasChar(set, cp) != 0 else { return nil }
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        let path = String(cString: file)
        var index: Int32 = 0
        if FcPatternGetInteger(matched, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        var n: Int32 = 0
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(matched, FC_FAMILY, n, &name) == FcResultMatch, let name {
            families.append(String(cString: name))
            n += 1
        }
        return Match(path: path, index: Int(index), families: families)
    }

    /// Hands `s` to fontconfig, which spells strings as unsigned bytes.
    private static func withFcString<R>(_ s: String, _ body: (UnsafePointer<FcChar8>) -> R) -> R {
        s.withCString { $0.withMemoryRebound(to: FcChar8.self, capacity: s.utf8.count + 1, body) }
    }
}
