#!/usr/bin/env bash
# Makes a Docker engine answer on this machine: installs docker.io when dockerd is missing and starts
# dockerd in the background when nothing answers (no systemd here; `service docker start` fails on an
# rlimit). Idempotent: on a machine whose engine answers it starts nothing. Either way it then makes a
# Compose command available (docker-compose.sh) for docker-compose.yml.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"

if docker version >/dev/null 2>&1; then
  echo "docker-engine: an engine answers ($(docker version --format '{{.Server.Version}}'))"
  exec bash "$here/docker-compose.sh"
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker-engine: installing docker.io"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
log="${DOCKERD_LOG:-/var/log/arvo-rca-dockerd.log}"
echo "docker-engine: starting dockerd (log: $log)"
nohup dockerd >"$log" 2>&1 &
for _ in $(seq 1 60); do
  if docker version >/dev/null 2>&1; then
    echo "docker-engine: an engine answers ($(docker version --format '{{.Server.Version}}'))"
    exec bash "$here/docker-compose.sh"
  fi
  sleep 1
done
echo "docker-engine: dockerd did not answer within 60 s; last lines of $log:" >&2
tail -20 "$log" >&2
exit 1
