#!/usr/bin/env bash
# A second, throwaway Docker engine for tests: a dockerd of its own (data-root, exec-root, pidfile, its
# own managed containerd) answering only on a loopback TCP port with TLS, certificates made here with
# openssl, and a bridge of its own (never docker0: task containers have no network anyway). It never touches the main engine's
# data; the main engine only lends the images (docker save | docker load).
#
#   tls-engine.sh up <state-dir>     start it; writes <state-dir>/env (DOCKER_HOST, DOCKER_TLS_VERIFY,
#                                    DOCKER_CERT_PATH) for the suites to source
#   tls-engine.sh down <state-dir>   stop it by its pid and remove its data
#
# IMAGES (space-separated) overrides the images loaded into it (empty: none); ENGINE_PORT picks the port;
# OUTBOUND=1 lets its containers reach the network (dockerd-lib.sh own_nat), for image builds.
set -euo pipefail

images="${IMAGES-debian:bookworm-slim arvo-rca-sample:1-vul arvo-rca-sample:2-vul arvo-rca-sample:3-vul arvo-rca-sample:4-vul arvo-rca-sample:5-vul}"
# shellcheck source=tools/engines/dockerd-lib.sh
. "$(dirname "$0")/dockerd-lib.sh"
read_engine_args "$@"

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

make_certs() {
  local dir="$1"
  mkdir -p "$dir"
  (
    cd "$dir"
    openssl genrsa -out ca-key.pem 2048 2>/dev/null
    openssl req -x509 -new -key ca-key.pem -sha256 -days 2 -subj '/CN=arvo-rca test engine CA' -out ca.pem
    openssl genrsa -out server-key.pem 2048 2>/dev/null
    openssl req -new -key server-key.pem -subj '/CN=127.0.0.1' -out server.csr
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -sha256 \
      -extfile server.ext -out server-cert.pem 2>/dev/null
    # The client side uses the names the docker CLI and dockerode look for in DOCKER_CERT_PATH.
    openssl genrsa -out key.pem 2048 2>/dev/null
    openssl req -new -key key.pem -subj '/CN=arvo-rca test client' -out client.csr
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 2 -sha256 \
      -extfile client.ext -out cert.pem 2>/dev/null
    rm -f ./*.csr ./*.ext ca.srl
    chmod 600 ./*-key.pem key.pem
  )
}

engine_docker() {
  # shellcheck disable=SC1091
  (. "$state/env" && export DOCKER_HOST DOCKER_TLS_VERIFY DOCKER_CERT_PATH && docker "$@")
}

up() {
  [ ! -f "$state/dockerd.pid" ] || { echo "tls-engine: $state already holds an engine; run down first" >&2; exit 1; }
  local port="${ENGINE_PORT:-$(free_port)}"
  local exec_root
  exec_root="$(make_exec_root)"
  mkdir -p "$state/data"
  make_certs "$state/certs"
  cat >"$state/env" <<ENV
DOCKER_HOST=tcp://127.0.0.1:$port
DOCKER_TLS_VERIFY=1
DOCKER_CERT_PATH=$state/certs
ENV
  local bridge="arvotls$port"
  own_bridge "$bridge" "10.231.$((port % 250)).1/24"
  own_nat "$bridge" "10.231.$((port % 250)).0/24"
  echo "tls-engine: starting dockerd on tcp://127.0.0.1:$port (state: $state)"
  start_dockerd tls-engine "$state/data" "$exec_root" "$bridge" -H "tcp://127.0.0.1:$port" \
    --tlsverify --tlscacert "$state/certs/ca.pem" --tlscert "$state/certs/server-cert.pem" --tlskey "$state/certs/server-key.pem"
  # shellcheck disable=SC2086 # a space-separated list
  load_images tls-engine $images
  echo "tls-engine: up; source $state/env"
}

down() {
  stop_dockerd tls-engine
  unmount_under "$state/data"
  rm -rf "$state/data"
  remove_exec_root
  delete_nat
  delete_bridge
  rm -f "$state/env" "$state/dockerd.pid" "$state/dockerd.launch-pid" "$state/exec-root" "$state/daemon.json"
  rm -rf "$state/certs"
  echo "tls-engine: down"
}

case "$action" in
  up) up ;;
  down) down ;;
  *) engine_usage ;;
esac
