#!/bin/bash
# Builds the raster_fuzzer target, OSS-Fuzz style.
set -eu

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for src in src/*.c; do
  $CC $CFLAGS -Iinclude -c "$src" -o "$WORK/$(basename "$src" .c).o"
done

$CC $CFLAGS -Iinclude fuzz/raster_fuzzer.c "$WORK"/*.o $LIB_FUZZING_ENGINE \
  -o "$OUT/raster_fuzzer"
