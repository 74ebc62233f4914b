#!/bin/bash
# Build the bdecode_fuzzer target (OSS-Fuzz style: $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE, $OUT).
set -eu

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for src in src/node.c src/dict.c src/decode.c src/encode.c; do
	obj="$WORK/$(basename "${src%.c}").o"
	$CC $CFLAGS -Iinclude -c "$src" -o "$obj"
done

$CC $CFLAGS -Iinclude fuzz/bdecode_fuzzer.c "$WORK"/*.o \
	$LIB_FUZZING_ENGINE -o "$OUT/bdecode_fuzzer"
