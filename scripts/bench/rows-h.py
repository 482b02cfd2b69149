"""(h) launch to the first frame of a 1080p video, against mpv (rows for scripts/bench/report.py)."""


def rows(b):
    o, m = b.med("h", "ours", "wall"), b.med("h", "mpv", "wall")
    r = b.ratio(o, m)
    b.row("(h) launch to the first frame of a 1080p video (seen on screen)", "wall time", b.fmt(o, " s"),
          f"mpv {b.fmt(m, ' s')}", b.fmt(r, "x", 2), "<= 0.5x", b.verdict(None if r is None else r <= 0.5))
    # The floor: FFmpeg and Xlib alone (scripts/bench/first-picture.c), nothing else a player does.
    f = b.med("h", "floor", "wall")
    if f is not None:
        b.row("", "floor: FFmpeg's libraries and Xlib alone, first picture put in a window (a C program)",
              b.fmt(f, " s"), f"mpv {b.fmt(m, ' s')}", b.fmt(b.ratio(f, m), "x", 2), "", "")
