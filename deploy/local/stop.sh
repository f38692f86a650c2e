#!/usr/bin/env bash
# Stops what deploy/local/start.sh started (SIGTERM, then SIGKILL after 30 s): the services
# first, then the NATS cluster's nodes if PETRI_NATS_NODES=3 started them.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
state="${PETRI_LOCAL_DIR:-$root/.deploy-local}"
source "$root/deploy/local/stop-pids.sh"
stop_nats_cluster() { PETRI_LOCAL_DIR="$state" "$root/deploy/local/nats-cluster.sh" stop; }
if [ ! -s "$state/pids" ]; then
  stop_nats_cluster
  echo "deploy/local: nothing running"
  exit 0
fi
stop_pids_in "$state/pids"
stop_nats_cluster
echo "deploy/local: stopped"
