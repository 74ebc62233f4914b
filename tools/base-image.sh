#!/usr/bin/env bash
# Makes debian:bookworm-slim available to the local engine when it cannot be pulled.
# The build machines reach Debian's mirror but not Docker Hub, so the image is bootstrapped with
# debootstrap (minbase) and imported under the tag the Dockerfiles name: they then build unchanged.
# Without an argument it then also provides the agents' Node base, node:24-bookworm-slim
# (node-base-image.sh); with a tag it provides that Debian tag only.
set -euo pipefail

tag="${1:-debian:bookworm-slim}"
suite="${SUITE:-bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
here="$(cd "$(dirname "$0")" && pwd)"

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

command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

root="$(mktemp -d /tmp/arvo-rca-rootfs.XXXXXX)"
trap 'rm -rf "$root"' EXIT
echo "base-image: bootstrapping $suite from $mirror (a few minutes)"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log"; exit 1; }
rm -f "$root.log"

# Trim what the slim image does not carry, and keep apt lean in derived images.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/*
cat >"$root/etc/apt/sources.list" <<LIST
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
LIST
echo 'APT::Install-Recommends "false";' >"$root/etc/apt/apt.conf.d/90no-recommends"

tar -C "$root" -c . | docker import --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' - "$tag" >/dev/null
echo "base-image: imported $tag"
finish "$@"
