"""(g) A/V offset seen from outside, ours and mpv's (rows for scripts/bench/report.py)."""
import statistics


def offset_rows(b, case, title):
    """The mean and spread of the offsets of `case`, ours beside mpv's; (gl) shares them."""
    def summary(subject):
        v = b.values(case, subject, "offset_ms")
        if len(v) < 2:
            return None, None, len(v)
        return statistics.mean(v), statistics.stdev(v), len(v)

    om, osd, on = summary("ours")
    mm, msd, mn = summary("mpv")
    b.row(title, "mean", b.fmt(om, " ms", 1), f"mpv {b.fmt(mm, ' ms', 1)}", "", "abs <= 10 ms",
          b.verdict(abs(om) <= 10 if om is not None else None))
    b.row("", f"standard deviation ({on} flashes; mpv {mn})", b.fmt(osd, " ms", 1), f"mpv {b.fmt(msd, ' ms', 1)}",
          "", "<= 5 ms", b.verdict(osd <= 5 if osd is not None else None))


def rows(b):
    offset_rows(b, "g", "(g) A/V offset, screen patch against recorded sound (sound minus picture)")
