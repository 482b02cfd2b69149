"""(j) a 20000x10000 JPEG, PNG and TIFF to the fitted first frame, against feh (rows for scripts/bench/report.py)."""


def rows(b):
    for ext, name in (("jpg", "JPEG"), ("png", "PNG"), ("tif", "TIFF (one deflated strip)")):
        case = "j" + ext
        ow, fw = b.med(case, "ours", "wall"), b.med(case, "feh", "wall")
        orss, frss = b.med(case, "ours", "rss"), b.med(case, "feh", "rss")
        b.row(f"(j) 20000x10000 {name} to first frame in 1280x720, then exit", "wall time", b.fmt(ow, " s"),
              f"feh {b.fmt(fw, ' s')}", b.fmt(b.ratio(ow, fw), "x", 2), "<= 1.5 s",
              b.verdict(None if ow is None else ow <= 1.5))
        b.row("", "peak RSS", b.fmt(orss and orss / 1024, " MiB", 0), f"feh {b.fmt(frss and frss / 1024, ' MiB', 0)}",
              b.fmt(b.ratio(orss, frss), "x", 2), "<= 400 MiB", b.verdict(None if orss is None else orss / 1024 <= 400))
