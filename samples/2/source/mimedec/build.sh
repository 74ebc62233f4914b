#!/bin/bash
# Builds the decode_fuzzer target, OSS-Fuzz style. Uses $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE and $OUT; objects go to a scratch directory so the
# source tree stays clean.
set -eu

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for src in src/*.c; do
  obj="$WORK/$(basename "${src%.c}").o"
  $CC $CFLAGS -Iinclude -Isrc -c "$src" -o "$obj"
done
$CC $CFLAGS -Iinclude -c fuzz/decode_fuzzer.c -o "$WORK/fuzz_decode_fuzzer.o"

$CC $CFLAGS "$WORK"/*.o $LIB_FUZZING_ENGINE -o "$OUT/decode_fuzzer"
