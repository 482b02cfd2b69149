#!/bin/bash
# Remakes the PNG sizes of the icon from its SVG (ffmpeg renders SVG with librsvg).
# The PNGs are committed, so building and installing never need this; run it after
# changing assets/icons/hicolor/scalable/apps/mediaview.svg.
set -euo pipefail
cd "$(dirname "$0")/.."
svg=assets/icons/hicolor/scalable/apps/mediaview.svg
for n in 16 24 32 48 64 128 256; do
    dir=assets/icons/hicolor/${n}x${n}/apps
    mkdir -p "$dir"
    ffmpeg -v error -y -i "$svg" -vf "scale=$n:$n:flags=lanczos,format=rgba" -frames:v 1 "$dir/mediaview.png"
done
# The window's own icon (_NET_WM_ICON) as raw R, G, B, A bytes of the same PNGs: the viewer
# reads these at every start without a PNG decoder, so it maps no picture library.
mkdir -p assets/icons/window
for n in 16 32 48 64 128; do
    ffmpeg -v error -y -i "assets/icons/hicolor/${n}x${n}/apps/mediaview.png" -f rawvideo -pix_fmt rgba \
        "assets/icons/window/mediaview-${n}x${n}.rgba"
done
