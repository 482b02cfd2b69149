import Viewer

/// `--help` and the manual page, `mediaview.1`, both written from the option table, so
/// they cannot disagree with each other or with the parser: `make install` runs
/// `mediaview --man-page` to make the page.
extension ProgramOptions {
    /// The `--help` text: usage, then every option by group with its default, in 80 columns.
    public static var helpText: String {
        let labelWidth = 24
        var lines = [
            "Usage: mediaview [OPTIONS] [FILE|URL ...]",
            "Shows images, animated GIFs, video and audio as a fullscreen queue.",
            "With no input it plays the bundled demo. Keys: see --list-bindings.",
        ]
        for group in groupOrder {
            lines.append("")
            lines.append(group + ":")
            for spec in optionTable where spec.group == group {
                let label = spec.name + (spec.valueName.map { " " + $0 } ?? "")
                var help = wrap(spec.help, width: 80 - labelWidth - 4)
                if label.count > labelWidth {
                    lines.append("  " + label)
                } else {
                    let first = help.isEmpty ? "" : help.removeFirst()
                    lines.append("  " + label + String(repeating: " ", count: labelWidth - label.count) + "  " + first)
                }
                lines += help.map { String(repeating: " ", count: labelWidth + 4) + $0 }
            }
        }
        lines.append("")
        lines.append("Exit status: 0 all items played, 1 an item failed, 2 bad usage or no X display.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The manual page as roff (man macros).
    public static func manPage(version: String) -> String {
        let sections = manHeader(version: version) + manOptions() + manKeys() + manIPCAndFiles() + manEnd()
        return sections.joined(separator: "\n") + "\n"
    }

    private static func manHeader(version: String) -> [String] {
        [
            ".TH MEDIAVIEW 1 \"\" \"mediaview \(version)\" \"User Commands\"",
            ".SH NAME",
            "mediaview \\- view images, animated GIFs, video and audio, from disk or the web",
            ".SH SYNOPSIS",
            ".B mediaview",
            "[\\fIOPTIONS\\fR] [\\fIFILE\\fR|\\fIURL\\fR ...]",
            ".SH DESCRIPTION",
            "mediaview presents its arguments as a queue in a fullscreen X11 window; the next item",
            "is prepared while the current one shows. Files, file:// URLs and http(s):// URLs work",
            "for all four kinds. A drag down shrinks the item into an always-on-top thumbnail in the",
            "bottom-right corner that keeps playing; a drag of the thumbnail to the right throws it away.",
            "With no input it plays the bundled demo.",
        ]
    }

    /// Every option, by group, as `--help` lists them.
    private static func manOptions() -> [String] {
        var out = [".SH OPTIONS"]
        for group in groupOrder {
            out.append(".SS \(escape(group))")
            for spec in optionTable where spec.group == group {
                out.append(".TP")
                out.append("\\fB\(escape(spec.name))\\fR" + (spec.valueName.map { " \\fI\(escape($0))\\fR" } ?? ""))
                out.append(escape(spec.help))
            }
        }
        return out
    }

    /// The built-in bindings, as `--list-bindings` prints them without a user file.
    private static func manKeys() -> [String] {
        var out = [
            ".SH KEYS",
            "The built-in bindings (mpv's input.conf syntax), which",
            ".I $XDG_CONFIG_HOME/mediaview/input.conf",
            "or \\fB\\-\\-input\\-conf\\fR changes:",
            ".PP",
            ".nf",
        ]
        for line in InputBindings.defaults.listing().split(separator: "\n") where !line.hasPrefix("#") {
            out.append(escape(String(line)))
        }
        out.append(".fi")
        return out
    }

    private static func manIPCAndFiles() -> [String] {
        [
            ".SH IPC",
            "Each window serves a subset of mpv's JSON IPC on a Unix socket (mode 0600):",
            "\\fB{\"command\": [\"get_property\", \"time-pos\"], \"request_id\": 1}\\fR",
            "is answered with \\fB{\"data\": ..., \"error\": \"success\", \"request_id\": 1}\\fR.",
            "Commands: loadfile, playlist\\-next, playlist\\-prev, seek, set_property, get_property,",
            "observe_property, unobserve_property, quit and every key\\-binding command.",
            "\\fB\\-\\-enqueue\\fR hands files to the mediaview running on the socket.",
            ".SH FILES",
            ".TP",
            ".I $XDG_CONFIG_HOME/mediaview/input.conf",
            "key bindings laid over the built-in ones",
            ".TP",
            ".I film.srt, film.en.srt, film.ass, film.ssa, film.vtt",
            "subtitles beside \\fIfilm.mkv\\fR, offered as its first tracks (not with \\fB\\-\\-no\\-sub\\-auto\\fR)",
            ".TP",
            ".I $XDG_RUNTIME_DIR/mediaview.socket",
            "the default IPC socket",
            ".TP",
            ".I $XDG_STATE_HOME/mediaview/resume",
            "where long video and audio were left (hashed names, at most 1000 lines)",
            ".TP",
            ".I $XDG_CACHE_HOME/mediaview",
            "media downloaded from the web",
        ]
    }

    private static func manEnd() -> [String] {
        [
            ".SH EXIT STATUS",
            "0 when every item played, 1 when some item failed (each failure says why on stderr),",
            "2 for bad usage or no X display.",
            ".SH SEE ALSO",
            ".BR mpv (1)",
        ]
    }

    /// Text safe in roff: backslashes doubled, hyphens as minus signs (so options can be
    /// searched and copied), and no line starting with a control character.
    static func escape(_ text: String) -> String {
        var s = ""
        for c in text {
            switch c {
            case "\\": s += "\\e"
            case "-": s += "\\-"
            default: s.append(c)
            }
        }
        if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
        return s
    }
}
