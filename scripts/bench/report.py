#!/usr/bin/env python3
"""scripts/bench/report.py SAMPLES OUT.md [--doc docs/performance.md]

Turns the bench's samples (case, subject, metric, value per line) into a markdown table of
medians and ratios against the targets, prints it, writes OUT.md and, with --doc, replaces
the part of that page between the bench-table markers.

Cases kept in files of their own add their rows from scripts/bench/rows-NAME.py: each defines
`rows(b)`, where `b` is the Bench below (its samples and the helpers med, fmt, ratio, verdict,
row). Rows are ordered by case.
"""
import glob
import os
import platform
import random
import runpy
import statistics
import sys
import time
from collections import defaultdict

# Where each case's rows go in the table; cases not listed follow, by name.
ORDER = ["a", "a2", "a2l", "b", "c", "d", "e", "f", "g", "gl", "h", "i", "j", "jz", "k", "l", "m"]


class Bench:
    """The samples and the helpers a rows-NAME.py file builds its rows with."""

    def __init__(self, data, rows):
        self.data = data
        self._rows = rows
        self.case = None

    def values(self, case, subject, metric):
        return self.data.get((case, subject, metric), [])

    def med(self, case, subject, metric):
        v = self.data.get((case, subject, metric))
        return statistics.median(v) if v else None

    def paired(self, case, subject, base, metric):
        """The median of `subject`'s run-by-run ratios to `base` and its 95 % bootstrap interval
        (fixed seed, so a report is the same each time it is made), with the number of runs;
        None unless both have a sample in every run."""
        a, b = self.values(case, subject, metric), self.values(case, base, metric)
        if len(a) < 3 or len(a) != len(b) or 0 in b:
            return None
        ratios = [x / y for x, y in zip(a, b)]
        pick = random.Random(1)
        meds = sorted(statistics.median(pick.choices(ratios, k=len(ratios))) for _ in range(2000))
        return statistics.median(ratios), meds[50], meds[1949], len(ratios)

    @staticmethod
    def fmt(v, unit="", digits=3):
        return "n/a" if v is None else f"{v:.{digits}f}{unit}"

    @staticmethod
    def ratio(a, b):
        return a / b if a is not None and b not in (None, 0) else None

    @staticmethod
    def verdict(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    def row(self, *cells):
        self._rows.append((self.case, cells))


def main():
    args = sys.argv[1:]
    readme = None
    if "--doc" in args:
        i = args.index("--doc")
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

    collected = []  # (case, cells): case, measure, ours, peer, ratio, target, met
    b = Bench(data, collected)
    med, fmt, ratio, verdict = b.med, b.fmt, b.ratio, b.verdict

    def row(*cells):
        b.row(*cells)

    cases = sorted({k[0] for k in data})
    if "a" in cases:
        b.case = "a"
        frames = 300
        ow, mw, fw = med("a", "ours", "wall"), med("a", "mpv", "wall"), med("a", "ffmpeg", "wall")
        r2 = ratio(ow, fw)
        row("(a) 300 frames 1080p30 H.264 into 1280x720, untimed", "wall time", fmt(ow, " s"),
            f"ffmpeg decode only {fmt(fw, ' s')}", fmt(r2, "x", 2), "<= 1.10x", verdict(r2 and r2 <= 1.10))
        row("", "frames/s (wall clock)", fmt(frames / ow if ow else None, "", 1),
            f"mpv {fmt(frames / mw if mw else None, '', 1)}", fmt(ratio(mw, ow), "x", 2), "", "")
        sw = med("a", "ffscale", "wall")
        if sw:
            row("", "beside it: ffmpeg decoding and scaling into 1280x720 BGRX (bilinear), shown nowhere",
                fmt(sw, " s"), f"ffmpeg decode only {fmt(fw, ' s')}", fmt(ratio(sw, fw), "x", 2), "", "")
        for subject, what in (("floorshow", "the floor: FFmpeg's decode, each picture put in the window (decode-show.c)"),
                              ("floortouch", "the floor with a conversion's memory traffic, no arithmetic (decode-show.c)"),
                              ("floorfit", "the floor with the viewer's own scaling kernels, in the decoding process, "
                                           "no sandbox (decode-show.c)")):
            lw = med("a", subject, "wall")
            if lw:
                row("", f"beside it: {what}", fmt(lw, " s"), f"ffmpeg decode only {fmt(fw, ' s')}",
                    fmt(ratio(lw, fw), "x", 2), "", "")
        nw = med("a", "oursopen", "wall")
        if nw:
            row("", "beside it: the viewer with --sandbox=off, decoding in its own process", fmt(nw, " s"),
                f"ffmpeg decode only {fmt(fw, ' s')}", fmt(ratio(nw, fw), "x", 2), "", "")
        # The machine's speed drifts between runs by more than the target's distance from
        # its floors, so each subject is also set against the FFmpeg decode of its own run.
        for subject, what in (("ours", "the viewer"), ("oursopen", "the viewer with --sandbox=off"),
                              ("floorshow", "the floor, pictures put in the window"),
                              ("floortouch", "the floor with a conversion's memory traffic"),
                              ("floorfit", "the floor with the viewer's kernels")):
            paired = b.paired("a", subject, "ffmpeg", "wall")
            if paired:
                mid, low, high, n = paired
                row("", f"run by run against that run's FFmpeg decode, median of {n} [95 % interval]: {what}",
                    fmt(mid, "x", 3), f"[{fmt(low, '', 3)}, {fmt(high, '', 3)}]", "", "", "")
        # With both cores busy, wall time follows the CPU the machine spends: where each
        # subject's time goes beyond FFmpeg's own decode.
        fb = med("a", "ffmpeg", "busy")
        for subject, what in (("ours", "the viewer"), ("oursopen", "the viewer with --sandbox=off"),
                              ("floorfit", "the floor with the viewer's kernels"),
                              ("floortouch", "the floor with a conversion's memory traffic")):
            sb = med("a", subject, "busy")
            if sb and fb:
                row("", f"busy CPU of the whole machine (X server too): {what}", fmt(sb, " s"),
                    f"ffmpeg decode only {fmt(fb, ' s')}", fmt(ratio(sb, fb), "x", 2), "", "")
    if "b" in cases:
        b.case = "b"
        ow, mw, fw = med("b", "ours", "wall"), med("b", "mpv", "wall"), med("b", "feh", "wall")
        r1, r2 = ratio(ow, mw), ratio(ow, fw)
        row("(b) 6000x4000 JPEG to first frame in 1280x720, then exit", "wall time", fmt(ow, " s"),
            f"mpv {fmt(mw, ' s')}", fmt(r1, "x", 2), "<= 0.25x", verdict(r1 and r1 <= 0.25))
        row("", "wall time", fmt(ow, " s"), f"feh {fmt(fw, ' s')}", fmt(r2, "x", 2), "<= 0.5x",
            verdict(r2 and r2 <= 0.5))
        orss, mrss, frss = med("b", "ours", "rss"), med("b", "mpv", "rss"), med("b", "feh", "rss")
        row("", "peak RSS", fmt(orss and orss / 1024, " MiB", 0),
            f"mpv {fmt(mrss and mrss / 1024, ' MiB', 0)}, feh {fmt(frss and frss / 1024, ' MiB', 0)}",
            fmt(ratio(orss, mrss), "x", 2), "", "")
        # The floor: libjpeg-turbo and Xlib alone (scripts/bench/jpeg-first.c), no scaling.
        lw = med("b", "floor", "wall")
        if lw:
            row("", "floor: libjpeg-turbo and Xlib alone, decoded at 1/4 and put in a window (a C program)",
                fmt(lw, " s"), f"mpv {fmt(mw, ' s')}", fmt(ratio(lw, mw), "x", 2), "", "")
    if "c" in cases:
        b.case = "c"
        oc, mc = med("c", "ours", "cpu"), med("c", "mpv", "cpu")
        orss, mrss = med("c", "ours", "rss"), med("c", "mpv", "rss")
        od, md = data.get(("c", "ours", "dropped"), []), data.get(("c", "mpv", "dropped"), [])
        r1, r2 = ratio(oc, mc), ratio(orss, mrss)
        row("(c) 10 s 720p30 with sound, real time", "CPU s (player + X server)", fmt(oc, " s", 2),
            f"mpv {fmt(mc, ' s', 2)}", fmt(r1, "x", 2), "<= 0.6x", verdict(r1 and r1 <= 0.6))
        # The floor (decode-show.c play): decoding, the window's memory traffic and the X
        # server's copies in real time, nothing else a player does.
        lc = med("c", "floor", "cpu")
        if lc:
            row("", "floor: FFmpeg's decode in real time, each picture written and put (decode-show.c), CPU s with the X server",
                fmt(lc, " s", 2), f"mpv {fmt(mc, ' s', 2)}", fmt(ratio(lc, mc), "x", 2), "", "")
        # The same with what no player leaves out (decode-show.c hear): the conversion's
        # arithmetic (libswscale) and the sound resampled and played through PulseAudio.
        lh = med("c", "floorhear", "cpu")
        if lh:
            row("", "floor with the picture converted (libswscale) and the sound played (PulseAudio), CPU s with the X server",
                fmt(lh, " s", 2), f"mpv {fmt(mc, ' s', 2)}", fmt(ratio(lh, mc), "x", 2), "", "")
        row("", "peak RSS of the player alone", fmt(orss and orss / 1024, " MiB", 0),
            f"mpv {fmt(mrss and mrss / 1024, ' MiB', 0)}", fmt(r2, "x", 2), "", "")
        opss, mpss = med("c", "ours", "pss"), med("c", "mpv", "pss")
        r3 = ratio(opss, mpss)
        row("", "peak PSS, player and its workers", fmt(opss and opss / 1024, " MiB", 0),
            f"mpv {fmt(mpss and mpss / 1024, ' MiB', 0)}", fmt(r3, "x", 2), "<= 0.6x", verdict(r3 and r3 <= 0.6))
        row("", "dropped frames (max of runs)", fmt(max(od) if od else None, "", 0),
            f"mpv {fmt(max(md) if md else None, '', 0)}", "", "0", verdict(max(od) == 0 if od else None))
    if "d" in cases:
        b.case = "d"
        keys = sorted({k[2] for k in data if k[0] == "d" and k[2].startswith("next_ms_")})
        for k in keys:
            m = med("d", "ours", k)
            _, _, idx, kind = k.split("_", 3)
            row("(d) presentNext to the next item's first frame" if k == keys[0] else "",
                f"to item {int(idx) + 1} ({kind})", fmt(m, " ms", 1), "", "", "<= 16 ms", verdict(m <= 16))
    if "e" in cases:
        b.case = "e"
        fs, mn = med("e", "ours", "cpu_fullscreen"), med("e", "ours", "cpu_minimized")
        dec = med("e", "ffmpeg", "cpu_decode")
        r = ratio(mn, dec)
        row("(e) minimized, 720p30 with sound", "CPU (player, its workers + X server), share of a core",
            f"minimized {fmt(mn and mn * 100, ' %', 0)} (fullscreen {fmt(fs and fs * 100, ' %', 0)})",
            f"ffmpeg decoding alone at the thumbnail's settings {fmt(dec and dec * 100, ' %', 0)}",
            fmt(r, "x", 2), "<= 1.15x", verdict(r and r <= 1.15))
    if "m" in cases:
        b.case = "m"
        p95, worst = med("m", "ours", "frame_p95_ms"), med("m", "ours", "frame_max_ms")
        row("(m) minimize and restore animation, 720p playing", "frame interval p95", fmt(p95, " ms", 1),
            f"longest {fmt(worst, ' ms', 1)}", "", "<= 16.7 ms", verdict(p95 and p95 <= 16.7))

    for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rows-*.py"))):
        b.case = os.path.basename(path)[len("rows-"):-len(".py")]
        if b.case in cases:
            runpy.run_path(path)["rows"](b)

    def position(case):
        return (ORDER.index(case), "") if case in ORDER else (len(ORDER), case)

    rows = [cells for _, cells in sorted(collected, key=lambda r: position(r[0]))]

    # The runs asked for; (g) keeps a sample per flash, so the samples cannot tell.
    runs = os.environ.get("BENCH_RUNS") or max((len(v) for k, v in data.items() if k[1] == "ours"), default=0)
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
    missing = [c for c in ORDER if c not in cases]
    if missing:
        lines += ["", "Not measured in this run: " + ", ".join(f"({c})" for c in missing) + "."]
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
