#!/usr/bin/env bash
# Stops what deploy/local/start.sh started (SIGTERM, then SIGKILL after 30 s): the services
# first, then the NATS cluster's nodes if PETRI_NATS_NODES=3 started them.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
state="${PETRI_LOCAL_DIR:-$root/.deploy-local}"
stop_nats_cluster() { PETRI_LOCAL_DIR="$state" "$root/deploy/local/nats-cluster.sh" stop; }
if [ ! -s "$state/pids" ]; then
  stop_nats_cluster
  echo "deploy/local: nothing running"
  exit 0
fi
pids=$(awk '{print $2}' "$state/pids")
kill -TERM $pids 2>/dev/null || true
for _ in $(seq 1 30); do
  alive=""
  for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
  [ -z "$alive" ] && break
  sleep 1
done
[ -n "${alive:-}" ] && kill -KILL $alive 2>/dev/null || true
: > "$state/pids"
stop_nats_cluster
echo "deploy/local: stopped"
