"""(a2) 4K60 in real time: dropped frames, ours and mpv's (rows for scripts/bench/report.py)."""


def rows(b):
    od, md = b.values("a2", "ours", "dropped"), b.values("a2", "mpv", "dropped")
    shown = b.med("a2", "ours", "frames")
    b.row("(a2) 10 s 4K60 H.264 with sound into 1920x1080, real time, 2 cores", "dropped frames (max of runs)",
          b.fmt(max(od) if od else None, "", 0) + (f" of {shown + (max(od) if od else 0):.0f}" if shown else ""),
          f"mpv {b.fmt(max(md) if md else None, '', 0)}", "", "0", b.verdict(max(od) == 0 if od else None))
    oc, mc = b.med("a2", "ours", "cpu"), b.med("a2", "mpv", "cpu")
    b.row("", "CPU s (player + X server)", b.fmt(oc, " s", 2), f"mpv {b.fmt(mc, ' s', 2)}",
          b.fmt(b.ratio(oc, mc), "x", 2), "", "")
