#!/bin/bash
# scripts/bench.sh: mediaview side by side with mpv (and feh for stills).
#
# Makes its own media with ffmpeg (cached in bench-results/media), then runs the cases
# under a private Xvfb (display number below 10: mpv uses MIT-SHM only there) with a
# private PulseAudio null sink (scripts/testenv.sh's), each case BENCH_RUNS times,
# alternating ours and the peers, and prints a table of medians and ratios. The table
# goes to bench-results/latest.md and into docs/performance.md between the bench-table markers;
# every sample is kept in bench-results/samples.tsv.
#
#   (a) untimed display of 300 frames of 1080p30 H.264 into a 1280x720 window
#   (b) start to first frame of a 6000x4000 JPEG in a 1280x720 window, then exit
#   (c) 10 s of 720p30 with sound in real time: CPU (player + X server), peak RSS, drops
#   (d) presentNext to the next item's first frame, queue of image, gif, video, audio, video
#   (e) CPU (player + X server) while minimized, against FFmpeg decoding the same clip alone
#       in real time at the thumbnail's settings (one thread, no deblocking)
#   (a2) 10 s of 4K60 H.264 with sound in real time in 1920x1080: dropped frames (and mpv's)
#   (f) slide shows of 100 12 MP photos and 300 small PNGs, against feh
#   (g) A/V offset seen from outside (screen patch against recorded sound), and mpv's
#   (h) launch to the first frame of a 1080p video, seen from outside, against mpv
#   (i) peak RSS with 10,000 items queued against one
#   (j) start to first frame of a 20000x10000 JPEG (over the pixel budget), then exit, against feh
#   (m) frame times of the minimize and restore animations while a 720p video plays
#   (gallery) the gallery over 1,000 12 MP photos: thumbnails a second with an empty thumbnail
#       cache, and the first screen with a warm one (scripts/bench/case-gallery.sh)
#   (p) track preview latency: hover to picture on screen, local file, web, cached and reopened
#       (scripts/bench/case-p.sh)
#   (gl) (g) with two CPU hogs (stress-ng --cpu 2) running for the whole case
#   (k) a 24 MP progressive JPEG sent at 2 MB/s by a local HTTP server: time and share of the
#       file in at the first picture (scripts/bench/case-k.sh)
#
# Knobs (environment):
#   MEDIAVIEW_BIN     the program to measure (default .build/release/mediaview)
#   BENCH_RUNS        runs per case and program (default 5)
#   BENCH_A_RUNS      runs of (a), whose target lies within one run's noise of its floors
#                     (default four times BENCH_RUNS)
#   BENCH_CASES       which cases (default "a a2 a2l b c d e f g gl h i j k l m p gallery")
#   BENCH_MAX_LOAD    wait before each case until the 1-minute load is below this (0.5)
#   BENCH_LOAD_WAIT   but no longer than this many seconds (default 180)
#   BENCH_NO_DOCS     1 to leave docs/performance.md alone
#
# Timings are not assertions: the bench is never part of `make test`, and its exit status
# only says whether it could run.
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

export MEDIAVIEW_BIN=$(realpath -m "${MEDIAVIEW_BIN:-.build/release/mediaview}")
export BENCH_OUT="$repo/bench-results"
export BENCH_MEDIA="$BENCH_OUT/media"
export BENCH_RUNS=${BENCH_RUNS:-5}
export BENCH_CASES=${BENCH_CASES:-a a2 a2l b c d e f g gl h i j jz k l m p gallery}

[ -x "$MEDIAVIEW_BIN" ] || { echo "bench: no program at $MEDIAVIEW_BIN (make build)" >&2; exit 2; }
for tool in ffmpeg mpv feh Xvfb xdpyinfo xdotool pulseaudio python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench: $tool missing (make bench installs it)" >&2; exit 2; }
done

mkdir -p "$BENCH_MEDIA"
scripts/bench/make-media.sh "$BENCH_MEDIA" || { echo "bench: could not make the media" >&2; exit 2; }

# testenv gives us the null-sink PulseAudio daemon, private XDG directories and the
# cleanup; the X server is started by run-cases.sh itself (testenv's use numbers >= 90).
TESTENV_SERVICES=pulse TESTENV_QUIET=1 scripts/testenv.sh scripts/bench/run-cases.sh || exit $?

args=("$BENCH_OUT/samples.tsv" "$BENCH_OUT/latest.md")
[ "${BENCH_NO_DOCS:-0}" = 1 ] || args+=(--doc "$repo/docs/performance.md")
/usr/bin/python3 scripts/bench/report.py "${args[@]}"
