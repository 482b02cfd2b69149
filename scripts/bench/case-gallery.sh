# scripts/bench/case-gallery.sh: case (gallery), the gallery over a folder of 1,000 12-megapixel camera photos.
# Sourced by run-cases.sh (its helpers: quiet, record, wait_event, $work, $mv, $media, $runs).
#
#   cold: an empty thumbnail cache; `g`, then the thumbnails of the first screen and the
#         screen after it are made: thumbnails a second from the gallery showing to the
#         last of them (target >= 150 on 2 cores), the first screen's time, and the player's
#         CPU time per thumbnail (the threads run at nice 10, so on a busy machine the rate
#         says more about the others than about us; the CPU time does not).
#   warm: the same folder again, its thumbnails now in the cache: the gallery's first
#         screen complete, from `g` to the last cell (target <= 300 ms).
# Both read the program's event log: gallery_shown, thumbnail_made, gallery_first_screen.

# 1,000 photos: five different 4000x3000 JPEGs, each linked 200 times (a link is its own
# path, so its own URI and thumbnail, and costs no disk). Camera-like: each carries an EXIF
# block with a 160x120 thumbnail of itself in IFD1, as every camera and phone writes, so a
# gallery that reads those is measured on what it meets in a folder of photos.
gallery_folder() {
    local dir=$media/gallery1000cam i photo
    [ -e "$dir/p0999.jpg" ] && return 0
    mkdir -p "$dir"
    for i in 0 1 2 3 4; do
        photo=$media/photo12mp-cam-$i.jpg
        [ -s "$photo" ] && continue
        ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=4000x3000,hue=h=$((i * 70)),noise=alls=10:allf=u" \
            -frames:v 1 -q:v 3 -f image2 "$photo.tmp.jpg"
        ffmpeg -nostdin -v error -y -i "$photo.tmp.jpg" -vf scale=160:120 -q:v 5 "$photo.thumb.jpg"
        exiftool -q -overwrite_original -Make=Bench -Model=Camera12 -Orientation#=1 \
            "-ThumbnailImage<=$photo.thumb.jpg" "$photo.tmp.jpg"
        mv "$photo.tmp.jpg" "$photo"
        rm -f "$photo.thumb.jpg"
    done
    for i in $(seq 0 999); do
        ln -f "$media/photo12mp-cam-$((i % 5)).jpg" "$dir/$(printf 'p%04d.jpg' "$i")"
    done
}

# One run of the gallery with the thumbnail cache in $1; prints samples for label $2.
gallery_run() {
    local cache=$1 label=$2 pid
    rm -f "$work/events"
    XDG_CACHE_HOME=$cache "$mv" --windowed --geometry $geom --no-audio --events "$work/events" \
        "$media/gallery1000cam" >/dev/null 2>"$work/err" </dev/null &
    pid=$!
    wait_event "$work/events" '"first_frame"' 20 || say "(gallery) no first frame"
    sleep 0.5
    local c0 c1
    c0=$(ticks "$pid")
    xdotool key g
    wait_event "$work/events" '"gallery_first_screen"' 60 || say "(gallery) the first screen never completed"
    # The screen after it is made ahead: wait until the worker has had a quiet second.
    local n=-1 m
    while m=$(grep -c '"thumbnail_made"' "$work/events"); [ "$m" != "$n" ]; do n=$m; sleep 1; done
    c1=$(ticks "$pid")
    xdotool key q
    wait "$pid"
    python3 - "$work/events" "$label" "$(python3 -c "print(($c1 - $c0) / $hz)")" <<'PY' >>"$samples"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
label = sys.argv[2]
shown = next((e["t"] for e in ev if e["event"] == "gallery_shown"), None)
first = next((e for e in ev if e["event"] == "gallery_first_screen"), None)
made = [e["t"] for e in ev if e["event"] == "thumbnail_made" and e.get("from") == "made"]
if first:
    print(f"gallery\tours\t{label}_first_screen_ms\t{first['ms']:.1f}")
    print(f"gallery\tours\t{label}_first_screen_cells\t{first['cells']}")
if label == "cold" and shown is not None and len(made) >= 2:
    print(f"gallery\tours\tcold_thumbnails_per_s\t{len(made) / (made[-1] - shown):.1f}")
    print(f"gallery\tours\tcold_thumbnails\t{len(made)}")
    # CPU the player spent from `g` on, per thumbnail: what the rate would be on idle cores.
    print(f"gallery\tours\tcold_cpu_ms_per_thumbnail\t{float(sys.argv[3]) * 1000 / len(made):.1f}")
PY
}

case_gallery() {
    local r
    gallery_folder
    quiet g
    for r in $(seq "$runs"); do
        rm -rf "$work/thumbs"
        gallery_run "$work/thumbs" cold
        gallery_run "$work/thumbs" warm
    done
}
