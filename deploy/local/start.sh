#!/usr/bin/env bash
# Cluster mode on one machine: every service as its own process against PostgreSQL (a
# schema and a role per service) and nats-server on 127.0.0.1, plus the gateway in front.
# Starts PostgreSQL and nats-server when they are not running. Stop with deploy/local/stop.sh;
# deploy a new build of one service with deploy/local/roll.sh <service>.
#   PORT (gateway, default 8080), PETRI_PORT_BASE (services on base+1..base+7, default 7100),
#   PETRI_DB (default petri), PETRI_LOCAL_DIR (default .deploy-local), PETRI_SKIP_BUILD=1 to reuse the bundles,
#   GATEWAY_REPLICAS (default 1; replica i listens on PORT+i and serves /metrics on
#   PETRI_PORT_BASE+60+i; each service serves /metrics on its own port), EXPERIMENTS_REPLICAS (default 1;
#   replica i > 0 listens on base+10+i; every gateway gets all of their URLs and spreads its
#   calls over them per call),
#   PETRI_STAFF_EMAIL / PETRI_STAFF_PASSWORD (a staff account created or reset at start-up),
#   PETRI_SMTP_* / PETRI_MAIL_FROM (notifications' mail; unset: kept in its sent_mail table),
#   PETRI_WEBHOOK_TEST_ALLOWLIST / PETRI_WEBHOOK_TEST_CA_FILE (tests only: loopback receivers),
#   PETRI_NATS_NODES (1: the nats-server on 127.0.0.1:4222, started if absent; 3: a JetStream
#   cluster of three nodes of its own, deploy/local/nats-cluster.sh, ports PETRI_NATS_CLIENT_PORT
#   etc.; use PETRI_STREAM_REPLICAS=3 with it),
#   PETRI_SERVICES_DATABASE_ADDRESS (host:port the services connect to, default 127.0.0.1:5432;
#   set-up still uses 127.0.0.1:5432; e.g. a pooler or the bench's statement counter in between);
#   every process inherits this environment.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
source scripts/infra.sh
ensure_postgres
case "${PETRI_NATS_NODES:-1}" in
  1) ensure_nats; nats_url="nats://127.0.0.1:4222" ;;
  3) nats_url=$(deploy/local/nats-cluster.sh start) ;;
  *) echo "deploy/local: PETRI_NATS_NODES must be 1 or 3" >&2; exit 1 ;;
esac

state="${PETRI_LOCAL_DIR:-$root/.deploy-local}"
db="${PETRI_DB:-petri}"
gateway_port="${PORT:-8080}"
mkdir -p "$state/logs"
if [ -s "$state/pids" ]; then
  echo "deploy/local: already running (see $state/pids); stop it first with deploy/local/stop.sh" >&2
  exit 1
fi

# service name : package directory : port
base=${PETRI_PORT_BASE:-7100}
services="identity:identity:$((base+1)) experiments:experiments:$((base+2)) marketplace:marketplace:$((base+3)) hypotheses:hypotheses:$((base+4)) engine:engine:$((base+5)) cloudlabs:cloud-labs:$((base+6)) notifications:notifications:$((base+7))"

psql_admin() { psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

# Roles are cluster-wide and dist/ is shared: two start.sh at once (parallel test suites)
# take turns for the set-up and the build.
exec 9>"${TMPDIR:-/tmp}/petri-deploy-local.lock"
flock 9
if [ "$(psql_admin -d postgres -c "select 1 from pg_database where datname = '$db'")" != "1" ]; then
  psql_admin -d postgres -c "create database \"$db\""
fi
psql_admin -d "$db" -c "revoke create on schema public from public"
for entry in $services; do
  name=${entry%%:*}
  role="petri_$name"
  psql_admin -d "$db" <<SQL
do \$\$ begin
  if not exists (select 1 from pg_roles where rolname = '$role') then
    create role $role login;
  end if;
end \$\$;
create schema if not exists $name authorization $role;
alter role $role set search_path = $name;
SQL
done

if [ ! -f "$state/internal-jwt.json" ]; then
  node --conditions=@petri/source --import tsx -e '
    import("@petri/service-kit").then(async ({ generateInternalKeyPair }) => {
      const keys = await generateInternalKeyPair();
      process.stdout.write(JSON.stringify(keys));
    });' > "$state/internal-jwt.json"
  chmod 600 "$state/internal-jwt.json"
fi
if [ ! -f "$state/identity-secrets.env" ]; then
  (
    umask 077
    echo "PETRI_IDENTITY_KEK=$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')"
    echo "PETRI_API_KEY_PEPPER=$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')"
  ) > "$state/identity-secrets.env"
fi
if [ ! -f "$state/notifications-secrets.env" ]; then
  (
    umask 077
    echo "PETRI_NOTIFICATIONS_KEK=$(node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))')"
  ) > "$state/notifications-secrets.env"
fi
private_key=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1])).privateKeyPem)' "$state/internal-jwt.json")
public_key=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1])).publicKeyPem)' "$state/internal-jwt.json")
kid=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1])).kid)' "$state/internal-jwt.json")

# The production bundles the images hold, each in its package's dist/bundle, where its
# third-party packages resolve from the repo's node_modules.
if [ "${PETRI_SKIP_BUILD:-}" != 1 ]; then
  echo "deploy/local: bundling"
  npm run --silent bundle >"$state/logs/build.log" 2>&1 || { cat "$state/logs/build.log"; exit 1; }
fi
flock -u 9

# As the image sets it: freed large blocks (a password hash's 19 MiB) go back to the system (D317).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-4194304}"
: > "$state/pids"
declare -A urls
service_ports=()
for entry in $services; do
  IFS=: read -r name dir port <<<"$entry"
  urls[$name]="http://127.0.0.1:$port"
  extra_env=()
  if [ "$name" = identity ]; then
    while IFS= read -r line; do extra_env+=("$line"); done < "$state/identity-secrets.env"
  fi
  if [ "$name" = notifications ]; then
    while IFS= read -r line; do extra_env+=("$line"); done < "$state/notifications-secrets.env"
  fi
  copies=1
  # Result files on the local disk, shared by the replicas of this one machine (several
  # machines would need the s3 blob store).
  if [ "$name" = experiments ]; then
    extra_env+=("PETRI_BLOB_DIR=$state/blobs")
    copies=${EXPERIMENTS_REPLICAS:-1}
  fi
  for r in $(seq 0 $((copies - 1))); do
    replica_port=$port label=$name
    if [ "$r" -gt 0 ]; then
      replica_port=$((base + 10 + r)) label="$name-$r"
      urls[$name]="${urls[$name]} http://127.0.0.1:$replica_port"
    fi
    env "${extra_env[@]}" PORT=$replica_port HOST=127.0.0.1 \
      DATABASE_URL="postgres://petri_$name@${PETRI_SERVICES_DATABASE_ADDRESS:-127.0.0.1:5432}/$db" \
      NATS_URL="$nats_url" \
      PETRI_INTERNAL_JWT_PUBLIC_KEY="$public_key" \
      nohup node --enable-source-maps "services/$dir/dist/bundle/main.js" >"$state/logs/$label.log" 2>&1 &
    echo "$label $!" >> "$state/pids"
    service_ports+=("$replica_port")
  done
done
replicas=${GATEWAY_REPLICAS:-1}
for i in $(seq 0 $((replicas - 1))); do
  PORT=$((gateway_port + i)) HOST=127.0.0.1 PETRI_METRICS_PORT=$((base + 60 + i)) \
    PETRI_INTERNAL_JWT_PRIVATE_KEY="$private_key" PETRI_INTERNAL_JWT_KID="$kid" \
    PETRI_IDENTITY_URL=${urls[identity]} \
    PETRI_EXPERIMENTS_URL=${urls[experiments]// /,} \
    PETRI_MARKETPLACE_URL=${urls[marketplace]} PETRI_HYPOTHESES_URL=${urls[hypotheses]} \
    PETRI_ENGINE_URL=${urls[engine]} PETRI_CLOUDLABS_URL=${urls[cloudlabs]} \
    PETRI_NOTIFICATIONS_URL=${urls[notifications]} \
    nohup node --enable-source-maps gateway/dist/bundle/main.js >"$state/logs/gateway-$i.log" 2>&1 &
  echo "gateway-$i $!" >> "$state/pids"
done

# Every process, each replica included: a gateway's /health reaches one replica of a service,
# and a replica still starting (waiting for the migration lock, say) would refuse its share.
all_ready() {
  for port in "${service_ports[@]}"; do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 || return 1
  done
  for i in $(seq 0 $((replicas - 1))); do
    curl -fsS "http://127.0.0.1:$((gateway_port + i))/health" >/dev/null 2>&1 || return 1
  done
}
for _ in $(seq 1 60); do
  if all_ready; then
    echo "Petri (cluster mode) is running: API http://127.0.0.1:$gateway_port ($replicas gateway replica(s) from that port)  logs $state/logs  stop: deploy/local/stop.sh"
    exit 0
  fi
  sleep 1
done
echo "deploy/local: the services did not become ready; last health answer and logs:" >&2
curl -sS "http://127.0.0.1:$gateway_port/health" >&2 || true
tail -n 20 "$state"/logs/*.log >&2
exit 1
