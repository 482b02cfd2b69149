import Viewer

/// The manual page, `mediaview.1`, written from the same option table as `--help`, so the
/// two cannot disagree: `make install` runs `mediaview --man-page` to make it.
extension ProgramOptions {
    /// The manual page as roff (man macros).
    public static func manPage(version: String) -> String {
        var out = [
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
            ".SH OPTIONS",
        ]
        for group in groupOrder {
            out.append(".SS \(escape(group))")
            for spec in optionTable where spec.group == group {
                out.append(".TP")
                out.append("\\fB\(escape(spec.name))\\fR" + (spec.valueName.map { " \\fI\(escape($0))\\fR" } ?? ""))
                out.append(escape(spec.help))
            }
        }
        out.append(".SH KEYS")
        out.append("The built-in bindings (mpv's input.conf syntax), which")
        out.append(".I $XDG_CONFIG_HOME/mediaview/input.conf")
        out.append("or \\fB\\-\\-input\\-conf\\fR changes:")
        out.append(".PP")
        out.append(".nf")
        for line in InputBindings.defaults.listing().split(separator: "\n") where !line.hasPrefix("#") {
            out.append(escape(String(line)))
        }
        out.append(".fi")
        out += [
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
            ".SH EXIT STATUS",
            "0 when every item played, 1 when some item failed (each failure says why on stderr),",
            "2 for bad usage or no X display.",
            ".SH SEE ALSO",
            ".BR mpv (1)",
        ]
        return out.joined(separator: "\n") + "\n"
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
