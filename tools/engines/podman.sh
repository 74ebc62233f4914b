#!/usr/bin/env bash
# A throwaway podman engine for tests: `podman system service` as root, answering the Docker-compatible
# API on a unix socket of its own, with its own containers.conf and storage.conf (graphroot, runroot,
# tmp dir, file locks, network config and volumes all under the state dir or a short /tmp dir of its
# own), so that it never touches the main engine nor any other podman. The main engine only lends the
# images (docker save | podman load). Debian 12's podman 4.3 needs the runc runtime (named in the
# config) and explicit ulimits: by default it asks for more open files than this host allows a process.
#
#   podman.sh provision              apt-get install podman, runc, catatonit (a fresh Debian 12 machine, as root)
#   podman.sh up <state-dir>         start it; writes <state-dir>/env (DOCKER_HOST=unix://...)
#   podman.sh down <state-dir>       stop it by its pid, remove every container and its storage
#
# IMAGES (space-separated) overrides the images loaded into it; STORAGE_DRIVER picks overlay (default) or vfs.
set -euo pipefail

usage() { echo "usage: $0 provision | up|down <state-dir>" >&2; exit 2; }
[ $# -ge 1 ] || usage
action="$1"

provision() {
  # catatonit: the init a container with `Init: true` gets (podman's default init_path).
  if ! command -v podman >/dev/null || ! command -v runc >/dev/null || [ ! -x /usr/libexec/podman/catatonit ]; then
    # As tested: with podman's recommends (netavark among them).
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y podman runc conmon catatonit
  fi
  podman --version
}

if [ "$action" = provision ]; then provision; exit 0; fi
[ $# -eq 2 ] || usage
mkdir -p "$2"
state="$(cd "$2" && pwd)"
images="${IMAGES:-debian:bookworm-slim arvo-rca-sample:1-vul arvo-rca-sample:2-vul arvo-rca-sample:3-vul arvo-rca-sample:4-vul arvo-rca-sample:5-vul}"

# The podman CLI on this engine's storage and config (the service reads the same).
engine_podman() {
  local run
  run="$(cat "$state/run-root")"
  CONTAINERS_CONF="$state/containers.conf" CONTAINERS_STORAGE_CONF="$state/storage.conf" CONTAINERS_REGISTRIES_CONF="$state/registries.conf" \
    podman --root "$state/storage" --runroot "$run/storage" "$@"
}

# The ulimits the service runs with and every container gets: what this host lets a process have, nproc
# capped at 32768. podman's default for a container is more than that, and a host without
# CAP_SYS_RESOURCE (this one) cannot raise a limit: runc then fails with "error setting rlimit".
limits() {
  local nofile nproc
  nofile="$(ulimit -Hn)"
  nproc="$(ulimit -Hu)"
  [ "$nofile" = unlimited ] || [ "$nofile" -gt 1048576 ] && nofile=1048576
  [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  echo "$nofile $nproc"
}

write_config() {
  local run="$1" nofile="$2" nproc="$3"
  cat >"$state/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
log_driver = "k8s-file"
init_path = "/usr/libexec/podman/catatonit"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$run/events.log"
lock_type = "file"
tmp_dir = "$run/libpod"
static_dir = "$state/storage/libpod"
volume_path = "$state/storage/volumes"
image_copy_tmp_dir = "$state/tmp"
service_timeout = 0

[network]
network_config_dir = "$state/networks"
CONF
  # Like Docker, pull over plain HTTP from a registry on loopback (the suites' fake registry).
  cat >"$state/registries.conf" <<CONF
unqualified-search-registries = ["docker.io"]
short-name-mode = "permissive"

[[registry]]
location = "127.0.0.1"
insecure = true

[[registry]]
location = "localhost"
insecure = true
CONF
  cat >"$state/storage.conf" <<CONF
[storage]
driver = "${STORAGE_DRIVER:-overlay}"
graphroot = "$state/storage"
runroot = "$run/storage"
CONF
}

answers() { DOCKER_HOST="unix://$1" docker version >/dev/null 2>&1; }

# podman keeps a blob cache and netavark's address database in fixed places whatever its config says:
# those this engine makes, it removes.
GLOBAL_DIRS="/var/lib/containers /var/lib/containers/cache /run/containers /run/containers/networks"

up() {
  [ ! -f "$state/podman.pid" ] || { echo "podman: $state already holds an engine; run down first" >&2; exit 1; }
  command -v podman >/dev/null && [ -x /usr/libexec/podman/catatonit ] || { echo "podman: podman or catatonit is not installed; run $0 provision" >&2; exit 1; }
  # Runtime state, conmon's sockets and the API socket: a short path (unix socket paths are limited).
  local run
  run="$(mktemp -d /tmp/arvo-pod.XXXXXX)"
  echo "$run" >"$state/run-root"
  mkdir -p "$state/storage" "$state/networks" "$state/tmp"
  : >"$state/made-dirs"
  for dir in $GLOBAL_DIRS; do [ -e "$dir" ] || echo "$dir" >>"$state/made-dirs"; done
  local nofile nproc
  read -r nofile nproc < <(limits)
  write_config "$run" "$nofile" "$nproc"
  local socket="$run/podman.sock"
  echo "DOCKER_HOST=unix://$socket" >"$state/env"
  echo "podman: starting podman system service on unix://$socket (state: $state)"
  # TMPDIR: image pulls and loads stage their blobs there; keep them with the rest.
  (ulimit -n "$nofile" -u "$nproc" && TMPDIR="$state/tmp" exec nohup env CONTAINERS_CONF="$state/containers.conf" CONTAINERS_STORAGE_CONF="$state/storage.conf" CONTAINERS_REGISTRIES_CONF="$state/registries.conf" \
    podman --root "$state/storage" --runroot "$run/storage" system service --time=0 "unix://$socket" \
    >"$state/podman.log" 2>&1) &
  echo $! >"$state/podman.pid"
  for _ in $(seq 1 60); do
    if answers "$socket"; then break; fi
    if ! kill -0 "$(cat "$state/podman.pid")" 2>/dev/null; then
      echo "podman: the service exited; last lines of its log:" >&2
      tail -20 "$state/podman.log" >&2
      exit 1
    fi
    sleep 1
  done
  answers "$socket" || { echo "podman: no answer within 60 s" >&2; tail -20 "$state/podman.log" >&2; exit 1; }
  local present=()
  for image in $images; do
    if docker image inspect "$image" >/dev/null 2>&1; then present+=("$image"); else echo "podman: $image is not on the main engine, not loaded" >&2; fi
  done
  if [ ${#present[@]} -gt 0 ]; then
    echo "podman: loading ${present[*]}"
    docker save "${present[@]}" | TMPDIR="$state/tmp" engine_podman load --quiet >/dev/null
  fi
  echo "podman: up; source $state/env"
}

unmount_under() {
  { grep -o " $1[^ ]*" /proc/self/mounts || true; } | sort -r | while read -r mount; do umount -l "$mount" 2>/dev/null || true; done
}

# Ends the engine's own processes (conmon, podman's cleanup) left behind whose command line names this
# engine's storage, by pid.
stop_leftovers() {
  local needle="$1" pids=() proc name cmdline
  for proc in /proc/[0-9]*; do
    name="$(cat "$proc/comm" 2>/dev/null)" || continue
    [ "$name" = conmon ] || [ "$name" = podman ] || continue
    cmdline="$(tr '\0' ' ' <"$proc/cmdline" 2>/dev/null)" || continue
    [[ "$cmdline" == *"$needle"* ]] && pids+=("${proc#/proc/}")
  done
  [ ${#pids[@]} -eq 0 ] && return 0
  echo "podman: ending ${#pids[@]} leftover engine processes (${pids[*]})"
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

down() {
  local pid=""
  [ -f "$state/podman.pid" ] && pid="$(cat "$state/podman.pid")"
  local run=""
  [ -f "$state/run-root" ] && run="$(cat "$state/run-root")"
  if [ -n "$run" ] && [ -f "$state/containers.conf" ]; then
    # Whatever is left goes first, through podman itself (conmon, runc state, mounts).
    engine_podman rm --all --force --time 0 >/dev/null 2>&1 || true
  fi
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then echo "podman: service $pid did not stop in 30 s, killing it" >&2; kill -KILL "$pid" || true; fi
  fi
  # conmon outlives each exec session by exit_command_delay (300 s), even once its container is gone.
  stop_leftovers "$state/storage/"
  for root in "$state/storage" ${run:+"$run"}; do
    unmount_under "$root"
    # A mount let go lazily can still be busy for a moment.
    rm -rf "$root" 2>/dev/null || { sleep 2; unmount_under "$root"; rm -rf "$root"; }
  done
  rm -rf "$state/networks" "$state/tmp"
  if [ -f "$state/made-dirs" ]; then
    # Deepest first; a folder someone else has put something in since stays.
    sort -r "$state/made-dirs" | while read -r dir; do
      case "$dir" in */cache | */networks) rm -rf "$dir" ;; *) rmdir "$dir" 2>/dev/null || true ;; esac
    done
    rm -f "$state/made-dirs"
  fi
  rm -f "$state/env" "$state/podman.pid" "$state/run-root" "$state/containers.conf" "$state/storage.conf" "$state/registries.conf"
  echo "podman: down"
}

case "$action" in
  up) up ;;
  down) down ;;
  *) usage ;;
esac
