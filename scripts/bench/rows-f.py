"""(f) slide shows against feh (rows for scripts/bench/report.py)."""


def rows(b):
    for metric, label, target, limit in (
            # The performance pass's targets, stricter than the sandbox's 0.5x and 2x.
            ("wall_browse12mp", "100 x 12 MP JPEG", "<= 0.4x", 0.4),
            ("wall_browsepng", "300 x small PNG", "<= 1.0x", 1.0)):
        o, f = b.med("f", "ours", metric), b.med("f", "feh", metric)
        r = b.ratio(o, f)
        b.row("(f) browsing, --autoexit --image-duration 0.001" if metric == "wall_browse12mp" else "",
              f"{label}, wall time", b.fmt(o, " s", 2), f"feh {b.fmt(f, ' s', 2)}", b.fmt(r, "x", 2), target,
              b.verdict(None if r is None else r <= limit))
