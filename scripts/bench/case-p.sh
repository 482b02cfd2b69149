#!/bin/bash
# scripts/bench/case-p.sh: case (p) of scripts/bench.sh, sourced by run-cases.sh (it uses
# that script's helpers: record, quiet, wait_event, say, $mv, $media, $runs, $work).
#
# (p) track preview latency: a paused 720p video in a 1280x720 window; xdotool hovers
#     PREVIEW_POSITIONS places along the track, each on a keyframe not yet shown, waiting
#     for each preview; then the same places again (from the previewer's memory). The
#     program's event log gives each wait: `track_hover` when the pointer came to a time
#     whose picture was not on screen, `track_preview` with `waited` (seconds from the
#     pointer's motion event to the draw that showed it). Cases: a local file; the same
#     file from a local HTTP server (byte ranges, nothing cached); that URL opened again
#     (previews from the disk cache). Each run's p95 is one sample; the table takes the
#     median of the runs.

repo_root=$(cd "$here/../.." && pwd)

# Makes the 60 s 720p clip with a keyframe every 2 s (30 places a preview can show).
previews_media() {
    local clip=$media/preview720.mp4
    if [ ! -s "$clip" ]; then
        say "making preview720.mp4"
        ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30,noise=alls=8:allf=t" -t 60 \
            -c:v libx264 -preset veryfast -crf 23 -g 60 -keyint_min 60 -sc_threshold 0 -pix_fmt yuv420p -an \
            -f mp4 "$media/.tmp-preview720.mp4" && mv "$media/.tmp-preview720.mp4" "$clip"
    fi
    echo "$clip"
}

# One pass of hovers over the running viewer: prints one `waited` in ms per place
# (or "miss" when no preview came within 3 s).
previews_pass() {
    local events=$1 x n0 i
    for x in $(seq 160 100 $((160 + 100 * (${PREVIEW_POSITIONS:-10} - 1)))); do
        n0=$(grep -c '"track_preview"' "$events")
        xdotool mousemove "$x" 692
        for i in $(seq 150); do
            [ "$(grep -c '"track_preview"' "$events")" -gt "$n0" ] && break
            sleep 0.02
        done
        if [ "$(grep -c '"track_preview"' "$events")" -gt "$n0" ]; then
            grep '"track_preview"' "$events" | tail -1 | python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["waited"] * 1000))'
        else
            echo miss
        fi
    done
}

# p95 of a pass's waits (misses count as 3000 ms), and the count of misses, as samples.
previews_record() {
    local metric=$1 file=$2
    python3 - "$file" "$metric" <<'PY' >>"$samples"
import sys
vals = [l.strip() for l in open(sys.argv[1]) if l.strip()]
ms = sorted(3000.0 if v == "miss" else float(v) for v in vals)
if ms:
    p95 = ms[min(len(ms) - 1, int(round(len(ms) * 0.95)) - 1)]
    print(f"p\tours\t{sys.argv[2]}_p95_ms\t{p95:.2f}")
    print(f"p\tours\t{sys.argv[2]}_misses\t{vals.count('miss')}")
PY
}

# Runs the viewer on $1 with its cache in $2, hovers twice (new places, then again), records.
previews_run() {
    local source=$1 cache=$2 prefix=$3 pid
    rm -f "$work/pevents"
    "$mv" --windowed --geometry 1280x720+0+0 --no-audio --no-autoplay --cache-dir "$cache" \
        --events "$work/pevents" "$source" >/dev/null 2>"$work/perr" </dev/null &
    pid=$!
    if wait_event "$work/pevents" '"first_frame"' 15; then
        xdotool mousemove 640 360
        sleep 0.5
        previews_pass "$work/pevents" >"$work/pnew"
        previews_record "${prefix}_new" "$work/pnew"
        if [ -n "${4:-}" ]; then
            previews_pass "$work/pevents" >"$work/pcached"
            previews_record "${prefix}_cached" "$work/pcached"
        fi
    else
        say "(p) $prefix: no first frame: $(tail -2 "$work/perr" | tr '\n' ' ')"
    fi
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

case_p() {
    local clip r root port spid
    clip=$(previews_media)
    root=$work/served
    mkdir -p "$root"
    cp "$clip" "$root/preview720.mp4"
    rm -f "$work/ports"
    python3 "$repo_root/scripts/testserver.py" "$root" --port-file "$work/ports" --parent-pid $$ \
        --max-lifetime 3600 >/dev/null 2>&1 &
    spid=$!
    for r in $(seq 100); do [ -s "$work/ports" ] && break; sleep 0.05; done
    port=$(awk '$1 == "http" { print $2 }' "$work/ports")
    quiet p
    record p machine load_during "$(cut -d' ' -f1 /proc/loadavg)"
    for r in $(seq "$runs"); do
        rm -rf "$work/pcache"
        previews_run "$clip" "$work/pcache" local cached
        [ -n "$port" ] || { say "(p) no test server"; continue; }
        rm -rf "$work/pcache"
        # A name of its own per run: nothing of an earlier run is in any cache.
        cp "$clip" "$root/p$r.mp4"
        previews_run "http://127.0.0.1:$port/p$r.mp4" "$work/pcache" web cached
        # Opened again with the same cache: the previews come from disk.
        previews_run "http://127.0.0.1:$port/p$r.mp4" "$work/pcache" web_reopened
        record p machine load_during "$(cut -d' ' -f1 /proc/loadavg)"
    done
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
}
