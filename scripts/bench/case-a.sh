# scripts/bench/case-a.sh, sourced by run-cases.sh.
# (a) 300 frames of 1080p30 H.264 shown in a 1280x720 window as fast as they decode, against
# FFmpeg decoding them and showing nothing. Beside the row: FFmpeg's own scaler into the
# window's size, and the floor (scripts/bench/decode-show.c): the decode with each picture
# handed to the X server, with and without the memory traffic of a conversion, and with the
# viewer's own scaling kernels run in the decoding process; and the viewer itself with its
# sandbox off. Each also records the machine's busy CPU while it ran.
case_a() {
    local clip=$media/video1080.mp4 r
    quiet a
    floor_show_tool || true
    # Four times the other cases' runs: the target lies a few hundredths from its floors,
    # closer than one run's noise on a shared machine.
    for r in $(seq "${BENCH_A_RUNS:-$((runs * 4))}"); do
        timed "$mv" --benchmark --frames 300 --windowed --geometry $geom --no-audio "$clip" &&
            record a ours wall "$wall" && record a ours busy "$busy" &&
            record a ours own_fps "$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$work/out")"
        # The same viewer decoding in its own process: what the sandbox's worker costs.
        timed "$mv" --sandbox=off --benchmark --frames 300 --windowed --geometry $geom --no-audio "$clip" &&
            record a oursopen wall "$wall" && record a oursopen busy "$busy"
        timed "${mpv_common[@]}" --untimed --no-audio --frames=300 "$clip" && record a mpv wall "$wall"
        timed ffmpeg -nostdin -v error -i "$clip" -frames:v 300 -an -f null - && record a ffmpeg wall "$wall" &&
            record a ffmpeg busy "$busy"
        # What FFmpeg's own scaler adds to its decode: every picture into the window's size and
        # pixel format, shown nowhere. Beside the row, not its target.
        timed ffmpeg -nostdin -v error -i "$clip" -frames:v 300 -an -vf "scale=1280:720:flags=bilinear,format=bgr0" \
            -f null - && record a ffscale wall "$wall"
        if [ -n "$floor_show" ]; then
            timed "$floor_show" "$clip" 300 show && record a floorshow wall "$wall"
            timed "$floor_show" "$clip" 300 touch && record a floortouch wall "$wall" && record a floortouch busy "$busy"
            timed "$floor_show" "$clip" 300 fit && record a floorfit wall "$wall" && record a floorfit busy "$busy"
        fi
    done
}

# The floor of (a) and (c), built once a run from scripts/bench/decode-show.c. Fails when it cannot be
# built, and the row then goes without it.
floor_show=
floor_show_tool() {
    # The viewer's own scaling kernels are built in for the `fit` form.
    c_tool_extra="-DWITH_CSCALE -I$here/../../Sources/CScale/include" build_c_tool floor_show decode-show "the (a) and (c) floors" libavformat libavcodec libavutil libswscale \
        libswresample libpulse-simple x11 xext
}
