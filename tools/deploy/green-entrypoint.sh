#!/bin/sh
# Entrypoint of the green agent's image. The agent drives the host's Docker engine through the mounted
# socket, whose group differs from host to host, and writes task workspaces into TMP_DIR (copied into
# each task's container from there) and logs into LOG_DIR, either of which may be a mounted volume
# owned by root. Started as root, this script makes TMP_DIR and LOG_DIR writable for the `node` user, then runs the
# agent as `node` with the socket's group added. Started as another user (`--user`), it runs the agent
# as that user: the group and the directories are then the caller's business.
set -eu

agent="/app/main.js"
if [ "$(id -u)" != 0 ]; then
  exec node "$agent" "$@"
fi

# Only a directory the agent cannot write is handed to it: never a shared one such as /tmp.
writable_for_node() {
  setpriv --reuid=node --regid=node --clear-groups test -w "$1"
}
for dir in "${TMP_DIR:-/tmp/rcabench}" "${LOG_DIR:-/logs}"; do
  mkdir -p "$dir"
  writable_for_node "$dir" || chown node:node "$dir"
done

groups="$(id -g node)"
case "${DOCKER_HOST:-unix:///var/run/docker.sock}" in
  unix://*) socket="${DOCKER_HOST:-unix:///var/run/docker.sock}"; socket="${socket#unix://}" ;;
  *) socket="" ;;
esac
if [ -n "$socket" ] && [ -S "$socket" ]; then
  groups="$groups,$(stat -c %g "$socket")"
else
  echo "green-agent: no Docker socket at ${socket:-DOCKER_HOST}; task containers need one (mount /var/run/docker.sock)" >&2
fi

export HOME=/home/node
exec setpriv --reuid=node --regid=node --groups="$groups" --inh-caps=-all node "$agent" "$@"
