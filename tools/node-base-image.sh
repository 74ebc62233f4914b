#!/usr/bin/env bash
# Makes node:24-bookworm-slim available to the local engine when it cannot be pulled, so that the
# agents' Dockerfiles (FROM node:24-bookworm-slim) build unchanged on machines without Docker Hub.
# The stand-in is debian:bookworm-slim (see base-image.sh) with a Node of the tag's line (this machine's
# own when it is of that line, else the official binary from the npm registry, see node-lts.sh) and this
# machine's npm copied in, laid out like the official image: node, npm and npx in /usr/local, a `node` user and
# group with id 1000, `CMD ["node"]`. When NODE_EXTRA_CA_CERTS names a file (a TLS-inspecting proxy
# between this machine and the npm registry), the stand-in trusts it too, so `npm ci` in build stages
# reaches the registry the way the host does.
set -euo pipefail

tag="${1:-node:24-bookworm-slim}"
base="${NODE_BASE_FROM:-debian:bookworm-slim}"
here="$(cd "$(dirname "$0")" && pwd)"

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "node-base-image: $tag is present"
  exit 0
fi
if timeout 60 docker pull "$tag" >/dev/null 2>&1; then
  echo "node-base-image: pulled $tag"
  exit 0
fi

wanted_major="$(sed -E 's/^node:([0-9]+).*/\1/' <<<"$tag")"
node_bin="$(command -v node || true)"
if [ -z "$node_bin" ] || [ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" != "$wanted_major" ]; then
  node_bin="$(bash "$here/node-lts.sh" "$wanted_major")/node"
fi
node_bin="$(readlink -f "$node_bin")"
version="$("$node_bin" -p 'process.versions.node')"
npm_dir="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
[ -f "$npm_dir/package.json" ] || { echo "node-base-image: npm's install folder not found (from $(command -v npm))" >&2; exit 1; }

docker image inspect "$base" >/dev/null 2>&1 || bash "$here/base-image.sh" "$base"

ctx="$(mktemp -d /tmp/arvo-rca-node-base.XXXXXX)"
trap 'rm -rf "$ctx"' EXIT
cp "$node_bin" "$ctx/node"
cp -a "$npm_dir" "$ctx/npm"
mkdir -p "$ctx/ca"
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" "$ctx/ca/extra-ca-certs.pem"
  ca_env='ENV NODE_EXTRA_CA_CERTS=/usr/local/share/node-extra-ca-certs.pem'
  ca_copy='COPY ca/extra-ca-certs.pem /usr/local/share/node-extra-ca-certs.pem'
else
  ca_env=''
  ca_copy=''
fi
cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM $base
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
$ca_copy
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node \\
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
ENV NODE_VERSION=$version
$ca_env
CMD ["node"]
DOCKERFILE

echo "node-base-image: building $tag from $base with Node $version and this machine's npm $(npm --version 2>/dev/null)"
docker build -q -t "$tag" "$ctx" >/dev/null
echo "node-base-image: built $tag"
