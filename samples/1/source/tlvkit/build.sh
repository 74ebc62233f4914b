#!/bin/bash
# Builds the tlvkit fuzzer OSS-Fuzz style.
set -eu

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for src in src/*.c; do
  obj="$WORK/$(basename "${src%.c}").o"
  $CC $CFLAGS -Iinclude -Isrc -c "$src" -o "$obj"
done

$CC $CFLAGS -Iinclude fuzz/tlv_fuzzer.c "$WORK"/*.o $LIB_FUZZING_ENGINE \
  -o "$OUT/tlv_fuzzer"
