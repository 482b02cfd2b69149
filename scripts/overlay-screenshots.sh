#!/bin/bash
# scripts/overlay-screenshots.sh MEDIAVIEW OUTDIR
#
# Takes the screenshots in docs/screenshots: fullscreen with controls, the thumbnail
# window, the gallery and the info panel, at 1x and 2x, from the real program on the
# current $DISPLAY (run inside scripts/testenv.sh with TESTENV_SERVICES="x11 pulse").
# Each PNG is scaled to half size (the thumbnail is cropped) to stay small.
set -eu
bin=$1
out=$2
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A colourful clip with sound and a subtitle line, and a few pictures for the gallery.
ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "testsrc2=s=1280x720:r=25:d=60" \
    -f lavfi -i "sine=frequency=440:duration=60" -c:v libx264 -preset ultrafast -pix_fmt yuv420p \
    -c:a aac -shortest "$work/sunset.mp4"
printf '1\n00:00:00,000 --> 00:01:00,000\nThe light was perfect that evening.\n' > "$work/sunset.srt"
for c in orange teal purple olive; do
    ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "gradients=s=1200x800:c0=$c:c1=white:seed=3" \
        -frames:v 1 "$work/$c.jpg"
done

shoot() { import -display "$DISPLAY" -window root "$work/shot.png"; }
half() { convert "$work/shot.png" -resize 50% -strip "$out/$1.png"; }
run() {
    "$bin" --title "Sunset at the harbour" --swipe-mode minimize --minimized-reset "$@" &
    pid=$!
    sleep 6
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
window() { xdotool search --class mediaview | tail -1; }

for scale in 1 2; do
    # Fullscreen with controls: the pointer over the track, a message showing.
    run --ui-scale "$scale" "$work/sunset.mp4"
    xdotool mousemove 800 $((720 - 30 * scale))
    sleep 0.5
    xdotool key --window "$(window)" bracketright
    sleep 1
    shoot; half "fullscreen-${scale}x"
    # The info panel.
    xdotool mousemove 640 300
    sleep 0.5
    xdotool key --window "$(window)" I
    sleep 1.5
    shoot; half "info-panel-${scale}x"
    xdotool key --window "$(window)" I
    # The thumbnail, the pointer over it: cropped to it and its surroundings.
    xdotool key --window "$(window)" ctrl+Down
    sleep 1
    xdotool mousemove 1050 580
    sleep 1
    shoot
    convert "$work/shot.png" -crop 560x320+720+400 +repage -strip "$out/thumbnail-${scale}x.png"
    stop
    # The gallery of a few pictures and the clip.
    run --ui-scale "$scale" "$work"/*.jpg "$work/sunset.mp4"
    xdotool key --window "$(window)" g
    sleep 2
    shoot; half "gallery-${scale}x"
    stop
done
ls -l "$out"
