#!/usr/bin/env bash
# Publishes the agent images under the names tools/deploy/images.env gives them, the one place they are
# set (from IMAGE_REGISTRY, IMAGE_OWNER and IMAGE_VERSION in the environment, or its defaults): writes each
# name into its agent's Amber manifest (program.image), tags the image that tools/deploy/build-images.sh
# built (arvo-rca/<agent>:latest) with it, and with --push pushes that same name. The publish workflow
# (.github/workflows/publish.yml) runs it, so that what it pushes is what the manifests name.
# `--manifests` writes the manifests only, with no engine. An image built for another platform than
# IMAGE_PLATFORM is refused: AgentBeats could not run it.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=images.env
source tools/deploy/images.env

mode="${1:-tag}"
case "$mode" in tag | --push | --manifests) ;; *)
  echo "publish-images: unknown option $mode (use --push to push, --manifests to write the manifests only)" >&2
  exit 2
  ;;
esac

for app in green-agent purple-agent; do
  if [ "$app" = green-agent ]; then ref="$GREEN_IMAGE"; else ref="$PURPLE_IMAGE"; fi
  # A name without a registry host (no dot or port before its first slash) would be looked up on Docker Hub.
  if [[ ! "$ref" =~ ^[a-z0-9.-]+(\.[a-z0-9-]+|:[0-9]+)/[a-z0-9._/-]+:[A-Za-z0-9._-]+$ ]]; then
    echo "publish-images: $ref in tools/deploy/images.env is not <registry host>/<path>:<tag>" >&2
    exit 1
  fi
  manifest="apps/$app/amber-manifest.json5"
  sed -i -E "s|^(    image: )\"[^\"]*\",|\1\"$ref\",|" "$manifest"
  grep -q "^    image: \"$ref\",$" "$manifest" || { echo "publish-images: no program.image line in $manifest" >&2; exit 1; }
  echo "publish-images: $manifest runs $ref"
  [ "$mode" = --manifests ] && continue
  local_image="arvo-rca/$app:latest"
  platform="$(docker image inspect -f '{{.Os}}/{{.Architecture}}' "$local_image" 2>/dev/null)" || {
    echo "publish-images: $local_image is missing: run bash tools/deploy/build-images.sh" >&2
    exit 1
  }
  if [ "$platform" != "$IMAGE_PLATFORM" ]; then
    echo "publish-images: $local_image is built for $platform, not $IMAGE_PLATFORM: AgentBeats cannot run it" >&2
    exit 1
  fi
  docker tag "$local_image" "$ref"
  echo "publish-images: tagged $local_image as $ref"
  if [ "$mode" = --push ]; then docker push "$ref"; fi
done
