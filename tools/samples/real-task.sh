#!/usr/bin/env bash
# Lays out a task on a real project tree, in the samples' layout (<out>/<task>/: error.txt,
# repo-vul.tar.gz, patch.diff), from a Debian source package (tools/bench/real-tree.sh) and one of the
# fixes in its own debian/patches. No sanitizer report exists for these fixes here, and none is made up:
# error.txt says so. The tasks:
#   libarchive-e8  Debian's libarchive 3.6.2 (1,397 files, 7 MB archive) with its fix for CVE-2024-26256
#                  (debian/patches/fix-OOB-in-rar-e8-filter-2135.patch) taken out again; the patch is
#                  diffed anew against that tree, as Debian applies later patches to the same file.
#   systemd-udev   systemd 252.39 as upstream released it (the .orig tarball: 4,997 files, 77 symbolic
#                  links, 174 binary files, generated ones such as man/rules/meson.build; 80 MB), and
#                  Debian's fix for CVE-2026-40225 (debian/patches/CVE-2026-40225.patch: udev's callouts
#                  take strings from the kernel unchecked) as the patch, verbatim: it applies to that
#                  tree exactly, without offset or fuzz, which is checked here.
# usage: real-task.sh <out dir> [task]     prints the task's folder
set -euo pipefail
out="$(realpath -m "${1:?usage: real-task.sh <out dir> [task]}")"
id="${2:-libarchive-e8}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
task="$out/$id"

libarchive_e8() {
  local tree fix file
  tree="$(bash "$here/../bench/real-tree.sh" libarchive)"
  fix="$tree/debian/patches/fix-OOB-in-rar-e8-filter-2135.patch"
  [ -f "$fix" ] || { echo "real-task: $fix is missing" >&2; exit 1; }
  mkdir -p "$work/src-vul" "$work/fixed"
  # The tree as Debian ships it (every patch applied), without its packaging; then without the fix.
  tar -C "$tree" --exclude=./debian --exclude=./.pc -cf - . | tar -C "$work/fixed" -xf -
  cp -a "$work/fixed" "$work/src-vul/libarchive"
  patch -s -R -p1 -d "$work/src-vul/libarchive" <"$fix"
  file=libarchive/archive_read_support_format_rar.c
  (cd "$work" && diff -u --label "a/$file" --label "b/$file" "src-vul/libarchive/$file" "fixed/$file" >"$task/patch.diff") || [ $? -eq 1 ]
  printf '%s\n' \
    "No sanitizer report: this task is libarchive 3.6.2 as Debian ships it, with its fix for CVE-2024-26256" \
    "(an out-of-bounds read in the RAR reader's E8 filter, debian/patches/fix-OOB-in-rar-e8-filter-2135.patch)" \
    "taken out again. It exercises task preparation, ground truth and the sandbox on a real tree." >"$task/error.txt"
}

systemd_udev() {
  local tree fix orig applied
  tree="$(bash "$here/../bench/real-tree.sh" systemd)"
  fix="$tree/debian/patches/CVE-2026-40225.patch"
  orig="$(find "$(dirname "$tree")" -maxdepth 1 -name 'systemd_*.orig.tar.*' | head -1)"
  [ -f "$fix" ] && [ -f "$orig" ] || { echo "real-task: $fix or systemd's .orig tarball is missing" >&2; exit 1; }
  mkdir -p "$work/src-vul"
  tar -C "$work/src-vul" -xf "$orig"
  mv "$work/src-vul"/systemd-* "$work/src-vul/systemd"
  applied="$(patch -p1 --dry-run --fuzz=0 -d "$work/src-vul/systemd" <"$fix")"
  if grep -q 'offset\|fuzz\|FAILED' <<<"$applied"; then echo "real-task: $fix does not apply exactly to $orig: $applied" >&2; exit 1; fi
  cp "$fix" "$task/patch.diff"
  printf '%s\n' \
    "No sanitizer report: this task is systemd 252.39 as released upstream, without Debian's fix for CVE-2026-40225" \
    "(udev's callouts pass strings from the kernel on unchecked, debian/patches/CVE-2026-40225.patch)." \
    "It exercises task preparation, ground truth and the sandbox on a real tree with links and binary files." >"$task/error.txt"
}

mkdir -p "$task"
case "$id" in
  libarchive-e8) libarchive_e8 ;;
  systemd-udev) systemd_udev ;;
  *) echo "real-task: unknown task $id (libarchive-e8, systemd-udev)" >&2; exit 2 ;;
esac
tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$task/repo-vul.tar.gz" src-vul
echo "$task"
