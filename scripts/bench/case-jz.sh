# scripts/bench/case-jz.sh, sourced by run-cases.sh (it uses that script's helpers: record,
# quiet, wait_event, say, $mv, $media, $runs, $work).
#
# (jz) the 20000x10000 pictures of (j), explored as a user would: open in 1280x720, wait a
#      second, 1:1 (ctrl+0), then jumps to five far places by the socket's `pan` command (the
#      four corners and back near the centre), then a drag of 600 pixels in 60 motion events
#      8 ms apart. The program's event log gives each wait: `detail_sharp` with `waited`
#      (seconds from the view's last move to the draw with every tile on screen sharp), and
#      a `panned` line per frame drawn while dragging. Peak PSS of the viewer and its workers
#      (scripts/bench/pss-peak.py), as (c) weighs a player with helper processes.

jz_send() { printf '{"command":["pan","%s","%s"]}\n' "$2" "$3" | socat - "UNIX-CONNECT:$1" >/dev/null 2>&1; }

# Waits for the n-th detail_sharp line; prints its wait in ms, or "miss" after 20 s.
jz_sharp() {
    local events=$1 n=$2 i
    for i in $(seq 1000); do
        [ "$(grep -c '"detail_sharp"' "$events")" -ge "$n" ] && break
        sleep 0.02
    done
    if [ "$(grep -c '"detail_sharp"' "$events")" -ge "$n" ]; then
        grep '"detail_sharp"' "$events" | sed -n "${n}p" |
            python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["waited"] * 1000))'
    else
        echo miss
    fi
}


case_jz() {
    local r ext img pid sock events n ms i sampler
    command -v socat >/dev/null || { say "(jz) needs socat"; return; }
    quiet jz
    for r in $(seq "$runs"); do
        for ext in jpg png tif; do
            img=$media/still200mp.$ext events=$work/jz-events sock=$work/jz-sock
            rm -f "$events" "$sock"
            "$mv" --windowed --geometry "$geom" --no-audio --events "$events" --input-ipc-server "$sock" "$img" \
                >/dev/null 2>"$work/err" </dev/null &
            pid=$!
            python3 "$here/pss-peak.py" "$pid" "$work/jz-pss" & sampler=$!
            wait_event "$events" '"first_frame"' 20 || { say "(jz) $ext: no first frame"; kill "$pid"; wait "$pid" "$sampler"; continue; }
            sleep 1
            xdotool key ctrl+0
            n=1
            ms=$(jz_sharp "$events" $n)
            record "jz$ext" ours zoom_ms "${ms/miss/20000}"
            # Far places: the pan is held to the picture's overhang, so these reach the corners.
            for xy in "-20000 -20000" "40000 0" "0 40000" "-40000 0" "4680 -2320"; do
                set -- $xy
                jz_send "$sock" "$1" "$2"
                n=$((n + 1))
                ms=$(jz_sharp "$events" $n)
                record "jz$ext" ours pan_ms "${ms/miss/20000}"
            done
            xdotool mousemove 640 360 mousedown 1
            for i in $(seq 60); do xdotool mousemove $((640 - 10 * i)) 360; sleep 0.008; done
            xdotool mouseup 1
            sleep 0.5
            python3 - "$events" "jz$ext" <<'PY' >>"$samples"
import json, sys
t = [json.loads(l)["t"] for l in open(sys.argv[1]) if '"panned"' in l]
gaps = sorted((b - a) * 1000 for a, b in zip(t, t[1:]))
if gaps:
    print(f"{sys.argv[2]}\tours\tdrag_p95_ms\t{gaps[min(len(gaps) - 1, int(len(gaps) * 0.95))]:.1f}")
    print(f"{sys.argv[2]}\tours\tdrag_frames\t{len(t)}")
PY
            kill "$pid"; wait "$pid" 2>/dev/null; wait "$sampler"
            record "jz$ext" ours pss "$(cat "$work/jz-pss" 2>/dev/null)"
        done
    done
}
