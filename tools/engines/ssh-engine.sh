#!/usr/bin/env bash
# A throwaway Docker engine reached over ssh, for tests: the TLS engine of tls-engine.sh behind an sshd
# of its own on a loopback port, whose one key may only run `docker system dial-stdio` against that
# engine (so the main engine is never reached). Clients use DOCKER_HOST=ssh://root@127.0.0.1:<port>, the
# keys of an ssh-agent started here (SSH_AUTH_SOCK) and the known hosts file naming this sshd's host key
# (DOCKER_SSH_KNOWN_HOSTS), as the green agent's ssh client does with a real remote engine.
#
#   ssh-engine.sh up <state-dir>     writes <state-dir>/env (DOCKER_HOST, SSH_AUTH_SOCK)
#   ssh-engine.sh down <state-dir>
set -euo pipefail

usage() { echo "usage: $0 up|down <state-dir>" >&2; exit 2; }
[ $# -eq 2 ] || usage
mkdir -p "$2"
state="$(cd "$2" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

up() {
  command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || { echo "ssh-engine: sshd is missing (apt-get install openssh-server)" >&2; exit 1; }
  bash "$here/tls-engine.sh" up "$state/tls"
  local port
  port="$(free_port)"
  ssh-keygen -q -t ed25519 -N '' -f "$state/host_key"
  ssh-keygen -q -t ed25519 -N '' -f "$state/client_key"
  # shellcheck disable=SC1091
  local dial
  dial="$(. "$state/tls/env" && echo "env DOCKER_HOST=$DOCKER_HOST DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH=$DOCKER_CERT_PATH docker system dial-stdio")"
  echo "command=\"$dial\",no-pty,no-port-forwarding,no-agent-forwarding,no-X11-forwarding $(cat "$state/client_key.pub")" >"$state/authorized_keys"
  mkdir -p /run/sshd
  /usr/sbin/sshd -f /dev/null -p "$port" -o ListenAddress=127.0.0.1 -o HostKey="$state/host_key" \
    -o AuthorizedKeysFile="$state/authorized_keys" -o PidFile="$state/sshd.pid" -o StrictModes=no -o UsePAM=no \
    -o PermitRootLogin=prohibit-password -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
    -o MaxSessions=1000 -o MaxStartups=1000 -E "$state/sshd.log"
  eval "$(ssh-agent -a "$state/agent.sock" -s)" >/dev/null
  echo "$SSH_AGENT_PID" >"$state/agent.pid"
  SSH_AUTH_SOCK="$state/agent.sock" ssh-add -q "$state/client_key"
  echo "[127.0.0.1]:$port $(cat "$state/host_key.pub")" >"$state/known_hosts"
  cat >"$state/env" <<ENV
DOCKER_HOST=ssh://root@127.0.0.1:$port
SSH_AUTH_SOCK=$state/agent.sock
DOCKER_SSH_KNOWN_HOSTS=$state/known_hosts
ENV
  for _ in $(seq 1 20); do
    # A ping through the ssh client, as the green agent reaches the engine (dockerode's own ssh transport
    # cannot parse an ssh:// DOCKER_HOST on Node 26).
    if printf 'GET /_ping HTTP/1.0\r\n\r\n' | SSH_AUTH_SOCK="$state/agent.sock" ssh -o BatchMode=yes \
      -o UserKnownHostsFile="$state/known_hosts" -T -p "$port" root@127.0.0.1 docker system dial-stdio 2>/dev/null | grep -q '^HTTP/1.[01] 200'; then
      echo "ssh-engine: up; source $state/env"
      return
    fi
    sleep 0.5
  done
  echo "ssh-engine: no answer through ssh; last lines of sshd's log:" >&2
  tail -20 "$state/sshd.log" >&2
  exit 1
}

down() {
  for name in sshd agent; do
    if [ -f "$state/$name.pid" ]; then kill "$(cat "$state/$name.pid")" 2>/dev/null || true; fi
  done
  [ ! -d "$state/tls" ] || bash "$here/tls-engine.sh" down "$state/tls"
  rm -rf "$state/tls" "$state"/host_key* "$state"/client_key* "$state/authorized_keys" "$state/known_hosts" "$state/env" "$state"/*.pid "$state/agent.sock"
  echo "ssh-engine: down"
}

case "$1" in
  up) up ;;
  down) down ;;
  *) usage ;;
esac
