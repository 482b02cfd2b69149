# scripts/bench/case-j.sh, sourced by run-cases.sh.
# (j) a 20000x10000 picture (200 MP, twice the default pixel budget) as a JPEG, a PNG and a
# TIFF, to its fitted first frame in 1280x720, then exit: wall time and peak RSS, against
# feh, which holds it whole.
case_j() {
    local img ext r
    quiet j
    # Read once first: the program timed first would otherwise also pay the disk's read of
    # 280 MB, 12 s here on a cold cache, which its peer after it then finds in memory.
    for ext in jpg png tif; do cat "$media/still200mp.$ext" > /dev/null; done
    for r in $(seq "$runs"); do
        for ext in jpg png tif; do
            img=$media/still200mp.$ext
            timed "$mv" --frames 1 --windowed --geometry $geom "$img" && record "j$ext" ours wall "$wall" &&
                record "j$ext" ours rss "$rss"
            timed feh --no-menus --geometry $geom --scale-down --on-last-slide quit --slideshow-delay 0.01 "$img" &&
                record "j$ext" feh wall "$wall" && record "j$ext" feh rss "$rss"
        done
    done
}
