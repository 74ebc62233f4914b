#!/usr/bin/env bash
# The sandbox and lifecycle suites on every engine kind the product runs on besides this machine's own
# socket (which the main suites use): a Docker engine over TCP with TLS, the same engine over ssh,
# AgentBeats' Docker gateway (a stand-in enforcing its documented policy) and podman; then one task list
# over two green agents, one on the local engine and one on the TLS engine; then `npm start` on an engine
# that holds no image. Each engine is made and
# removed here, and nothing of ours may be left on any of them (run-suites.sh checks).
#
# What an engine needs: root and dockerd (tls, ssh), sshd (ssh), podman (podman.sh provision installs it).
# Without it the engine is skipped, loudly; under CI=true a skip is a failure, as for the Docker suites.
set -uo pipefail
cd "$(dirname "$0")/../.."
state="$(mktemp -d /tmp/arvo-engines.XXXXXX)"
trap 'rm -rf "$state"' EXIT
status=0

run() {
  echo "== engines: $*"
  "$@" || { echo "== engines: FAILED: $*" >&2; status=1; }
}

# Whether every named command is there (and we are root); says why not, and fails under CI=true.
needs() {
  local what="$1"
  shift
  local missing=()
  [ "$(id -u)" -eq 0 ] || missing+=("root")
  for command in "$@"; do command -v "$command" >/dev/null 2>&1 || missing+=("$command"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== engines: SKIPPED $what: needs ${missing[*]}" >&2
  [ "${CI:-}" = true ] && status=1
  return 1
}

if needs tls dockerd openssl ip; then run bash tools/engines/run-suites.sh tls "$state/tls"; fi
# Over ssh as on every engine, on the Node first on PATH (CI: 24): an `ssh` process per connection decrypts,
# so the output path's 64 MiB bound holds there too (ssh2 decrypting here broke it on Node 24 and 26;
# docs/bench.md has the figures).
if needs ssh dockerd openssl ip sshd ssh ssh-agent; then run bash tools/engines/run-suites.sh ssh "$state/ssh"; fi
if needs gateway docker; then
  run bash tools/engines/run-suites.sh gateway "$state/gateway"
  run bash tools/engines/gateway.sh check "$state/gateway"
fi
if needs podman podman; then run bash tools/engines/run-suites.sh podman "$state/podman"; fi
if needs "two green agents on two engines" dockerd openssl ip; then
  run npx jest -c apps/agents-e2e/jest.engines.config.js --runInBand two-engines
fi
# npm start on an engine that holds no image: it makes the images (a build reaches Debian's mirror through
# rules of the engine's own, hence iptables), scores the samples; and it stops on a recipe broken on purpose.
if needs "first contact on an empty engine" dockerd openssl ip iptables; then
  run npx jest -c apps/agents-e2e/jest.engines.config.js --runInBand first-contact
fi
echo "== engines: $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
