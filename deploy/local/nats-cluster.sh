#!/usr/bin/env bash
# A three-node nats-server JetStream cluster on 127.0.0.1 for deploy/local (PETRI_NATS_NODES=3).
#   nats-cluster.sh start   writes $PETRI_LOCAL_DIR/nats/<n>/nats.conf, starts the nodes, waits
#                           until JetStream has a meta leader, prints the client URLs
#                           (comma-separated, the NATS_URL of every service) on stdout
#   nats-cluster.sh urls    prints those URLs only
#   nats-cluster.sh stop    SIGTERM to the nodes (SIGKILL after 30 s)
# Node n (1..3) listens for clients on PETRI_NATS_CLIENT_PORT+n-1 (default 14222), for the
# other nodes on PETRI_NATS_ROUTE_PORT+n-1 (default 16222) and serves monitoring on
# PETRI_NATS_MONITOR_PORT+n-1 (default 18222). Its JetStream store is $PETRI_LOCAL_DIR/nats/<n>/store,
# its log $PETRI_LOCAL_DIR/nats/<n>/nats.log; the pids are in $PETRI_LOCAL_DIR/nats/pids.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
state="${PETRI_LOCAL_DIR:-$root/.deploy-local}"
dir="$state/nats"
nodes=3
client_port=${PETRI_NATS_CLIENT_PORT:-14222}
route_port=${PETRI_NATS_ROUTE_PORT:-16222}
monitor_port=${PETRI_NATS_MONITOR_PORT:-18222}
source "$root/deploy/local/stop-pids.sh"

urls() {
  local list=()
  for n in $(seq 1 $nodes); do list+=("nats://127.0.0.1:$((client_port + n - 1))"); done
  (IFS=,; echo "${list[*]}")
}

write_config() {
  local n=$1 routes=()
  for m in $(seq 1 $nodes); do routes+=("nats-route://127.0.0.1:$((route_port + m - 1))"); done
  mkdir -p "$dir/$n/store"
  # Every node lists every route (its own is ignored), so any two of three form the cluster.
  cat >"$dir/$n/nats.conf" <<CONF
server_name: petri-nats-$n
listen: 127.0.0.1:$((client_port + n - 1))
http: 127.0.0.1:$((monitor_port + n - 1))
log_file: "$dir/$n/nats.log"
jetstream {
  store_dir: "$dir/$n/store"
}
cluster {
  name: petri-local
  listen: 127.0.0.1:$((route_port + n - 1))
  routes: [
    $(IFS=,; echo "${routes[*]}")
  ]
}
CONF
}

# True once this node's JetStream knows a meta leader (the cluster can create streams).
has_meta_leader() {
  curl -fsS "http://127.0.0.1:$((monitor_port + $1 - 1))/jsz" 2>/dev/null | grep -q '"leader": *"petri-nats-'
}

start() {
  if [ -s "$dir/pids" ]; then
    echo "nats-cluster: already running (see $dir/pids)" >&2
    exit 1
  fi
  local bin
  bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  [ -x "$bin" ] || { echo "nats-cluster: nats-server not found" >&2; exit 1; }
  mkdir -p "$dir"
  : >"$dir/pids"
  for n in $(seq 1 $nodes); do
    write_config "$n"
    nohup "$bin" -c "$dir/$n/nats.conf" >>"$dir/$n/nats.log" 2>&1 &
    echo "nats-$n $!" >>"$dir/pids"
  done
  for _ in $(seq 1 60); do
    ready=1
    for n in $(seq 1 $nodes); do has_meta_leader "$n" || ready=""; done
    if [ -n "$ready" ]; then
      urls
      return 0
    fi
    sleep 0.5
  done
  echo "nats-cluster: no JetStream meta leader after 30 s; last log lines:" >&2
  tail -n 20 "$dir"/*/nats.log >&2
  stop >&2
  exit 1
}

stop() { stop_pids_in "$dir/pids"; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  urls) urls ;;
  *) echo "usage: $0 start|stop|urls" >&2; exit 2 ;;
esac
