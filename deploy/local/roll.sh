#!/usr/bin/env bash
# Deploys a new build of ONE service of a running deploy/local, one replica at a time, while
# everything else keeps serving (the way a Kubernetes RollingUpdate replaces pods):
#   deploy/local/roll.sh <service>     gateway identity experiments marketplace hypotheses
#                                      engine cloud-labs notifications
# Rebuilds that service's bundle (PETRI_SKIP_BUILD=1: restarts on the one already built), then
# for each replica: SIGTERM (it reports not ready, lets its calls finish, exits; SIGKILL after
# 30 s), start it again with the same command line, environment and directory (read from
# /proc/<pid>, so Linux only) on the new bundle, and wait until its /readyz answers 200 before
# the next replica goes. The other replicas carry its calls meanwhile: the gateway's balancing
# skips an endpoint whose connection is refused. PETRI_LOCAL_DIR as for start.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source deploy/local/stop-pids.sh
state="${PETRI_LOCAL_DIR:-$root/.deploy-local}"
service=${1:-}
case "$service" in
  gateway) bundle="gateway/dist/bundle/main.js" ;;
  identity | experiments | marketplace | hypotheses | engine | cloud-labs | notifications)
    bundle="services/$service/dist/bundle/main.js" ;;
  *) echo "usage: deploy/local/roll.sh <gateway|identity|experiments|marketplace|hypotheses|engine|cloud-labs|notifications>" >&2; exit 2 ;;
esac
if [ ! -s "$state/pids" ]; then
  echo "deploy/local: nothing running in $state; start it with deploy/local/start.sh" >&2
  exit 1
fi

# The replicas are the processes running this service's bundle (whatever their labels).
replicas=()
while read -r label pid; do
  [ -r "/proc/$pid/cmdline" ] || continue
  if tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF "$bundle"; then replicas+=("$label:$pid"); fi
done <"$state/pids"
if [ ${#replicas[@]} -eq 0 ]; then
  echo "deploy/local: no running replica of $service in $state/pids" >&2
  exit 1
fi

if [ "${PETRI_SKIP_BUILD:-}" != 1 ]; then
  echo "deploy/local: bundling $service"
  # The lock start.sh takes around its build: one build of dist/ at a time.
  exec 9>"${TMPDIR:-/tmp}/petri-deploy-local.lock"
  flock 9
  npm run --silent bundle -- "$service" >>"$state/logs/build.log" 2>&1 || { tail -n 30 "$state/logs/build.log"; exit 1; }
  flock -u 9
fi

for replica in "${replicas[@]}"; do
  label=${replica%%:*} old=${replica#*:}
  # How it was started, read before it goes.
  mapfile -d '' environment <"/proc/$old/environ"
  mapfile -d '' command <"/proc/$old/cmdline"
  directory=$(readlink "/proc/$old/cwd")
  port=""
  for entry in "${environment[@]}"; do
    case "$entry" in PORT=*) port=${entry#PORT=} ;; esac
  done
  if [ -z "$port" ]; then
    echo "deploy/local: $label ($old) has no PORT in its environment" >&2
    exit 1
  fi

  echo "deploy/local: $label ($old) stopping"
  printf '%s %s\n' "$label" "$old" >"$state/roll.pids"
  stop_pids_in "$state/roll.pids"
  # exec all the way down, so $! is the new process itself.
  (cd "$directory" && exec env -i "${environment[@]}" nohup "${command[@]}") >>"$state/logs/$label.log" 2>&1 &
  new=$!
  awk -v label="$label" -v pid="$new" '$1 == label { $2 = pid } { print }' "$state/pids" >"$state/pids.next"
  mv "$state/pids.next" "$state/pids"

  ready=""
  for _ in $(seq 1 240); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null; then ready=1; break; fi
    kill -0 "$new" 2>/dev/null || break
    sleep 0.5
  done
  if [ -z "$ready" ]; then
    echo "deploy/local: $label ($new) did not become ready on port $port; the roll stops here. Its log:" >&2
    tail -n 30 "$state/logs/$label.log" >&2
    exit 1
  fi
  echo "deploy/local: $label ($new) ready"
done
rm -f "$state/roll.pids"
echo "deploy/local: $service rolled (${#replicas[@]} replica(s))"
