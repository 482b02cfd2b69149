#!/usr/bin/env python3
"""scripts/bench/report.py SAMPLES OUT.md [--readme README.md]

Turns the bench's samples (case, subject, metric, value per line) into a markdown table of
medians and ratios against the targets of issue 6, prints it, writes OUT.md and, with
--readme, replaces the part of the README between the bench-table markers.
"""
import os
import platform
import statistics
import sys
import time
from collections import defaultdict


def main():
    args = sys.argv[1:]
    readme = None
    if "--readme" in args:
        i = args.index("--readme")
        readme = args[i + 1]
        del args[i:i + 2]
    samples_path, out_path = args
    data = defaultdict(list)
    for line in open(samples_path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 4 or parts[3] == "":
            continue
        try:
            data[(parts[0], parts[1], parts[2])].append(float(parts[3]))
        except ValueError:
            pass

    def med(case, subject, metric):
        v = data.get((case, subject, metric))
        return statistics.median(v) if v else None

    def n(case, subject, metric):
        return len(data.get((case, subject, metric), []))

    def fmt(v, unit="", digits=3):
        if v is None:
            return "n/a"
        return f"{v:.{digits}f}{unit}"

    def ratio(a, b):
        return a / b if a is not None and b not in (None, 0) else None

    def verdict(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    rows = []  # case, measure, ours, peer, ratio, target, met

    def row(*cells):
        rows.append(cells)

    cases = sorted({k[0] for k in data})
    if "a" in cases:
        frames = 300
        ow, mw, fw = med("a", "ours", "wall"), med("a", "mpv", "wall"), med("a", "ffmpeg", "wall")
        ofps = frames / ow if ow else None
        mfps = frames / mw if mw else None
        r1, r2 = ratio(ofps, mfps), ratio(ow, fw)
        row("(a) 300 frames 1080p30 H.264 into 1280x720, untimed", "frames/s (wall clock)",
            fmt(ofps, "", 1), f"mpv {fmt(mfps, '', 1)}", fmt(r1, "x", 2), ">= 1.5x", verdict(r1 and r1 >= 1.5))
        row("", "wall time", fmt(ow, " s"), f"ffmpeg decode only {fmt(fw, ' s')}", fmt(r2, "x", 2), "<= 1.25x",
            verdict(r2 and r2 <= 1.25))
    if "b" in cases:
        ow, mw, fw = med("b", "ours", "wall"), med("b", "mpv", "wall"), med("b", "feh", "wall")
        r1, r2 = ratio(ow, mw), ratio(ow, fw)
        row("(b) 6000x4000 JPEG to first frame in 1280x720, then exit", "wall time", fmt(ow, " s"),
            f"mpv {fmt(mw, ' s')}", fmt(r1, "x", 2), "<= 0.5x", verdict(r1 and r1 <= 0.5))
        row("", "wall time", fmt(ow, " s"), f"feh {fmt(fw, ' s')}", fmt(r2, "x", 2), "<= 1x", verdict(r2 and r2 <= 1))
        orss, mrss, frss = med("b", "ours", "rss"), med("b", "mpv", "rss"), med("b", "feh", "rss")
        row("", "peak RSS", fmt(orss and orss / 1024, " MiB", 0),
            f"mpv {fmt(mrss and mrss / 1024, ' MiB', 0)}, feh {fmt(frss and frss / 1024, ' MiB', 0)}",
            fmt(ratio(orss, mrss), "x", 2), "", "")
    if "c" in cases:
        oc, mc = med("c", "ours", "cpu"), med("c", "mpv", "cpu")
        orss, mrss = med("c", "ours", "rss"), med("c", "mpv", "rss")
        od, md = data.get(("c", "ours", "dropped"), []), data.get(("c", "mpv", "dropped"), [])
        r1, r2 = ratio(oc, mc), ratio(orss, mrss)
        row("(c) 10 s 720p30 with sound, real time", "CPU s (player + X server)", fmt(oc, " s", 2),
            f"mpv {fmt(mc, ' s', 2)}", fmt(r1, "x", 2), "<= 0.8x", verdict(r1 and r1 <= 0.8))
        row("", "peak RSS", fmt(orss and orss / 1024, " MiB", 0), f"mpv {fmt(mrss and mrss / 1024, ' MiB', 0)}",
            fmt(r2, "x", 2), "<= 0.8x", verdict(r2 and r2 <= 0.8))
        row("", "dropped frames (max of runs)", fmt(max(od) if od else None, "", 0),
            f"mpv {fmt(max(md) if md else None, '', 0)}", "", "0", verdict(max(od) == 0 if od else None))
    if "d" in cases:
        keys = sorted({k[2] for k in data if k[0] == "d" and k[2].startswith("next_ms_")})
        worst = None
        for k in keys:
            m = med("d", "ours", k)
            _, _, idx, kind = k.split("_", 3)
            worst = m if worst is None else max(worst, m)
            row("(d) presentNext to the next item's first frame" if k == keys[0] else "",
                f"to item {int(idx) + 1} ({kind})", fmt(m, " ms", 1), "", "", "<= 50 ms", verdict(m <= 50))
    if "e" in cases:
        fs, mn = med("e", "ours", "cpu_fullscreen"), med("e", "ours", "cpu_minimized")
        r = ratio(mn, fs)
        row("(e) CPU minimized vs fullscreen, 720p30 with sound", "CPU (player + X server), share of a core",
            f"minimized {fmt(mn and mn * 100, ' %', 0)}", f"fullscreen {fmt(fs and fs * 100, ' %', 0)}",
            fmt(r, "x", 2), "<= 0.5x", verdict(r and r <= 0.5))

    if "m" in cases:
        p95, worst = med("m", "ours", "frame_p95_ms"), med("m", "ours", "frame_max_ms")
        row("(m) minimize and restore animation, 720p playing", "frame interval p95", fmt(p95, " ms", 1),
            f"longest {fmt(worst, ' ms', 1)}", "", "<= 16.7 ms", verdict(p95 and p95 <= 16.7))

    if "p" in cases:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import previews_report
        for r in previews_report.rows(med, fmt, verdict):
            row(*r)

    runs = max((len(v) for k, v in data.items() if k[1] == "ours"), default=0)
    loads = [v for k, vs in data.items() if k[1:] == ("machine", "load") for v in vs]
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    head = ["case", "measure", "mediaview", "peer", "ratio", "target", "met"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    note = (f"Medians of {runs} runs each, ours and the peers alternating; {time.strftime('%Y-%m-%d')}, "
            f"{cpu}, {os.cpu_count()} cores, Linux {platform.release()}, Xvfb 1920x1080x24 with MIT-SHM, "
            f"no GPU; 1-minute load before the cases: {', '.join(f'{l:.2f}' for l in loads) or 'n/a'}. "
            "Wall times include process start and exit. Peers: Debian's mpv with --no-config "
            "(--vo=x11 --hwdec=no), feh, ffmpeg.")
    table = "\n".join(lines) + "\n\n" + note + "\n"
    print(table)
    with open(out_path, "w") as f:
        f.write("# mediaview bench\n\nMade by `make bench` (scripts/bench.sh).\n\n" + table)
    if readme:
        text = open(readme).read()
        start, end = "<!-- bench-table -->", "<!-- /bench-table -->"
        a, b = text.find(start), text.find(end)
        if a >= 0 and b > a:
            text = text[:a + len(start)] + "\n" + table + text[b:]
            with open(readme, "w") as f:
                f.write(text)


if __name__ == "__main__":
    main()
