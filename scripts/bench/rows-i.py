"""(i) peak RSS with 10,000 items queued against one (rows for scripts/bench/report.py)."""


def rows(b):
    one, many = b.med("i", "ours", "rss_1"), b.med("i", "ours", "rss_10000")
    extra = (many - one) / 1024 if one is not None and many is not None else None
    b.row("(i) a queue of 10,000 items", "peak RSS", b.fmt(many and many / 1024, " MiB", 1),
          f"queue of 1: {b.fmt(one and one / 1024, ' MiB', 1)}", f"+{b.fmt(extra, ' MiB', 1)}",
          "<= +20 MiB", b.verdict(None if extra is None else extra <= 20))
