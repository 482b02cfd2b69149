"""(l) shared libraries mapped while a JPEG is shown (rows for scripts/bench/report.py)."""


def rows(b):
    o, m, f = b.med("l", "ours", "libraries"), b.med("l", "mpv", "libraries"), b.med("l", "feh", "libraries")
    of = b.med("l", "ours", "format_libraries")
    w = b.values("l", "worker", "libraries")
    b.row("(l) shared libraries mapped by the viewer process while it shows a 24 MP JPEG", "libraries",
          b.fmt(o, "", 0), f"mpv {b.fmt(m, '', 0)}, feh {b.fmt(f, '', 0)}", b.fmt(b.ratio(o, m), "x", 2), "<= 60",
          b.verdict(None if o is None else o <= 60))
    b.row("", "of them FFmpeg's codec or picture libraries", b.fmt(of, "", 0),
          f"each worker maps {', '.join(str(int(x)) for x in w) or 'n/a'}", "", "0",
          b.verdict(None if of is None else of == 0))
    fo, fm = b.med("lf", "ours", "libraries"), b.med("lf", "mpv", "libraries")
    fc = b.med("lf", "ours", "codec_libraries")
    b.row("(l) the same while a 720p film with sound plays (sandboxed)", "libraries", b.fmt(fo, "", 0),
          f"mpv {b.fmt(fm, '', 0)}", b.fmt(b.ratio(fo, fm), "x", 2), "", "")
    b.row("", "of them FFmpeg's demuxers and decoders or the codec libraries they link", b.fmt(fc, "", 0),
          "", "", "0", b.verdict(None if fc is None else fc == 0))
