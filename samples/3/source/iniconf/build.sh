#!/bin/bash
# OSS-Fuzz style build of the iniconf fuzz target.
set -eu

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for src in src/*.c; do
    obj="$WORK/$(basename "${src%.c}").o"
    $CC $CFLAGS -Iinclude -c "$src" -o "$obj"
done

$CC $CFLAGS -Iinclude fuzz/ini_fuzzer.c "$WORK"/*.o $LIB_FUZZING_ENGINE \
    -o "$OUT/ini_fuzzer"
