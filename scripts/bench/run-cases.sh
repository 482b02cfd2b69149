#!/bin/bash
# scripts/bench/run-cases.sh: the measurements of scripts/bench.sh, run inside
# scripts/testenv.sh (PulseAudio null sink, private XDG directories). Starts its own Xvfb
# below display 10 (mpv uses MIT-SHM only there) and stops only what it started.
# Appends one line per sample to $BENCH_OUT/samples.tsv: case, subject, metric, value.
set -u
mv=$MEDIAVIEW_BIN
media=$BENCH_MEDIA
runs=$BENCH_RUNS
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
samples="$BENCH_OUT/samples.tsv"
work=$(mktemp -d /tmp/mvbench.XXXXXX)
geom=1280x720+0+0
xpid=
xnum=
hogs=

cleanup() {
    hogs_stop
    [ -n "$xpid" ] && { kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null; }
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { echo "bench: $*" >&2; }

# ------------------------------------------------------------------- X server
for n in 1 2 3 4 5 6 7 8 9; do
    [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] && continue
    # -br: a black root, so the patch probe of (g) and (h) never mistakes the default weave
    # for a white patch.
    Xvfb ":$n" -screen 0 1920x1080x24 -br -nolisten tcp -noreset -dpi 96 +extension MIT-SHM \
        >"$work/xvfb.log" 2>&1 &
    xpid=$!
    for i in $(seq 100); do
        kill -0 "$xpid" 2>/dev/null || break
        if [ "$(tr -d ' ' 2>/dev/null <"/tmp/.X$n-lock")" = "$xpid" ] && DISPLAY=":$n" xdpyinfo >/dev/null 2>&1; then
            xnum=$n
            break
        fi
        sleep 0.1
    done
    [ -n "$xnum" ] && break
    kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null; xpid=
done
[ -n "$xnum" ] || { say "no free X display number below 10"; exit 125; }
export DISPLAY=":$xnum"
say "Xvfb $DISPLAY (1920x1080) pid $xpid, PulseAudio $PULSE_SERVER"

# ------------------------------------------------------------------- helpers
: >"$samples"
record() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$samples"; }

# CPU ticks (user + system) of a process so far.
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# CPU ticks of a process and every process below it (a player's decode workers), so far.
# A worker that ended in between takes its ticks with it; the cases using this keep the
# same workers throughout.
tree_ticks() {
    python3 - "$1" <<'PY'
import os, sys
root, kids, ticks = int(sys.argv[1]), {}, {}
for p in filter(str.isdigit, os.listdir("/proc")):
    try:
        s = open(f"/proc/{p}/stat").read()
    except OSError:
        continue
    f = s[s.rfind(")") + 2:].split()
    kids.setdefault(int(f[1]), []).append(int(p))
    ticks[int(p)] = int(f[11]) + int(f[12])
total, todo = 0, [root]
while todo:
    p = todo.pop()
    total += ticks.get(p, 0)
    todo += kids.get(p, [])
print(total)
PY
}
hz=$(getconf CLK_TCK)

# Seconds between two $EPOCHREALTIME readings.
elapsed() { python3 -c "print(f'{$2 - $1:.4f}')"; }

# Waits for a quiet machine, as far as BENCH_LOAD_WAIT allows.
quiet() {
    local max=${BENCH_MAX_LOAD:-0.5} waited=0 load
    while :; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        python3 -c "import sys; sys.exit(0 if $load < $max else 1)" && break
        [ "$waited" -ge "${BENCH_LOAD_WAIT:-180}" ] && { say "load still $load; measuring anyway"; break; }
        sleep 5; waited=$((waited + 5))
    done
    record "$1" machine load "$(cut -d' ' -f1 /proc/loadavg)"
}

# CPU hogs for the cases measured on a busy machine (a build, a browser tab): N stress-ng
# workers, stopped by the PID started here.
hogs_start() {
    stress-ng --cpu "$1" --quiet &
    hogs=$!
    record "$2" machine hogs "$1"
}
hogs_stop() {
    [ -n "$hogs" ] && { kill "$hogs" 2>/dev/null; wait "$hogs" 2>/dev/null; }
    hogs=
}

# Busy CPU time of the whole machine so far, in ticks: every process, the X server's too.
machine_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

# Runs a command under /usr/bin/time: sets $wall (s), $cpu (s), $rss (KiB), $xcpu (s, X server),
# $busy (s, the machine's busy CPU while it ran: with both cores busy, wall time follows it).
timed() {
    local x0 x1 t0 t1 m0 m1 runner sampler
    x0=$(ticks "$xpid")
    m0=$(machine_ticks)
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" </dev/null &
    runner=$!
    # With BENCH_PSS set, the peak PSS of the program and its helpers (decode workers).
    if [ -n "${BENCH_PSS:-}" ]; then
        python3 "$here/pss-peak.py" "$runner" "$work/pss" & sampler=$!
    fi
    wait "$runner"
    local status=$?
    [ -n "${sampler:-}" ] && { wait "$sampler"; pss=$(cat "$work/pss"); }
    t1=$EPOCHREALTIME
    m1=$(machine_ticks)
    x1=$(ticks "$xpid")
    wall=$(elapsed "$t0" "$t1")
    read -r u s rss < <(tail -1 "$work/time")
    cpu=$(python3 -c "print(f'{$u + $s:.2f}')")
    xcpu=$(python3 -c "print(f'{($x1 - $x0) / $hz:.2f}')")
    busy=$(python3 -c "print(f'{($m1 - $m0) / $hz:.2f}')")
    [ $status = 0 ] || say "$1 exited with $status: $(tail -2 "$work/err" | tr '\n' ' ')"
    return $status
}

# Waits for an event line matching the regex in the log; fails after $3 seconds.
wait_event() {
    local i
    for i in $(seq $(( ${3:-10} * 50 ))); do
        grep -q -E "$2" "$1" 2>/dev/null && return 0
        sleep 0.02
    done
    return 1
}

# Waits until a file has a line matching the regex; fails after $3 seconds.
wait_file_line() { wait_event "$@"; }

# The outside observer of (g) and (h), built once a run from scripts/bench/patch-probe.c.
probe=
probe_tool() {
    [ -n "$probe" ] && return 0
    local compiler
    compiler=$(command -v cc || command -v clang) || { say "no C compiler for the patch probe"; return 1; }
    "$compiler" -O2 -o "$work/patch-probe" "$here/patch-probe.c" -lX11 -lm 2>"$work/cc-err" ||
        { say "cannot build the patch probe: $(head -1 "$work/cc-err")"; return 1; }
    probe=$work/patch-probe
}

# build_c_tool VAR NAME WHAT PACKAGE...: builds scripts/bench/NAME.c once a run against the
# pkg-config packages, with the compiler flags in $c_tool_extra if set, and sets VAR to the
# program; says so and fails when it cannot.
build_c_tool() {
    local var=$1 name=$2 what=$3 compiler flags
    shift 3
    [ -n "${!var}" ] && return 0
    compiler=$(command -v cc || command -v clang) || return 1
    flags=$(pkg-config --cflags --libs "$@") || return 1
    # shellcheck disable=SC2086
    "$compiler" -O2 ${c_tool_extra:-} -o "$work/$name" "$here/$name.c" $flags -lpthread 2>"$work/cc-err" ||
        { say "cannot build $what: $(head -1 "$work/cc-err")"; return 1; }
    printf -v "$var" '%s' "$work/$name"
}

mpv_common=(mpv --no-config --vo=x11 --hwdec=no --geometry=$geom --really-quiet)

# ------------------------------------------------ (b) 24 MP JPEG to first frame
case_b() {
    local img=$media/still24mp.jpg r
    quiet b
    floor_jpeg_tool || true
    for r in $(seq "$runs"); do
        timed "$mv" --frames 1 --windowed --geometry $geom "$img" && record b ours wall "$wall" &&
            record b ours rss "$rss"
        timed "${mpv_common[@]}" --frames=1 --image-display-duration=0 "$img" && record b mpv wall "$wall" &&
            record b mpv rss "$rss"
        # feh 3.x: a slide show of one picture that quits when it would move on.
        timed feh --no-menus --geometry $geom --scale-down --on-last-slide quit --slideshow-delay 0.01 "$img" &&
            record b feh wall "$wall" && record b feh rss "$rss"
        if [ -n "$floor_jpeg" ]; then
            timed "$floor_jpeg" "$img" 1280 720 && record b floor wall "$wall"
        fi
    done
}

# The floor of (b), built once a run from scripts/bench/jpeg-first.c: libjpeg-turbo and Xlib
# alone, the picture decoded at the scale the window needs and put in it once.
floor_jpeg=
floor_jpeg_tool() { build_c_tool floor_jpeg jpeg-first "the (b) floor" libjpeg x11 xext; }

# ------------------------------------------------- (c) 10 s of 720p30 with sound
case_c() {
    local clip=$media/video720.mp4 r
    quiet c
    floor_show_tool || true
    for r in $(seq "$runs"); do
        rm -f "$work/events"
        if BENCH_PSS=1 timed "$mv" --windowed --geometry $geom --autoexit --events "$work/events" "$clip"; then
            record c ours cpu "$(python3 -c "print($cpu + $xcpu)")"
            record c ours rss "$rss"
            record c ours pss "$pss"
            record c ours wall "$wall"
            record c ours dropped "$(sed -n 's/.*"event":"stats".*"dropped":\([0-9]*\).*/\1/p' "$work/events")"
        fi
        rm -f "$work/mpvstats"
        if BENCH_PSS=1 MV_BENCH_STATS="$work/mpvstats" timed "${mpv_common[@]}" --ao=pulse --script="$here/mpv-stats.lua" "$clip"; then
            record c mpv cpu "$(python3 -c "print($cpu + $xcpu)")"
            record c mpv rss "$rss"
            record c mpv pss "$pss"
            record c mpv wall "$wall"
            record c mpv dropped "$(awk '$1 == "frame-drop-count" || $1 == "decoder-frame-drop-count" { n += $2 } END { print n + 0 }' "$work/mpvstats")"
        fi
        # The floor: FFmpeg's decode of both streams on one thread each and the window's
        # picture written and put at each frame's time, in one process; no sound output.
        if [ -n "$floor_show" ] && timed "$floor_show" "$clip" 0 play; then
            record c floor cpu "$(python3 -c "print($cpu + $xcpu)")"
        fi
        # And with what a player cannot leave out: the conversion's arithmetic and the sound
        # played through PulseAudio.
        if [ -n "$floor_show" ] && timed "$floor_show" "$clip" 0 hear; then
            record c floorhear cpu "$(python3 -c "print($cpu + $xcpu)")"
        fi
    done
}

# ------------------------------------- (d) presentNext to the next first frame
case_d() {
    local r i pid items=("$media/photo1080.jpg" "$media/anim.gif" "$media/video720.mp4" "$media/audio.mp3" "$media/video1080.mp4")
    quiet d
    for r in $(seq "$runs"); do
        rm -f "$work/events"
        "$mv" --windowed --geometry $geom --events "$work/events" "${items[@]}" >/dev/null 2>"$work/err" </dev/null &
        pid=$!
        for i in 0 1 2 3 4; do
            if ! wait_event "$work/events" "\"first_frame\",\"index\":$i," 10; then
                say "(d) item $i never showed its first frame"
                break
            fi
            # Time for the next item's prefetch, as a person looking at this one gives it.
            sleep 1
            [ $i -lt 4 ] && xdotool key n
        done
        xdotool key q
        wait "$pid"
        python3 - "$work/events" <<'EOF' >>"$samples"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
dismiss = {e["index"]: e["t"] for e in ev if e["event"] == "will_dismiss"}
first = {e["index"]: e["t"] for e in ev if e["event"] == "first_frame"}
names = ["image", "gif", "video", "audio", "video"]
for i in range(1, 5):
    if i in first and i - 1 in dismiss:
        print(f"d\tours\tnext_ms_{i}_{names[i]}\t{(first[i] - dismiss[i - 1]) * 1000:.1f}")
EOF
    done
}

# ----------------------------------------- (e) CPU minimized against fullscreen
case_e() {
    local r pid c0 c1 x0 x1 clip=$media/video720.mp4
    quiet e
    for r in $(seq "$runs"); do
        rm -f "$work/events"
        "$mv" --loop --events "$work/events" "$clip" >/dev/null 2>"$work/err" </dev/null &
        pid=$!
        wait_event "$work/events" '"first_frame"' 10 || say "(e) no first frame"
        sleep 1
        c0=$(tree_ticks "$pid"); x0=$(ticks "$xpid"); sleep 5; c1=$(tree_ticks "$pid"); x1=$(ticks "$xpid")
        record e ours cpu_fullscreen "$(python3 -c "print(($c1 - $c0 + $x1 - $x0) / $hz / 5)")"
        xdotool key ctrl+Down
        sleep 1
        c0=$(tree_ticks "$pid"); x0=$(ticks "$xpid"); sleep 5; c1=$(tree_ticks "$pid"); x1=$(ticks "$xpid")
        record e ours cpu_minimized "$(python3 -c "print(($c1 - $c0 + $x1 - $x0) / $hz / 5)")"
        xdotool key q
        wait "$pid"
        # The floor: FFmpeg alone decoding the clip's picture and sound in real time at the
        # thumbnail's settings (one decoder thread, no deblocking filter), nothing shown.
        timed ffmpeg -nostdin -v error -re -threads 1 -skip_loop_filter all -i "$clip" -f null - &&
            record e ffmpeg cpu_decode "$(python3 -c "print($cpu / $wall)")"
    done
}

# ------------------------------- (m) frame times of the minimize animation
# The time between the animation's frames while a 720p video plays, from the event log's
# `offset` lines (one a frame, from the key press to the thumbnail's landing); a frame every
# 16.7 ms is the display's 60 Hz.
case_m() {
    local r pid clip=$media/video720.mp4
    quiet m
    for r in $(seq "$runs"); do
        rm -f "$work/events"
        "$mv" --no-audio --swipe-mode minimize --minimized-reset --loop --events "$work/events" "$clip" \
            >/dev/null 2>"$work/err" </dev/null &
        pid=$!
        wait_event "$work/events" '"first_frame"' 10 || say "(m) no first frame"
        sleep 1
        xdotool key ctrl+Down
        wait_event "$work/events" '"did_end_minimizing"' 5 || say "(m) the minimize never ended"
        xdotool key ctrl+Up
        wait_event "$work/events" '"minimized":false' 5
        xdotool key q
        wait "$pid"
        python3 - "$work/events" <<'EOF' >>"$samples"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
t = [e["t"] for e in ev if e["event"] == "offset"]
gaps = sorted((b - a) * 1000 for a, b in zip(t, t[1:]) if b - a < 0.2)
if gaps:
    print(f"m\tours\tframe_p95_ms\t{gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]:.1f}")
    print(f"m\tours\tframe_max_ms\t{gaps[-1]:.1f}")
EOF
    done
}

# Cases kept in files of their own (case-NAME.sh) define case_NAME with the helpers above.
for f in "$here"/case-*.sh; do
    . "$f"
done

for c in $BENCH_CASES; do
    say "case ($c), $runs runs"
    "case_$c"
done
# A case ends by waiting for a player it killed (status 143); cases report through
# `record`, so that status must not stop the report when such a case runs last.
exit 0
