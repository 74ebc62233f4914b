#!/usr/bin/env bash
# Lays out a task on a real project tree, in the samples' layout (<out>/<id>/: error.txt, repo-vul.tar.gz,
# patch.diff): Debian's libarchive 3.6.2 source (tools/bench/real-tree.sh) with one of its own fixes,
# debian/patches/fix-OOB-in-rar-e8-filter-2135.patch (CVE-2024-26256), taken out again. The patch is
# diffed anew against that tree, so that its line numbers are the tree's: Debian applies later patches
# to the same file. No sanitizer report exists for this fix here, and none is made up: error.txt says so.
# usage: real-task.sh <out dir> [id]     prints the task's folder
set -euo pipefail
out="$(realpath -m "${1:?usage: real-task.sh <out dir> [id]}")"
id="${2:-libarchive-e8}"
here="$(cd "$(dirname "$0")" && pwd)"
tree="$(bash "$here/../bench/real-tree.sh" libarchive)"
fix="$tree/debian/patches/fix-OOB-in-rar-e8-filter-2135.patch"
[ -f "$fix" ] || { echo "real-task: $fix is missing" >&2; exit 1; }
task="$out/$id"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$task" "$work/src-vul" "$work/fixed"
# The tree as Debian ships it (every patch applied), without its packaging; then without the fix.
tar -C "$tree" --exclude=./debian --exclude=./.pc -cf - . | tar -C "$work/fixed" -xf -
cp -a "$work/fixed" "$work/src-vul/libarchive"
patch -s -R -p1 -d "$work/src-vul/libarchive" <"$fix"
file=libarchive/archive_read_support_format_rar.c
(cd "$work" && diff -u --label "a/$file" --label "b/$file" "src-vul/libarchive/$file" "fixed/$file" >"$task/patch.diff") || [ $? -eq 1 ]
tar -C "$work" -czf "$task/repo-vul.tar.gz" src-vul
printf '%s\n' \
  "No sanitizer report: this task is libarchive 3.6.2 as Debian ships it, with its fix for CVE-2024-26256" \
  "(an out-of-bounds read in the RAR reader's E8 filter, debian/patches/fix-OOB-in-rar-e8-filter-2135.patch)" \
  "taken out again. It exercises task preparation, ground truth and the sandbox on a real tree." >"$task/error.txt"
echo "$task"
