#!/usr/bin/env bash
# Writes Sources/CDelayLoad/symbols.h: every function of the delay-loaded libraries that the
# built programs and tests call. Run it after a call to a new function of one of them fails
# the link with "undefined reference": build once with the library linked directly (add
# `-Xlinker -l<name>` to SWIFT_FLAGS), run this, and build again without.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-.build/debug}
# The short names delayload.c knows, each with the file name it loads.
libraries=(avformat:libavformat.so avcodec:libavcodec.so avutil:libavutil.so swscale:libswscale.so
           swresample:libswresample.so webpdemux:libwebpdemux.so webp:libwebp.so jpeg:libjpeg.so
           lcms2:liblcms2.so avif:libavif.so heif:libheif.so jxl:libjxl.so rsvg:librsvg-2.so
           gobject:libgobject-2.0.so glib:libglib-2.0.so cairo:libcairo.so ass:libass.so
           rubberband:librubberband.so pulse:libpulse.so seccomp:libseccomp.so
           tiff:libtiff.so png:libpng16.so freetype:libfreetype.so fontconfig:libfontconfig.so isal:libisal.so)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What the programs call: undefined in their objects (so a stub already defined counts too).
find -H "$build" -name '*.o' -print0 2>/dev/null | xargs -0 -r nm --undefined-only 2>/dev/null |
    awk 'NF == 2 { print $2 }' >"$work/calls"
# delayload.c itself sets FFmpeg's log level as libavutil loads.
echo av_log_set_level >>"$work/calls"
sort -u "$work/calls" >"$work/called"
{
    echo "// Every function of the codec and picture libraries that mediaview calls, with the"
    echo "// library that defines it. Included with DL_SYMBOL defined; see delayload.c."
    echo "// Made by scripts/delayload-symbols.sh from the built programs and tests; a call to a"
    echo "// function missing here fails the link with \"undefined reference\", and the script adds it."
    : >"$work/seen"
    for pair in "${libraries[@]}"; do
        id=${pair%%:*}
        file=$(ldconfig -p | awk -v f="${pair#*:}." 'index($1, f) == 1 && !found { print $NF; found = 1 }')
        [ -n "$file" ] || { echo "no ${pair#*:} on this system" >&2; exit 1; }
        nm -D --defined-only "$file" | awk '$2 == "T" || $2 == "i" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$work/defined"
        comm -12 "$work/called" "$work/defined" | while read -r name; do
            grep -qx "$name" "$work/seen" && continue
            echo "$name" >>"$work/seen"
            echo "DL_SYMBOL($id, $name)"
        done
    done
} >Sources/CDelayLoad/symbols.h.new
mv Sources/CDelayLoad/symbols.h.new Sources/CDelayLoad/symbols.h
echo "$(grep -c '^DL_SYMBOL' Sources/CDelayLoad/symbols.h) functions"
