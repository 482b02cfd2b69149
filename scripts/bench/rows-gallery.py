"""The table rows of bench case (gallery) (scripts/bench/case-gallery.sh)."""


def rows(b):
    med = b.med
    def fmt(v, unit, digits):
        return "n/a" if v is None else f"{v:.{digits}f}{unit}"

    def verdict(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    rate = med("gallery", "ours", "cold_thumbnails_per_s")
    cold = med("gallery", "ours", "cold_first_screen_ms")
    warm = med("gallery", "ours", "warm_first_screen_ms")
    cells = med("gallery", "ours", "warm_first_screen_cells")
    cpu = med("gallery", "ours", "cold_cpu_ms_per_thumbnail")
    for cells in [
        ("(gallery) gallery of 1,000 12 MP JPEGs, 1280x720", "thumbnails made a second, empty cache",
         fmt(rate, "/s", 1), "", "", ">= 150/s", verdict(rate and rate >= 150)),
        ("", "player CPU a thumbnail, empty cache", fmt(cpu, " ms", 1),
         f"estimate with both cores free: {fmt(cpu and 2000 / cpu, '/s', 0)}", "", "", ""),
        ("", "first screen, empty cache", fmt(cold, " ms", 0), "", "", "", ""),
        ("", f"first screen, warm cache ({fmt(cells, ' cells', 0)})", fmt(warm, " ms", 0), "", "", "<= 300 ms",
         verdict(warm and warm <= 300)),
    ]:
        b.row(*cells)
