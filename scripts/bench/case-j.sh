# scripts/bench/case-j.sh, sourced by run-cases.sh.
# (j) a 20000x10000 JPEG (200 MP, twice the default pixel budget) to its fitted first frame
# in 1280x720, then exit: wall time and peak RSS, against feh, which holds it whole.
case_j() {
    local img=$media/still200mp.jpg r
    quiet j
    for r in $(seq "$runs"); do
        timed "$mv" --frames 1 --windowed --geometry $geom "$img" && record j ours wall "$wall" &&
            record j ours rss "$rss"
        timed feh --no-menus --geometry $geom --scale-down --on-last-slide quit --slideshow-delay 0.01 "$img" &&
            record j feh wall "$wall" && record j feh rss "$rss"
    done
}
