#!/bin/bash
# scripts/bench/make-media.sh DIR: the bench's clips, made with ffmpeg once and cached.
# Synthetic pictures with a little noise, so the encoder has real detail to spend bits on.
set -eu -o pipefail
dir=$1
mk() { # name, ffmpeg arguments...: made into a temporary file and renamed when complete
    local name=$1; shift
    [ -s "$dir/$name" ] && return 0
    echo "bench: making $name" >&2
    ffmpeg -nostdin -v error -y "$@" "$dir/.tmp-$name"
    mv "$dir/.tmp-$name" "$dir/$name"
}
tone="sine=frequency=440:sample_rate=48000"

# (a) 1080p30 H.264, 12 s (360 frames), no sound.
mk video1080.mp4 -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=8:allf=t" -t 12 \
    -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -an -f mp4
# (b) 24 megapixels, as a camera writes them (4:2:0 baseline JPEG).
mk still24mp.jpg -f lavfi -i "testsrc2=size=6000x4000,noise=alls=10:allf=u" -frames:v 1 -q:v 2 -f image2
# (c), (e) 720p30 H.264 with AAC stereo sound, 10 s.
mk video720.mp4 -f lavfi -i "testsrc2=size=1280x720:rate=30,noise=alls=8:allf=t" -f lavfi -i "$tone" \
    -t 10 -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -f mp4
# (d) the other queue items: a 1080p JPEG, a 3 s animated GIF, 10 s of MP3.
mk photo1080.jpg -f lavfi -i "testsrc2=size=1920x1080,noise=alls=10:allf=u" -frames:v 1 -q:v 3 -f image2
mk anim.gif -f lavfi -i "testsrc2=size=480x270:rate=10" -t 3 -f gif
mk audio.mp3 -f lavfi -i "$tone" -t 10 -ac 2 -c:a libmp3lame -b:a 128k -f mp3
