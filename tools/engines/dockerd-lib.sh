# Sourced by the scripts that make a throwaway dockerd beside the main one (tls-engine.sh,
# loop-engine.sh). They keep in "$state": dockerd.pid (its own pidfile), dockerd.launch-pid, dockerd.log,
# exec-root and bridge; and define engine_docker, the docker CLI pointed at their engine.

# The command line of those scripts, `up|down <state-dir>`: sets $action, and $state (made, absolute).
engine_usage() { echo "usage: $0 up|down <state-dir>" >&2; exit 2; }
read_engine_args() {
  [ $# -eq 2 ] || engine_usage
  action="$1"
  mkdir -p "$2"
  state="$(cd "$2" && pwd)"
}

# A bridge of its own: started with --bridge=none, dockerd deletes the host's docker0 (the main engine's
# default bridge, which its image builds need) as a stale default bridge.
own_bridge() {
  local name="$1" address="$2"
  ip link add name "$name" type bridge
  echo "$name" >"$state/bridge"
  ip addr add "$address" dev "$name"
  ip link set "$name" up
}

# With OUTBOUND=1: the engine's containers reach the network through this machine, as on an engine of
# its own (an image build's apt-get needs it; task containers have no network anyway). dockerd runs
# without iptables here, so the masquerade and the forwarding (the main engine's FORWARD policy drops what
# it does not know) are rules of our own, kept in "$state/nat" and deleted on down.
own_nat() {
  local bridge="$1" subnet="$2"
  [ "${OUTBOUND:-}" = 1 ] || return 0
  printf '%s\n' "nat POSTROUTING -s $subnet ! -o $bridge -j MASQUERADE" \
    "filter FORWARD -i $bridge ! -o $bridge -j ACCEPT" \
    "filter FORWARD -o $bridge -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT" >"$state/nat"
  local table chain rule
  while read -r table chain rule; do
    # shellcheck disable=SC2086 # the rule's words
    iptables -t "$table" -I "$chain" $rule
  done <"$state/nat"
}

delete_nat() {
  [ -f "$state/nat" ] || return 0
  local table chain rule
  while read -r table chain rule; do
    # shellcheck disable=SC2086 # the rule's words
    iptables -t "$table" -D "$chain" $rule 2>/dev/null || true
  done <"$state/nat"
  rm -f "$state/nat"
}

# A short exec-root, kept in "$state/exec-root": containerd's sockets live under it, and unix socket
# paths are limited.
make_exec_root() {
  local root
  root="$(mktemp -d /tmp/arvo-eng.XXXXXX)"
  echo "$root" >"$state/exec-root"
  echo "$root"
}

# Starts dockerd in the background with a data-root, an exec-root and a bridge of its own, its pidfile and
# log in "$state", no iptables; the rest of the arguments go on its command line (its -H, TLS). Returns
# once it answers.
start_dockerd() {
  local who="$1" data_root="$2" exec_root="$3" bridge="$4"
  shift 4
  echo '{}' >"$state/daemon.json"
  nohup dockerd \
    --config-file "$state/daemon.json" \
    --data-root "$data_root" \
    --exec-root "$exec_root" \
    --pidfile "$state/dockerd.pid" \
    --bridge="$bridge" --iptables=false --ip-masq=false \
    "$@" \
    >"$state/dockerd.log" 2>&1 &
  echo $! >"$state/dockerd.launch-pid"
  wait_for_dockerd "$who"
}

# Waits up to 60 s for the engine started in the background ($!, saved as dockerd.launch-pid) to answer.
wait_for_dockerd() {
  local who="$1"
  for _ in $(seq 1 60); do
    if engine_docker version >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$(cat "$state/dockerd.launch-pid")" 2>/dev/null; then
      echo "$who: dockerd exited; last lines of its log:" >&2
      tail -20 "$state/dockerd.log" >&2
      exit 1
    fi
    sleep 1
  done
  echo "$who: no answer within 60 s" >&2
  tail -20 "$state/dockerd.log" >&2
  exit 1
}

# Lends the engine the main engine's images: those of the list that the main engine has.
load_images() {
  local who="$1"
  shift
  local present=()
  for image in "$@"; do
    if docker image inspect "$image" >/dev/null 2>&1; then present+=("$image"); else echo "$who: $image is not on the main engine, not loaded" >&2; fi
  done
  if [ ${#present[@]} -gt 0 ]; then
    echo "$who: loading ${present[*]}"
    docker save "${present[@]}" | engine_docker load >/dev/null
  fi
}

# TERM by its pid, KILL after 30 s.
stop_dockerd() {
  local who="$1" pid=""
  if [ -f "$state/dockerd.pid" ]; then pid="$(cat "$state/dockerd.pid")"; elif [ -f "$state/dockerd.launch-pid" ]; then pid="$(cat "$state/dockerd.launch-pid")"; fi
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -CONT "$pid" 2>/dev/null || true # a test may have paused it
    kill -TERM "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then echo "$who: dockerd $pid did not stop in 30 s, killing it" >&2; kill -KILL "$pid" || true; fi
  fi
}

# Whatever containerd shims outlived it hold mounts under its roots: the deepest first, lazily if busy.
unmount_under() {
  local root="$1"
  awk -v root="$root" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r | while read -r mount; do
    umount "$mount" 2>/dev/null || umount -l "$mount" 2>/dev/null || true
  done
}

# What the shims left mounted under the exec-root, then the exec-root itself.
remove_exec_root() {
  [ -f "$state/exec-root" ] || return 0
  local root
  root="$(cat "$state/exec-root")"
  unmount_under "$root"
  rm -rf "$root"
}

delete_bridge() {
  if [ -f "$state/bridge" ]; then ip link delete "$(cat "$state/bridge")" 2>/dev/null || true; fi
  rm -f "$state/bridge"
}
