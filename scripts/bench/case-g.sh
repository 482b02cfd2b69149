# scripts/bench/case-g.sh, sourced by run-cases.sh.
# (g) A/V offset measured outside the players: the clip flashes a white patch on exactly the
# samples where a beep starts, once a second. The patch probe stamps each flash as the X
# server shows it; FFmpeg records the null sink's monitor with wall-clock stamps (its
# PulseAudio input corrects them by the reported latency) and silencedetect finds each
# beep's start. Sample: sound start minus picture start, ms, per flash (positive: the sound
# is late).
case_g() {
    local clip=$media/avsync.mp4 r
    probe_tool || return
    quiet g
    for r in $(seq "$runs"); do
        av_offsets g ours "$mv" --windowed --geometry $geom --autoexit "$clip"
        av_offsets g mpv "${mpv_common[@]}" --ao=pulse "$clip"
    done
}

# (gl) The same with two CPU hogs running for the whole case, as on a machine busy with a
# build: both cores are contended, and the players' threads wait for a turn.
case_gl() {
    local clip=$media/avsync.mp4 r
    probe_tool || return
    quiet gl
    hogs_start 2 gl
    for r in $(seq "$runs"); do
        av_offsets gl ours "$mv" --windowed --geometry $geom --autoexit "$clip"
        av_offsets gl mpv "${mpv_common[@]}" --ao=pulse "$clip"
    done
    hogs_stop
}

# av_offsets CASE SUBJECT COMMAND...: the offsets of one playback of case (g) or (gl).
av_offsets() {
    local case=$1 subject=$2 rec probe_pid base
    shift 2
    # silencedetect prints six digits: its times are made relative to a whole second just
    # past, and that second is added back below.
    base=$(( $(date +%s) - 1 ))
    ffmpeg -nostdin -hide_banner -loglevel info -f pulse -fragment_size 960 -i "${MEDIAVIEW_TEST_MONITOR:-default}" \
        -copyts -af "asetpts=PTS-$base/TB,silencedetect=noise=-30dB:duration=0.05" -f null - 2>"$work/sound" &
    rec=$!
    "$probe" 80 340 30 all >"$work/flashes" 2>"$work/probe-err" &
    probe_pid=$!
    wait_file_line "$work/probe-err" ready 5
    # The recorder needs a moment to connect; the clip's first beep is 1 s in anyway.
    sleep 0.5
    timed "$@"
    sleep 0.5
    kill -INT "$rec" 2>/dev/null
    wait "$rec" 2>/dev/null
    kill "$probe_pid" 2>/dev/null
    wait "$probe_pid" 2>/dev/null
    python3 - "$work/flashes" "$work/sound" "$subject" "$base" "$case" <<'PY' >>"$samples"
import re, sys
flashes = [float(l) for l in open(sys.argv[1]) if l.strip()]
beeps = [float(sys.argv[4]) + float(m.group(1)) for m in re.finditer(r"silence_end: (-?[0-9.]+)", open(sys.argv[2]).read())]
subject, case = sys.argv[3], sys.argv[5]
for f in flashes:
    near = [b for b in beeps if abs(b - f) < 0.4]
    if near:
        b = min(near, key=lambda b: abs(b - f))
        print(f"{case}\t{subject}\toffset_ms\t{(b - f) * 1000:.2f}")
if len(flashes) < 5 or len(beeps) < 5:
    print(f"bench: ({case}) {subject}: {len(flashes)} flashes seen, {len(beeps)} beeps heard", file=sys.stderr)
PY
}
