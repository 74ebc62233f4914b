#!/usr/bin/env bash
# Runs one of package.json's scripts on a Node that its `engines` field allows: the Node first on PATH
# when it is one, else Node 24 from the npm registry (tools/node-lts.sh), said in one line. So on a machine
# whose own Node is older (Debian stable's 18, an end-of-life 20), `npm ci && npm start` and
# `npm ci && npm test` are all there is to type: npm itself runs on those lines, our code does not.
# Usage (package.json): bash tools/on-node.sh '<commands, with "$@" where the arguments go>' [arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# Whether the first node on PATH satisfies the engines field (`^22.13.0 || ^24.0.0 || ^26.0.0`): written
# for any Node, however old, since that is the Node it runs on.
supported() {
  node -e '
    var wanted = require(process.argv[1]).engines.node.split("||");
    var have = process.versions.node.split(".").map(Number);
    process.exit(wanted.some(function (range) {
      var m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
      if (!m) return false;
      var want = m.slice(1).map(Number);
      return have[0] === want[0] && (have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2]));
    }) ? 0 : 1);
  ' "$root/package.json" 2>/dev/null
}

if ! supported; then
  had="$(node --version 2>/dev/null || echo 'no node')"
  bin="$(bash "$root/tools/node-lts.sh" 24)"
  export PATH="$bin:$PATH"
  echo "node: $had is not a line this project runs on ($(node -p 'require(process.argv[1]).engines.node' "$root/package.json")); running on Node $(node --version) from the npm registry (tools/node-lts.sh)" >&2
fi
exec bash -c "$1" on-node "${@:2}"
