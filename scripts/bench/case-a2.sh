# scripts/bench/case-a2.sh, sourced by run-cases.sh.
# (a2) 10 s of 4K60 H.264 with sound in real time, in a 1920x1080 window (the whole screen):
# frames dropped, ours and mpv's, and the CPU each took (player + X server).
case_a2() {
    quiet a2
    a2_runs a2
}

# (a2l) The same with one CPU hog running through all of the case's runs: one core's worth
# left for decoding, scaling and drawing 4K60, for us and mpv alike.
case_a2l() {
    quiet a2l
    hogs_start 1 a2l
    a2_runs a2l
    hogs_stop
}

# a2_runs CASE: the runs of (a2) or (a2l), ours and mpv's alternating.
a2_runs() {
    local case=$1 clip=$media/video4k60.mp4 r big=1920x1080+0+0
    for r in $(seq "$runs"); do
        rm -f "$work/events"
        if timed "$mv" --windowed --geometry $big --autoexit --events "$work/events" "$clip"; then
            record "$case" ours dropped "$(sed -n 's/.*"event":"stats".*"dropped":\([0-9]*\).*/\1/p' "$work/events")"
            record "$case" ours frames "$(sed -n 's/.*"event":"stats".*"frames":\([0-9]*\).*/\1/p' "$work/events")"
            record "$case" ours cpu "$(python3 -c "print($cpu + $xcpu)")"
        fi
        rm -f "$work/mpvstats"
        if MV_BENCH_STATS="$work/mpvstats" timed "${mpv_common[@]}" --geometry=$big --ao=pulse \
            --script="$here/mpv-stats.lua" "$clip"; then
            record "$case" mpv dropped "$(awk '$1 == "frame-drop-count" || $1 == "decoder-frame-drop-count" { n += $2 } END { print n + 0 }' "$work/mpvstats")"
            record "$case" mpv cpu "$(python3 -c "print($cpu + $xcpu)")"
        fi
    done
}
