#!/usr/bin/env bash
# The engine this machine already runs (tools/docker-engine.sh starts it): nothing to start or stop,
# and an empty env, so that the suites use the local socket as they do by default.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 up|down <state-dir>" >&2; exit 2; }
mkdir -p "$2"
case "$1" in
  up) docker version >/dev/null || { echo "local: no engine answers; run tools/docker-engine.sh" >&2; exit 1; }; : >"$2/env" ;;
  down) rm -f "$2/env" ;;
  *) echo "usage: $0 up|down <state-dir>" >&2; exit 2 ;;
esac
