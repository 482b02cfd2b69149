#!/bin/bash
# Makes the bundled demo queue in assets/demo/ with ffmpeg's synthetic sources,
# so the repository needs no third-party media and the files can be remade.
# The outputs are committed; run this again only to change them.
#
#   scripts/make-demo-assets.sh [OUTDIR]      (default: assets/demo)
#
# Files are numbered because `mediaview` with no arguments plays them in name
# order: a still, an animated GIF, a video with sound, audio with cover art.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-assets/demo}
mkdir -p "$out"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
[ -r "$font" ] || { echo "make-demo-assets: $font missing (apt-get install fonts-dejavu-core)" >&2; exit 1; }

# -bitexact and no metadata keep reruns byte-identical on the same ffmpeg,
# so regenerating does not churn git for nothing.
ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }
exact=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)

# A title line drawn on the media, so a screenshot shows which item is up.
label() { # text size
    printf "drawtext=fontfile=%s:text='%s':fontsize=%s:fontcolor=white:borderw=3:bordercolor=black@0.8:x=(w-text_w)/2:y=h-text_h-h/12" \
        "$font" "$1" "$2"
}

# 1. A still with fine detail everywhere (a Mandelbrot frame), so scaling and
#    colour errors show in a screenshot.
ff -f lavfi -i "mandelbrot=size=1280x720:start_scale=2.2:start_x=-0.75:start_y=0:maxiter=256:outer=normalized_iteration_count,$(label 'mediaview demo 1/4  still image' 40),format=yuvj420p" \
    -frames:v 1 -q:v 5 "${exact[@]}" "$out/01-still.jpg"

# 2. An animated GIF, 2 s at 10 fps, looping forever: testsrc2 moves and its
#    frame counter makes each frame distinct. One palette for all frames.
ff -f lavfi -i "testsrc2=size=320x240:rate=10:duration=2,$(label 'GIF 2/4' 22),split[a][b];[a]palettegen=max_colors=64:stats_mode=full[p];[b][p]paletteuse=dither=bayer:bayer_scale=3" \
    -loop 0 "${exact[@]}" "$out/02-animated.gif"

# 3. A 4 s video with sound: 440 Hz on the left, 660 Hz on the right, so a test
#    (or a listener) can tell the channels apart. faststart puts the index first
#    for streaming over HTTP.
ff -f lavfi -i "testsrc2=size=640x360:rate=25:duration=4,$(label 'video 3/4' 30)" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=4" \
    -f lavfi -i "sine=frequency=660:sample_rate=48000:duration=4" \
    -filter_complex "[1:a][2:a]join=inputs=2:channel_layout=stereo,volume=0.5[a]" \
    -map 0:v -map "[a]" \
    -c:v libx264 -preset medium -crf 30 -pix_fmt yuv420p -g 25 -threads 1 \
    -c:a aac -b:a 96k -movflags +faststart "${exact[@]}" "$out/03-video.mp4"

# 4. Audio with cover art: a 4 s rising sweep (220 -> 880 Hz) with a gentle
#    tremolo so it sounds less like a test tone; the phase is the integral of
#    the frequency, f(t) = 220 + 165 t. The cover is a PNG attached picture.
cover=$(mktemp --suffix=.png)
trap 'rm -f "$cover"' EXIT
ff -f lavfi -i "gradients=size=300x300:c0=0x2b5876:c1=0x4e4376:c2=0xd66d75:nb_colors=3:seed=7,$(label 'Demo tone' 34)" \
    -frames:v 1 "${exact[@]}" "$cover"
ff -f lavfi -i "aevalsrc='0.4*sin(2*PI*(220*t+82.5*t*t))*(0.8+0.2*sin(2*PI*5*t))':sample_rate=44100:duration=4:channel_layout=stereo" \
    -i "$cover" -map 0:a -map 1:v \
    -c:a libmp3lame -b:a 96k -c:v png -disposition:v attached_pic \
    -id3v2_version 3 -map_metadata -1 -fflags +bitexact \
    -metadata title="Demo tone" -metadata artist="mediaview" -metadata album="mediaview demo" \
    -metadata:s:v title="Album cover" -metadata:s:v comment="Cover (front)" \
    "$out/04-audio-cover.mp3"

ls -l "$out"
