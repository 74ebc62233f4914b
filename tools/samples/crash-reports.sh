#!/usr/bin/env bash
# Produces real sanitizer reports for the crash-report reader's tests: builds tools/samples/crash-programs
# with gcc and clang (ASan, MSan, UBSan, libFuzzer) and runs each bug. The sources are compiled at /src,
# in a mount namespace of their own, so that frames read `/src/proj/buffer.c:17:5` as in ARVO's reports.
# usage: crash-reports.sh <output dir>      (needs gcc, clang, and root for the mount namespace)
set -euo pipefail
out="$(realpath -m "${1:?usage: crash-reports.sh <output dir>}")"
here="$(cd "$(dirname "$0")" && pwd)"
for tool in gcc clang clang++ unshare; do command -v "$tool" >/dev/null || { echo "crash-reports: $tool is missing" >&2; exit 2; }; done
mkdir -p "$out"
work="$(mktemp -d)"
cp -r "$here/crash-programs/." "$work/"
# /src is shared by every run on the machine: two runs at once (two CI runs) take turns.
exec 9>"${TMPDIR:-/tmp}/arvo-rca-crash-reports.lock"
flock 9
[ -d /src ] || { mkdir /src; made_src=1; }
trap 'rm -rf "$work"; [ -z "${made_src:-}" ] || rmdir /src 2>/dev/null || true' EXIT
unshare --mount --propagation private bash -euo pipefail -c '
  work="$1"; out="$2"
  mount --bind "$work" /src
  cd /src
  bin=$(mktemp -d)
  trap '"'"'rm -rf "$bin"'"'"' EXIT
  # Each bug writes its report; a program that exits 0 reported nothing, which is a failure here. A report
  # without a stack is a run that something else stopped (a loaded machine can): it is run once more, and
  # printed if it again has none.
  attempt() { local name="$1"; shift; if env "$@" >"$bin/$name.out" 2>"$out/$name.txt"; then echo "crash-reports: $name did not crash" >&2; exit 1; fi; grep -qE "^ *#0 " "$out/$name.txt"; }
  run() { attempt "$@" || attempt "$@" || { echo "crash-reports: $1 printed no stack:" >&2; cat "$out/$1.txt" >&2; exit 1; }; }
  # A report is the sanitizer output only: the program'"'"'s own stdout is not part of it.
  gcc -g -O0 -fsanitize=address -o "$bin/gcc-asan" proj/main.c proj/buffer.c
  clang -g -O0 -fsanitize=address -o "$bin/clang-asan" proj/main.c proj/buffer.c
  clang++ -g -O0 -fsanitize=address -o "$bin/cxx-asan" proj/tables.cc
  clang -g -O0 -fsanitize=memory -fsanitize-memory-track-origins -o "$bin/msan" proj/main.c proj/buffer.c
  clang -g -O0 -fsanitize=undefined -o "$bin/ubsan" proj/main.c proj/buffer.c
  clang -g -O0 -fsanitize=undefined -fno-sanitize-recover=all -o "$bin/ubsan-abort" proj/main.c proj/buffer.c
  clang -g -O0 -fsanitize=fuzzer -o "$bin/fuzzer" proj_fuzzer.c proj/buffer.c
  clang -g -O0 -fsanitize=fuzzer,address -o "$bin/fuzzer-asan" proj_fuzzer.c proj/buffer.c
  printf A >"$bin/abort-input"; printf L >"$bin/loop-input"; printf M >"$bin/oom-input"
  run gcc-asan-heap-buffer-overflow "$bin/gcc-asan" overflow
  run clang-asan-heap-buffer-overflow "$bin/clang-asan" overflow
  run clang-asan-heap-use-after-free "$bin/clang-asan" use-after-free
  run cxx-asan-template-operator "$bin/cxx-asan"
  run msan-use-of-uninitialized-value "$bin/msan" uninitialized
  run clang-asan-stack-overflow "$bin/clang-asan" stack-overflow
  run clang-asan-segv "$bin/clang-asan" segv
  run ubsan-abort-with-stack UBSAN_OPTIONS=print_stacktrace=1 "$bin/ubsan-abort" integer-overflow
  run libfuzzer-deadly-signal "$bin/fuzzer" "$bin/abort-input"
  run libfuzzer-timeout "$bin/fuzzer" -timeout=1 "$bin/loop-input"
  # The malloc limit is what this bug trips; the RSS limit sits above the 512 MB of shadow memory ASan touches
  # for the 4 GiB block before the malloc hook reports it, or a loaded machine lets the RSS watcher report first.
  run libfuzzer-out-of-memory "$bin/fuzzer-asan" -rss_limit_mb=2048 -malloc_limit_mb=256 "$bin/oom-input"
  # UBSan that recovers prints one line and goes on: its run succeeds, and the line is the report.
  "$bin/ubsan" integer-overflow >/dev/null 2>"$out/ubsan-single-line.txt"
  grep -q "runtime error" "$out/ubsan-single-line.txt" || { echo "crash-reports: ubsan printed no runtime error" >&2; exit 1; }
' _ "$work" "$out"
ls "$out"
