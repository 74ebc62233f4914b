#!/usr/bin/env bash
# Prints the path of a real C project tree for the benchmark: a Debian source package (default
# libarchive, whose fixes are ARVO cases), fetched once with `apt-get source` into CACHE (default
# ~/.cache/arvo-rca/trees) and unpacked there, with its own debian/patches. Adds a deb-src entry for
# the machine's suite when apt has none (root only).
set -euo pipefail

package="${1:-libarchive}"
cache="${CACHE:-$HOME/.cache/arvo-rca/trees}"
mkdir -p "$cache/$package"
found="$(find "$cache/$package" -mindepth 1 -maxdepth 1 -type d -name "$package-*" | head -1)"
if [ -n "$found" ]; then echo "$found"; exit 0; fi

if ! grep -rqs '^Types: deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  [ "$(id -u)" = 0 ] || { echo "real-tree: apt has no deb-src entry; add one or run as root" >&2; exit 1; }
  . /etc/os-release
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$VERSION_CODENAME" \
    >/etc/apt/sources.list.d/arvo-rca-src.sources
  apt-get update -qq >&2
fi
command -v dpkg-source >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev >&2; }
(cd "$cache/$package" && apt-get source -qq "$package" >&2)
find "$cache/$package" -mindepth 1 -maxdepth 1 -type d -name "$package-*" | head -1
