"""The table rows of bench case (g), the gallery (scripts/bench/gallery.sh)."""


def gallery_rows(med):
    def fmt(v, unit, digits):
        return "n/a" if v is None else f"{v:.{digits}f}{unit}"

    def verdict(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    rate = med("g", "ours", "cold_thumbnails_per_s")
    cold = med("g", "ours", "cold_first_screen_ms")
    warm = med("g", "ours", "warm_first_screen_ms")
    cells = med("g", "ours", "warm_first_screen_cells")
    cpu = med("g", "ours", "cold_cpu_ms_per_thumbnail")
    return [
        ("(g) gallery of 1,000 12 MP JPEGs, 1280x720", "thumbnails made a second, empty cache",
         fmt(rate, "/s", 1), "", "", ">= 50/s", verdict(rate and rate >= 50)),
        ("", "player CPU a thumbnail, empty cache", fmt(cpu, " ms", 1),
         f"estimate with both cores free: {fmt(cpu and 2000 / cpu, '/s', 0)}", "", "", ""),
        ("", "first screen, empty cache", fmt(cold, " ms", 0), "", "", "", ""),
        ("", f"first screen, warm cache ({fmt(cells, ' cells', 0)})", fmt(warm, " ms", 0), "", "", "<= 300 ms",
         verdict(warm and warm <= 300)),
    ]
