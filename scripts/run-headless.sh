#!/bin/bash
# scripts/run-headless.sh MEDIAVIEW [ARGS...]
#
# Plays once on the current $DISPLAY (an Xvfb made by scripts/testenv.sh, as
# `make run` does when there is no screen) and takes a screenshot of the root
# window about every second into screenshots/run-N.png, so a person can look
# at what a machine without a monitor showed. Returns mediaview's status.
#
#   RUN_TIMEOUT  seconds before mediaview is stopped (default 120)
set -u
cd "$(dirname "$0")/.."

[ $# -ge 1 ] || { echo "usage: $0 MEDIAVIEW [ARGS...]" >&2; exit 2; }
bin=$1
shift
[ -x "$bin" ] || { echo "run-headless: $bin is not built (make build)" >&2; exit 2; }

shots=screenshots
mkdir -p "$shots"
rm -f "$shots"/run-*.png  # old shots would pass for this run's

# --autoexit: without a person to press q, the demo must end by itself.
"$bin" --autoexit --image-duration 1 "$@" &
pid=$!

# ImageMagick's import is the usual tool; ffmpeg's x11grab (also a project
# dependency) is the fallback where an ImageMagick policy forbids it.
shoot() {
    import -display "$DISPLAY" -window root "$1" 2>/dev/null ||
        ffmpeg -hide_banner -loglevel error -nostdin -y -f x11grab -i "$DISPLAY" -frames:v 1 "$1"
}

n=0
deadline=$((SECONDS + ${RUN_TIMEOUT:-120}))
while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
        echo "run-headless: mediaview still running after ${RUN_TIMEOUT:-120} s; stopping it" >&2
        kill -TERM "$pid"
        break
    fi
    sleep 1
    kill -0 "$pid" 2>/dev/null || break
    n=$((n + 1))
    shoot "$shots/run-$n.png" || echo "run-headless: screenshot $n failed" >&2
done
wait "$pid"
status=$?

echo "mediaview exited with status $status"
if [ $n -gt 0 ]; then
    echo "screenshots ($n, one a second): $PWD/$shots/run-1.png .. run-$n.png"
else
    echo "no screenshots: mediaview ended within a second" >&2
fi
exit $status
