#!/usr/bin/env bash
# Makes debian:bookworm-slim available to the engine (DOCKER_HOST, as the docker CLI reads it) when it
# cannot be pulled. The build machines reach Debian's mirror but not Docker Hub, so the image is
# bootstrapped with debootstrap (minbase) and imported under the tag the Dockerfiles name: they then build
# unchanged. The bootstrapped root filesystem is kept as a tarball in ROOTFS_CACHE (default
# ~/.cache/arvo-rca/rootfs) for 30 days, so that another engine, or this one emptied, imports it in seconds.
# Without an argument it then also provides the agents' Node base, node:24-bookworm-slim
# (node-base-image.sh); with a tag it provides that Debian tag only.
set -euo pipefail

tag="${1:-debian:bookworm-slim}"
suite="${SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
here="$(cd "$(dirname "$0")" && pwd)"
cache="${ROOTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arvo-rca/rootfs}"
max_age_days=30

# The Node base is made from the Debian one, so it comes last, whichever way the Debian one came.
finish() {
  if [ $# -eq 0 ]; then bash "$here/node-base-image.sh"; fi
  exit 0
}

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base-image: $tag is present"
  finish "$@"
fi
if timeout 60 docker pull "$tag" >/dev/null 2>&1; then
  echo "base-image: pulled $tag"
  finish "$@"
fi

# A tarball is what this script made from this suite, architecture and mirror; `layout` is the version of
# what it does to the tree after debootstrap (bump it when that changes, so that no old tree is imported).
layout=1
arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
key="$suite-$arch-minbase$layout-$(printf '%s' "$mirror" | sha256sum | cut -c1-12)"
tarball="$cache/$key.tar"
fresh() { [ -n "$(find "$tarball" -maxdepth 0 -mtime -"$max_age_days" 2>/dev/null)" ]; }
import_tarball() {
  echo "base-image: importing $tag from $tarball (bootstrapped $(date -r "$tarball" '+%Y-%m-%d'))"
  docker import --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' "$tarball" "$tag" >/dev/null
  echo "base-image: imported $tag"
  finish "$@"
}
if fresh; then import_tarball "$@"; fi

# One bootstrap of a key at a time: a second run waits for the first's tarball instead of making its own.
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
if ! flock -n 9; then
  echo "base-image: another run is bootstrapping $suite; waiting for it"
  flock 9
  if fresh; then import_tarball "$@"; fi
fi

command -v debootstrap >/dev/null || {
  echo "base-image: installing debootstrap (apt-get, needs root)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

work="$(mktemp -d /tmp/arvo-rca-rootfs.XXXXXX)"
partial="$(mktemp "$cache/.$key.XXXXXX")"
trap 'rm -rf "$work" "$partial"' EXIT
root="$work/root"
echo "base-image: bootstrapping $suite from $mirror with debootstrap (first time only, a few minutes)"
# Its phases as they start, and a count of the packages fetched; the whole log only when it fails.
if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" 2>&1 | tee "$work/log" | awk '
    /^I: / {
      if ($2 == "Retrieving" && ++fetched % 25 == 0) { printf "base-image:   %d packages fetched\n", fetched; fflush() }
      if (!($2 in seen)) { seen[$2] = 1; print "base-image:   " substr($0, 4); fflush() }
    }'; then
  tail -20 "$work/log" >&2
  echo "base-image: debootstrap of $suite from $mirror failed" >&2
  exit 1
fi

# Trim what the slim image does not carry, and keep apt lean in derived images.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
cat >"$root/etc/apt/sources.list" <<LIST
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
LIST
echo 'APT::Install-Recommends "false";' >"$root/etc/apt/apt.conf.d/90no-recommends"

# Written under a temporary name and renamed: a reader sees a whole tarball or none. Tarballs past their
# age go now, whichever key they had.
find "$cache" -maxdepth 1 -name '*.tar' -mtime +"$max_age_days" -delete
tar -C "$root" -c . >"$partial"
chmod 0644 "$partial"
mv -f "$partial" "$tarball"
import_tarball "$@"
