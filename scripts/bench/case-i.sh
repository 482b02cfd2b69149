# scripts/bench/case-i.sh, sourced by run-cases.sh.
# (i) memory of a long queue: peak RSS (VmHWM) once the first item shows and all items are
# queued, for a queue of 10,000 small PNGs against a queue of one.
case_i() {
    local r n
    quiet i
    for r in $(seq "$runs"); do
        for n in 1 10000; do
            rm -f "$work/events"
            "$mv" --windowed --geometry $geom --events "$work/events" $(ls -d "$media/queue10k"/* | head -n $n) \
                >/dev/null 2>"$work/err" </dev/null &
            local pid=$!
            if wait_event "$work/events" "\"queued\",\"items\":$n[,}]" 60 && wait_event "$work/events" '"first_frame"' 30; then
                # A moment for what the first frame set going (the next item's prefetch).
                sleep 1
                record i ours "rss_$n" "$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")"
            else
                say "(i) the queue of $n never showed its first item"
            fi
            kill "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        done
    done
}
