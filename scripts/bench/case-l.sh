# scripts/bench/case-l.sh, sourced by run-cases.sh.
# (l) the shared libraries the viewer process maps while it shows a 24 MP JPEG, and how many
# of them are FFmpeg's codec libraries or picture libraries (those belong in the worker);
# mpv's and feh's beside it. A count, not a time: one run says it. Then the same while a
# 720p film with sound plays (lf): the viewer of a sandboxed film should map FFmpeg's
# libavutil, libswscale and libswresample and none of its demuxers, decoders or the codec
# libraries they link.
lib_count() {  # PID -> "total format codec" of the distinct shared objects it maps
    awk '$6 ~ /\.so/ { print $6 }' "/proc/$1/maps" 2>/dev/null | sort -u | awk '
        { n++ } /lib(avcodec|avformat|avutil|swscale|swresample|jpeg|turbojpeg|webp|avif|heif|de265|jxl|rsvg|tiff|png16|lcms2|exif|dav1d|aom|x26[45]|vpx)/ { f++ }
        /lib(avcodec|avformat|heif|de265|jxl|rsvg|dav1d|aom|x26[45]|vpx)/ { c++ }
        END { printf "%d %d %d\n", n, f, c }'
}
lib_counts() {  # CASE SUBJECT PID
    local t f c
    read -r t f c < <(lib_count "$3")
    record "$1" "$2" libraries "$t" && record "$1" "$2" format_libraries "$f" && record "$1" "$2" codec_libraries "$c"
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
    local clip=$media/video720.mp4
    : >"$work/events"
    "$mv" --windowed --geometry $geom --events "$work/events" "$clip" >/dev/null 2>&1 &
    pid=$!
    if wait_event "$work/events" '"played"' 20; then lib_counts lf ours "$pid"; else say "(lf): the film never played"; fi
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    "${mpv_common[@]}" --ao=pulse "$clip" >/dev/null 2>&1 &
    pid=$!
    sleep 2; lib_counts lf mpv "$pid"
    kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
}
