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
# (j) 200 megapixels, twice the default pixel budget (a minute to make, once).
mk still200mp.jpg -f lavfi -i "testsrc2=size=20000x10000,noise=alls=12:allf=u" -frames:v 1 -q:v 3 -f image2
# (j) the same picture as a PNG and as a TIFF, as FFmpeg writes them (8-bit RGB; the TIFF in
# one deflated strip): formats read a few rows at a time (under a minute each, once).
mk still200mp.png -i "$dir/still200mp.jpg" -pix_fmt rgb24 -f image2
mk still200mp.tif -i "$dir/still200mp.jpg" -pix_fmt rgb24 -compression_algo deflate -f image2
# (c), (e) 720p30 H.264 with AAC stereo sound, 10 s.
mk video720.mp4 -f lavfi -i "testsrc2=size=1280x720:rate=30,noise=alls=8:allf=t" -f lavfi -i "$tone" \
    -t 10 -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -f mp4
# (d) the other queue items: a 1080p JPEG, a 3 s animated GIF, 10 s of MP3.
mk photo1080.jpg -f lavfi -i "testsrc2=size=1920x1080,noise=alls=10:allf=u" -frames:v 1 -q:v 3 -f image2
mk anim.gif -f lavfi -i "testsrc2=size=480x270:rate=10" -t 3 -f gif
mk audio.mp3 -f lavfi -i "$tone" -t 10 -ac 2 -c:a libmp3lame -b:a 128k -f mp3

# (a2) 10 s of 4K60 H.264 with AAC sound (the slowest to make: a few minutes, once).
mk video4k60.mp4 -f lavfi -i "testsrc2=size=3840x2160:rate=60,noise=alls=8:allf=t" -f lavfi -i "$tone" \
    -t 10 -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -f mp4
# (g) A/V offset: black 720p30 with a white patch on the left for 0.1 s at every whole second
# from 1 s, and a 1 kHz beep starting on exactly the same samples (48 kHz: second k is sample
# 48000 k, frame 30 k). The patch sits left of centre, where no control is ever drawn.
mk avsync.mp4 -f lavfi -i "color=black:size=1280x720:rate=30,drawbox=x=40:y=300:w=100:h=100:color=white:t=fill:enable='gte(t,1)*lt(mod(t,1),0.1)'" \
    -f lavfi -i "aevalsrc='if(gte(t,1)*lt(mod(t,1),0.1),0.5*sin(2*PI*1000*t),0)':s=48000:c=mono" \
    -t 10.5 -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -f mp4
# (h) launch to first frame: 1080p30 with sound and the same white patch in every frame, so
# an outside observer sees the first frame arrive.
mk launch1080.mp4 -f lavfi -i "testsrc2=size=1920x1080:rate=30,drawbox=x=60:y=450:w=150:h=150:color=white:t=fill" \
    -f lavfi -i "$tone" -t 3 -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 -f mp4
# (f) browsing: 100 photos of 12 megapixels, 300 small PNGs (each item a file of its own).
mk still12mp.jpg -f lavfi -i "testsrc2=size=4000x3000,noise=alls=10:allf=u" -frames:v 1 -q:v 3 -f image2
mk tiny.png -f lavfi -i "color=orange:size=16x16,scale=1:1" -frames:v 1 -f image2
many() { # folder, count, file: the file hard-linked (or copied) count times into the folder
    [ -d "$dir/$1" ] && [ "$(ls "$dir/$1" | wc -l)" = "$2" ] && return 0
    echo "bench: making $1/" >&2
    rm -rf "$dir/$1" "$dir/.tmp-$1"
    python3 - "$dir/.tmp-$1" "$2" "$dir/$3" "$4" <<'PY'
import os, shutil, sys
folder, count, src, ext = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
os.makedirs(folder)
for i in range(count):
    dst = os.path.join(folder, f"{i:05d}.{ext}")
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)
PY
    mv "$dir/.tmp-$1" "$dir/$1"
}
many browse12mp 100 still12mp.jpg jpg
many browsepng 300 tiny.png png
# (i) a queue of 10,000 items.
many queue10k 10000 tiny.png png
