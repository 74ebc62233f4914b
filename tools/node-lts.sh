#!/usr/bin/env bash
# Prints the bin folder of a supported Node LTS, for machines whose own Node is older or missing a line:
# the official binary comes from the npm registry as the package node-linux-<arch> (npm checks the
# tarball's integrity), unpacked once into a cache. npm itself is the machine's: it runs on any line here.
# Usage: tools/node-lts.sh [22|24|26]   (default 24, the line CI runs the whole suite on)
#        tools/node-lts.sh 20           an end-of-life line, for CI's check that a newcomer's old Node works
set -euo pipefail

major="${1:-24}"
# Pinned, so that CI tests exactly these; move them on with the package.json engines field.
case "$major" in
  20) version=20.20.2 ;;
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  26) version=26.12.1 ;;
  *) echo "node-lts: Node $major is not a supported LTS line here (22, 24 or 26)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "node-lts: no Node package for $(uname -m) on the npm registry" >&2; exit 2 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/arvo-rca/node/$version-$arch"

if [ ! -x "$cache/bin/node" ]; then
  command -v npm >/dev/null || { echo "node-lts: npm is needed to fetch Node $version (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$(dirname "$cache")"
  # Beside the cache, so that the last step is a rename on one file system.
  work="$(mktemp -d "$(dirname "$cache")/.fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "node-lts: fetching Node $version (node-linux-$arch) from the npm registry" >&2
  (cd "$work" && npm pack --silent "node-linux-$arch@$version" >/dev/null)
  tar -xzf "$work/node-linux-$arch-$version.tgz" -C "$work"
  "$work/package/bin/node" --version >/dev/null
  # Renamed into place whole: a concurrent run sees the cache complete or not at all.
  mv "$work/package" "$work/ready"
  mv -T "$work/ready" "$cache" 2>/dev/null || [ -x "$cache/bin/node" ]
fi
echo "$cache/bin"
