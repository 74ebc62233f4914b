#!/usr/bin/env bash
# Builds the agent images arvo-rca/green-agent and arvo-rca/purple-agent (tag: IMAGE_TAG, default
# latest) from the bundles in dist/apps/, after `npx nx run-many -t build -p green-agent purple-agent`.
# An image whose inputs (its Dockerfile, bundle, scripts, samples, task lists and base image) are unchanged since
# its last build is kept as it is: the hash of the inputs is its label arvo-rca.inputs. The two
# builds run side by side, and the image a rebuild replaces is removed. Without Docker Hub, the Node
# base comes from tools/node-base-image.sh. Every image is built for IMAGE_PLATFORM of
# tools/deploy/images.env (linux/amd64, what AgentBeats runs); tools/deploy/publish-images.sh names and
# pushes them.
set -euo pipefail
cd "$(dirname "$0")/../.."

tag="${IMAGE_TAG:-latest}"
base="node:24-bookworm-slim"
# The platform AgentBeats runs agents on (tools/deploy/images.env), whatever machine builds them.
platform="$(sed -n 's/^IMAGE_PLATFORM=//p' tools/deploy/images.env)"
apps=(green-agent purple-agent)

bash tools/node-base-image.sh "$base"
base_id="$(docker image inspect -f '{{.Id}}' "$base")"

# The files each image is made of, as .dockerignore lets them into the build context.
inputs() {
  local app="$1"
  local paths=("apps/$app/Dockerfile" .dockerignore tools/deploy/card-healthcheck.cjs "dist/apps/$app")
  if [ "$app" = green-agent ]; then paths+=(tools/deploy/green-entrypoint.sh samples task-lists); fi
  find "${paths[@]}" -type f ! -path 'samples/image/*' ! -path 'samples/*/source/*' -print0 | sort -z | xargs -0 sha256sum
}

logs="$(mktemp -d /tmp/arvo-rca-images.XXXXXX)"
trap 'rm -rf "$logs"' EXIT
pids=()
for app in "${apps[@]}"; do
  image="arvo-rca/$app:$tag"
  if [ ! -f "dist/apps/$app/main.js" ] || [ ! -f "dist/apps/$app/package-lock.json" ]; then
    echo "build-images: dist/apps/$app is missing: run npx nx run-many -t build -p green-agent purple-agent" >&2
    exit 1
  fi
  hash="$({ echo "base $base_id"; echo "platform $platform"; inputs "$app"; } | sha256sum | cut -c1-16)"
  if [ "$(docker image inspect -f '{{index .Config.Labels "arvo-rca.inputs"}}' "$image" 2>/dev/null || true)" = "$hash" ]; then
    echo "build-images: $image is up to date ($hash)"
    continue
  fi
  echo "build-images: building $image ($hash)"
  docker image inspect -f '{{.Id}}' "$image" >"$logs/$app.previous" 2>/dev/null || true
  docker build --platform "$platform" --label "arvo-rca.inputs=$hash" -t "$image" -f "apps/$app/Dockerfile" . >"$logs/$app.log" 2>&1 &
  pids+=("$!:$app")
done

failed=0
for entry in "${pids[@]}"; do
  app="${entry#*:}"
  image="arvo-rca/$app:$tag"
  if wait "${entry%%:*}"; then
    echo "build-images: built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1 / 1e6}'))"
    # The replaced image, unless another tag or a container still uses it.
    previous="$(cat "$logs/$app.previous" 2>/dev/null || true)"
    if [ -n "$previous" ] && [ "$previous" != "$(docker image inspect -f '{{.Id}}' "$image")" ]; then docker rmi "$previous" >/dev/null 2>&1 || true; fi
  else
    echo "build-images: building arvo-rca/$app:$tag failed; the end of its log:" >&2
    tail -30 "$logs/$app.log" >&2
    failed=1
  fi
done
exit "$failed"
