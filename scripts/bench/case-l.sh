# scripts/bench/case-l.sh, sourced by run-cases.sh.
# (l) the shared libraries the viewer process maps while it shows a 24 MP JPEG, and how many
# of them are FFmpeg's codec libraries or picture libraries (those belong in the worker);
# mpv's and feh's beside it. A count, not a time: one run says it.
lib_count() {  # PID -> "total format" of the distinct shared objects it maps
    awk '$6 ~ /\.so/ { print $6 }' "/proc/$1/maps" 2>/dev/null | sort -u | awk '
        { n++ } /lib(avcodec|avformat|avutil|swscale|swresample|jpeg|turbojpeg|webp|avif|heif|de265|jxl|rsvg|tiff|png16|lcms2|exif|dav1d|aom|x26[45]|vpx)/ { f++ }
        END { printf "%d %d\n", n, f }'
}
lib_counts() {  # CASE SUBJECT PID
    local t f
    read -r t f < <(lib_count "$3")
    record "$1" "$2" libraries "$t" && record "$1" "$2" format_libraries "$f"
}
case_l() {
    local img=$media/still24mp.jpg pid
    quiet l
    : >"$work/events"
    "$mv" --windowed --geometry $geom --events "$work/events" "$img" >/dev/null 2>&1 &
    pid=$!
    if wait_event "$work/events" '"first_frame"' 20; then
        lib_counts l ours "$pid"
        local w
        for w in $(pgrep -P "$pid" -f mediaview-worker); do lib_counts l worker "$w"; done
    else
        say "(l): no first frame"
    fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    "${mpv_common[@]}" --image-display-duration=inf "$img" >/dev/null 2>&1 &
    pid=$!
    sleep 2; lib_counts l mpv "$pid"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    feh --no-menus --geometry $geom --scale-down "$img" >/dev/null 2>&1 &
    pid=$!
    sleep 2; lib_counts l feh "$pid"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
}
