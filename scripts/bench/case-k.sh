#!/bin/bash
# scripts/bench/case-k.sh: case (k) of scripts/bench.sh, sourced by run-cases.sh (it uses
# that script's helpers: record, quiet, wait_event, say, $mv, $media, $runs, $work).
#
# (k) a 24 MP progressive JPEG (6000x4000, photo-like) from a local HTTP server that sends
#     it at 2 MB/s, into a 1280x720 window: how long from the request (the server's log)
#     to the first picture on screen (the program's `first_frame` event), what share of
#     the file the server can have sent by then (elapsed time x rate / length, an upper
#     bound), and the share the program says it had (`buffered` in that event; on a loaded
#     machine the server falls behind its rate, and this is the true figure). A viewer
#     that waits for the whole file shows nothing before 100 %.

repo_root=$(cd "$here/../.." && pwd)

# Makes the photo once: testsrc2 with grain, JPEG quality ~92, made progressive by ImageMagick.
progressive_media() {
    local photo=$media/progressive24mp.jpg
    if [ ! -s "$photo" ]; then
        say "making progressive24mp.jpg"
        ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=6000x4000,noise=alls=10:allf=t" -frames:v 1 \
            -q:v 3 "$media/.tmp-k-baseline.jpg" &&
            convert "$media/.tmp-k-baseline.jpg" -quality 92 -interlace JPEG "$media/.tmp-k.jpg" &&
            mv "$media/.tmp-k.jpg" "$photo"
        rm -f "$media/.tmp-k-baseline.jpg"
    fi
    echo "$photo"
}

case_k() {
    local photo root port spid r t0 pid rate=2000000 size
    photo=$(progressive_media)
    size=$(stat -c %s "$photo")
    root=$work/kserved
    mkdir -p "$root"
    rm -f "$work/kports"
    python3 "$repo_root/scripts/testserver.py" "$root" --port-file "$work/kports" --log "$work/klog" \
        --parent-pid $$ --max-lifetime 3600 >/dev/null 2>&1 &
    spid=$!
    for r in $(seq 100); do [ -s "$work/kports" ] && break; sleep 0.05; done
    port=$(awk '$1 == "http" { print $2 }' "$work/kports")
    [ -n "$port" ] || { say "(k) no test server"; kill "$spid" 2>/dev/null; return; }
    quiet k
    record k ours bytes "$size"
    for r in $(seq "$runs"); do
        # A name and a cache of its own per run: nothing comes from an earlier run.
        cp "$photo" "$root/k$r.jpg"
        rm -rf "$work/kcache" "$work/kevents"
        t0=$EPOCHREALTIME
        "$mv" --windowed --geometry 1280x720+0+0 --no-audio --cache-dir "$work/kcache" --events "$work/kevents" \
            "http://127.0.0.1:$port/trickle/$rate/k$r.jpg" >/dev/null 2>"$work/kerr" </dev/null &
        pid=$!
        if wait_event "$work/kevents" '"first_frame"' 60; then
            python3 - "$work/klog" "$work/kevents" "k$r.jpg" "$t0" "$rate" "$size" <<'PY' >>"$samples"
import json, sys
log, events, name, t0, rate, size = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
asked = next(json.loads(l)["time"] for l in open(log) if name in l)
first = next(json.loads(l) for l in open(events) if '"first_frame"' in l)
shown = t0 + first["t"]
print(f"k\tours\tfirst_s\t{shown - asked:.3f}")
print(f"k\tours\tfirst_share\t{min(1.0, (shown - asked) * rate / size):.4f}")
print(f"k\tours\tfirst_buffered\t{first.get('buffered', 1.0):.4f}")
PY
        else
            say "(k) no first frame: $(head -c 300 "$work/kerr")"
        fi
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        rm -f "$root/k$r.jpg"
        record k machine load_during "$(cut -d' ' -f1 /proc/loadavg)"
    done
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
}
