#!/usr/bin/env bash
# Makes a Compose command available for docker-compose.yml: the `docker compose` plugin when it is
# there, else `docker-compose`. Debian's docker-compose (1.29, a Python program) is installed when
# neither answers (bookworm has no compose plugin package). Idempotent.
set -euo pipefail

if docker compose version >/dev/null 2>&1; then
  echo "docker-compose: $(docker compose version --short 2>/dev/null || echo present) (docker compose)"
  exit 0
fi
if ! docker-compose version >/dev/null 2>&1; then
  echo "docker-compose: installing Debian's docker-compose"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
fi
echo "docker-compose: $(docker-compose version --short) (docker-compose)"
