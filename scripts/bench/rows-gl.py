"""(gl) A/V offset seen from outside with two CPU hogs running, ours and mpv's."""
import statistics


def rows(b):
    def summary(subject):
        v = b.values("gl", subject, "offset_ms")
        if len(v) < 2:
            return None, None, len(v)
        return statistics.mean(v), statistics.stdev(v), len(v)

    om, osd, on = summary("ours")
    mm, msd, mn = summary("mpv")
    b.row("(gl) the same with two CPU hogs (stress-ng --cpu 2) for the whole case", "mean",
          b.fmt(om, " ms", 1), f"mpv {b.fmt(mm, ' ms', 1)}", "", "abs <= 10 ms",
          b.verdict(abs(om) <= 10 if om is not None else None))
    b.row("", f"standard deviation ({on} flashes; mpv {mn})", b.fmt(osd, " ms", 1), f"mpv {b.fmt(msd, ' ms', 1)}",
          "", "<= 5 ms", b.verdict(osd <= 5 if osd is not None else None))
