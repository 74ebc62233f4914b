#!/usr/bin/env bash
# A stand-in for AgentBeats' Docker gateway in front of this machine's engine (tools/engines/
# docker-gateway-stand-in.ts; it enforces the gateway's documented policy, it is not the gateway): the
# suites reach the engine only through it, on a unix socket of its own, as the green agent does on
# AgentBeats. Every call it refuses is a line of <state-dir>/refused.jsonl.
#
#   gateway.sh up <state-dir>      start it; writes <state-dir>/env (DOCKER_HOST at the stand-in, and
#                                  FIXTURE_DOCKER_HOST at the engine behind it, where tests build and
#                                  delete their own images: the gateway refuses both, and the product
#                                  never does either)
#   gateway.sh down <state-dir>    stop it by its pid; prints the calls it refused
#   gateway.sh check <state-dir>   fails when it refused any call (but the docker CLI's HEAD ping; after
#                                  down too: the record stays in <state-dir>)
#
# GATEWAY_REFUSE adds refusals for tests, one '<METHOD> <path prefix>' a line ('DELETE /containers/').
# ENGINE_SOCKET is the engine behind it (default /var/run/docker.sock).
set -euo pipefail

usage() { echo "usage: $0 up|down|check <state-dir>" >&2; exit 2; }
[ $# -eq 2 ] || usage
action="$1"
mkdir -p "$2"
state="$(cd "$2" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
engine="${ENGINE_SOCKET:-/var/run/docker.sock}"
socket="$state/docker.sock"

refused() { [ -s "$state/refused.jsonl" ] && cat "$state/refused.jsonl"; }
# What `check` counts: the docker CLI (run-suites.sh lists leftovers with it) pings with HEAD first and
# takes any answer but 200 or 500 as a cue to ping with GET, which the gateway allows; nothing of ours
# pings with HEAD.
refused_calls() { refused | grep -v '"method":"HEAD","path":"/_ping"'; }

up() {
  [ ! -f "$state/gateway.pid" ] || { echo "gateway: $state already holds a stand-in; run down first" >&2; exit 1; }
  [ ${#socket} -lt 100 ] || { echo "gateway: $socket is too long for a unix socket" >&2; exit 1; }
  [ -S "$engine" ] || { echo "gateway: no engine socket at $engine" >&2; exit 1; }
  rm -f "$socket" "$state/ready" "$state/env"
  local args=(--listen "unix:$socket" --state "$state" --engine "$engine")
  while IFS= read -r rule; do
    [ -n "$rule" ] && args+=(--refuse "$rule")
  done <<<"${GATEWAY_REFUSE:-}"
  # One process (tsx as a loader, not its launcher), so that the pid stopped is the server's.
  TSX_TSCONFIG_PATH="$root/tools/tsconfig.json" nohup node --import tsx "$here/docker-gateway-stand-in.ts" "${args[@]}" \
    >"$state/gateway.log" 2>&1 &
  echo $! >"$state/gateway.pid"
  for _ in $(seq 1 240); do
    if [ -f "$state/ready" ]; then
      printf 'DOCKER_HOST=unix://%s\nFIXTURE_DOCKER_HOST=unix://%s\n' "$socket" "$engine" >"$state/env"
      echo "gateway: stand-in on unix://$socket in front of $engine (pid $(cat "$state/gateway.pid"))"
      return
    fi
    kill -0 "$(cat "$state/gateway.pid")" 2>/dev/null || break
    sleep 0.25
  done
  echo "gateway: the stand-in did not come up:" >&2
  cat "$state/gateway.log" >&2
  down
  exit 1
}

down() {
  if [ -f "$state/gateway.pid" ]; then
    local pid
    pid="$(cat "$state/gateway.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$state/gateway.pid"
  fi
  rm -f "$socket" "$state/ready" "$state/env"
  if refused >/dev/null; then
    echo "gateway: calls the gateway refused:" >&2
    refused >&2
  fi
}

case "$action" in
  up) up ;;
  down) down ;;
  check) if refused_calls >/dev/null; then echo "gateway: it refused calls:" >&2; refused_calls >&2; exit 1; fi; echo "gateway: it refused no call" ;;
  *) usage ;;
esac
