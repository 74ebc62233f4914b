#!/usr/bin/env bash
# A second, throwaway Docker engine on a fresh journaled ext4 of its own, for the benchmark's figures that
# write trees (real_task, copy_in): a sparse image file in <state-dir>, made with mkfs.ext4's defaults and
# loop-mounted on <state-dir>/mnt, which holds the engine's data-root and a folder for the trees (tmp). A
# dockerd of its own (exec-root, pidfile, its own managed containerd) answers on a unix socket, with a
# bridge of its own (never docker0). It never touches the main engine's data; the main engine only lends
# the images (docker save | docker load).
#
# Why: ext4 without a journal (this machine's root filesystem) skips inodes deleted in the last minutes
# when it allocates new ones, so files made after a tree was deleted can cost 10 to 25 times as much,
# depending on what was deleted before and where. A fresh journaled filesystem makes them at one pace.
#
#   loop-engine.sh up <state-dir>     start it; writes <state-dir>/env (DOCKER_HOST, and TMPDIR on the fresh
#                                     filesystem); exits with 3 when this machine cannot loop-mount one
#   loop-engine.sh down <state-dir>   stop it by its pid, unmount the filesystem, remove the image file
#
# IMAGES (space-separated) overrides the images loaded into it; DISK_SIZE the image's size (default 16G).
set -euo pipefail

images="${IMAGES:-debian:bookworm-slim arvo-rca-sample:1-vul}"
# shellcheck source=tools/engines/dockerd-lib.sh
. "$(dirname "$0")/dockerd-lib.sh"
read_engine_args "$@"

engine_docker() {
  # shellcheck disable=SC1091
  (. "$state/env" && export DOCKER_HOST && docker "$@")
}

# Exit 3: no fresh filesystem on this machine (not root, no loop device); the caller may do without.
mount_fresh_filesystem() {
  [ "$(id -u)" -eq 0 ] || { echo "loop-engine: a loop mount needs root" >&2; exit 3; }
  truncate -s "${DISK_SIZE:-16G}" "$state/fs.img"
  mkfs.ext4 -q "$state/fs.img" || { echo "loop-engine: mkfs.ext4 failed" >&2; exit 3; }
  mkdir -p "$state/mnt"
  mount -o loop "$state/fs.img" "$state/mnt" || { echo "loop-engine: mount -o loop failed" >&2; exit 3; }
  mkdir -p "$state/mnt/data" "$state/mnt/tmp"
  chmod 1777 "$state/mnt/tmp"
}

# A /24 under 10.233/16 that no interface of this machine has yet.
free_subnet() {
  local taken
  taken="$(ip -4 -o addr show)"
  for n in $(seq 1 250); do
    if ! grep -q " 10\.233\.$n\." <<<"$taken"; then echo "10.233.$n"; return 0; fi
  done
  echo "loop-engine: no free /24 under 10.233/16" >&2
  exit 1
}

up() {
  [ ! -f "$state/dockerd.pid" ] || { echo "loop-engine: $state already holds an engine; run down first" >&2; exit 1; }
  mount_fresh_filesystem
  # The engine's own socket lives under the short exec-root too.
  local short
  short="$(make_exec_root)"
  printf 'DOCKER_HOST=unix://%s/docker.sock\nTMPDIR=%s/mnt/tmp\n' "$short" "$state" >"$state/env"
  local bridge="arvoloop${short##*.}"
  own_bridge "$bridge" "$(free_subnet).1/24"
  echo "loop-engine: starting dockerd on unix://$short/docker.sock, data on a fresh ext4 at $state/mnt"
  start_dockerd loop-engine "$state/mnt/data" "$short/exec" "$bridge" -H "unix://$short/docker.sock"
  # shellcheck disable=SC2086 # a space-separated list
  load_images loop-engine $images
  echo "loop-engine: up; source $state/env"
}

down() {
  stop_dockerd loop-engine
  remove_exec_root
  # The shims' leftovers under the data-root first, the loop filesystem last; then its loop device, if
  # umount left it attached.
  unmount_under "$state/mnt"
  if [ -f "$state/fs.img" ]; then
    losetup -j "$state/fs.img" | cut -d: -f1 | while read -r device; do losetup -d "$device" 2>/dev/null || true; done
  fi
  delete_bridge
  rmdir "$state/mnt" 2>/dev/null || true
  rm -f "$state/fs.img" "$state/env" "$state/dockerd.pid" "$state/dockerd.launch-pid" "$state/exec-root" "$state/daemon.json"
  echo "loop-engine: down"
}

case "$action" in
  up) up ;;
  down) down ;;
  *) engine_usage ;;
esac
