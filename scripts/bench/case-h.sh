# scripts/bench/case-h.sh, sourced by run-cases.sh.
# (h) launch to the first frame of a 1080p video with sound, seen from outside: the
# patch probe watches for the clip's white square on the screen, and the time from just
# before the program is started to the square showing is the sample. The probe pauses 1 ms
# between reads: read back to back, it and the X server answering it took one of the two
# cores from the launch it measures (since 2026-12-06; the table's (h) rows before then
# were measured so, ours, mpv's and the floor's alike).
case_h() {
    local clip=$media/launch1080.mp4 r
    probe_tool || return
    quiet h
    for r in $(seq "$runs"); do
        launch_to_patch ours "$mv" --windowed --geometry $geom "$clip"
        launch_to_patch mpv "${mpv_common[@]}" --ao=pulse "$clip"
        if floor_tool; then launch_to_patch floor "$floor_first" "$clip" 1280 720; fi
    done
}

# The floor of (h), built once a run from scripts/bench/first-picture.c: FFmpeg and Xlib
# alone, the first picture decoded and put in a window. Fails when it cannot be built.
floor_first=
floor_tool() { build_c_tool floor_first first-picture "the (h) floor" libavformat libavcodec libswscale libavutil x11; }

# launch_to_patch SUBJECT COMMAND...: one sample of case (h).
launch_to_patch() {
    local subject=$1 ppid pid t0 t1
    shift
    # The square lands at (40,300) in 1280x720 (60,450 of 1920x1080, scaled).
    "$probe" 60 320 10 first 1 >"$work/probe" 2>"$work/probe-err" &
    ppid=$!
    wait_file_line "$work/probe-err" ready 5
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>"$work/err" </dev/null &
    pid=$!
    wait "$ppid"
    t1=$(cat "$work/probe")
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if [ -n "$t1" ]; then
        record h "$subject" wall "$(python3 -c "print(f'{$t1 - $t0:.4f}')")"
    else
        say "(h) $subject: the first frame never showed"
    fi
}
