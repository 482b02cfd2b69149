"""(a2) 4K60 in real time: dropped frames, ours and mpv's (rows for scripts/bench/report.py)."""


def drop_rows(b, case, title):
    """Frames dropped and CPU taken in `case`, ours beside mpv's; (a2l) shares them."""
    od, md = b.values(case, "ours", "dropped"), b.values(case, "mpv", "dropped")
    shown = b.med(case, "ours", "frames")
    b.row(title, "dropped frames (max of runs)",
          b.fmt(max(od) if od else None, "", 0) + (f" of {shown + (max(od) if od else 0):.0f}" if shown else ""),
          f"mpv {b.fmt(max(md) if md else None, '', 0)}", "", "0", b.verdict(max(od) == 0 if od else None))
    oc, mc = b.med(case, "ours", "cpu"), b.med(case, "mpv", "cpu")
    b.row("", "CPU s (player + X server)", b.fmt(oc, " s", 2), f"mpv {b.fmt(mc, ' s', 2)}",
          b.fmt(b.ratio(oc, mc), "x", 2), "", "")


def rows(b):
    drop_rows(b, "a2", "(a2) 10 s 4K60 H.264 with sound into 1920x1080, real time, 2 cores")
