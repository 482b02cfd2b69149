# scripts/bench/case-f.sh, sourced by run-cases.sh.
# (f) browsing as a slide show that moves on as soon as each picture is up
# (--autoexit --image-duration 0.001), against feh's slide show with the shortest delay:
# 100 photos of 12 MP scaled into the 1280x720 window, then 300 small PNGs.
case_f() {
    local r set
    quiet f
    for r in $(seq "$runs"); do
        for set in browse12mp browsepng; do
            timed "$mv" --windowed --geometry $geom --autoexit --image-duration 0.001 --no-audio \
                "$media/$set"/* && record f ours "wall_$set" "$wall"
            # feh 3.x: --scale-down fits big photos into the window as we do; small ones stay 1:1.
            timed feh --no-menus --geometry $geom --scale-down --slideshow-delay 0.001 \
                --on-last-slide quit "$media/$set"/* && record f feh "wall_$set" "$wall"
        done
    done
}
