"""(jz) the 20000x10000 pictures of (j) zoomed to 1:1, panned to far places and dragged (rows for scripts/bench/report.py)."""


def rows(b):
    for ext, name in (("jpg", "JPEG"), ("png", "PNG"), ("tif", "TIFF (one deflated strip)")):
        case = "jz" + ext
        zoom, pan = b.med(case, "ours", "zoom_ms"), b.med(case, "ours", "pan_ms")
        pans = sorted(b.values(case, "ours", "pan_ms"))
        worst = pans[-1] if pans else None
        drag, pss = b.med(case, "ours", "drag_p95_ms"), b.med(case, "ours", "pss")
        b.row(f"(jz) 20000x10000 {name} in 1280x720: 1:1, then jumps to far places, then a drag",
              "1:1 sharp after the key", b.fmt(zoom, " ms", 0), "", "", "<= 100 ms",
              b.verdict(None if zoom is None else zoom <= 100))
        b.row("", "a far place sharp after the pan (median; slowest)", f"{b.fmt(pan, ' ms', 0)}; {b.fmt(worst, ' ms', 0)}",
              "", "", "<= 100 ms", b.verdict(None if worst is None else worst <= 100))
        b.row("", "frame interval while dragging, p95", b.fmt(drag, " ms", 1), "", "", "<= 33 ms",
              b.verdict(None if drag is None else drag <= 33))
        b.row("", "peak PSS, viewer and workers", b.fmt(pss and pss / 1024, " MiB", 0), "", "", "<= 400 MiB",
              b.verdict(None if pss is None else pss / 1024 <= 400))
