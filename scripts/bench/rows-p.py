"""Rows of the bench table for case (p), track preview latency (scripts/bench/case-p.sh).

Each metric is the median over the runs of each run's p95 wait, in milliseconds, from the
pointer's motion event to the draw that showed the preview (the program's event log).
"""


def rows(b):
    med, fmt, verdict = b.med, b.fmt, b.verdict
    out = []
    cases = [
        ("local_new", "local file, a new place", 100.0),
        ("local_cached", "local file, a place shown before", 16.7),
        ("web_new", "web (local test server, byte ranges), a new place", 300.0),
        ("web_cached", "web, a place shown before", 16.7),
        ("web_reopened_new", "web, opened again (previews from the disk cache)", 300.0),
    ]
    for key, label, target in cases:
        p95 = med("p", "ours", key + "_p95_ms")
        if p95 is None:
            continue
        misses = med("p", "ours", key + "_misses")
        peer = f"{fmt(misses, '', 0)} missed" if misses else ""
        out.append(("(p) track preview, paused 720p in 1280x720" if not out else "",
                    f"{label}: p95 wait", fmt(p95, " ms", 1), peer, "", f"<= {target:g} ms",
                    verdict(p95 <= target)))
    for cells in out:
        b.row(*cells)
