#!/usr/bin/env bash
# Makes sure PostgreSQL and nats-server (JetStream) run on 127.0.0.1, installing them from
# Debian packages when absent. Sourced by .ci/run and deploy/local/start.sh.
#   ensure_postgres   -> PostgreSQL on 127.0.0.1:5432 accepting user postgres
#   ensure_nats       -> nats-server -js on 127.0.0.1:4222

_as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
_apt_updated=""
_apt_install() {
  if [ -z "$_apt_updated" ]; then _as_root apt-get update -qq; _apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive _as_root apt-get install -y -qq "$@" >/dev/null
}

postgres_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
nats_up() { (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null; }

ensure_postgres() {
  if postgres_up; then return 0; fi
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "infra: installing PostgreSQL from Debian packages"
    _apt_install postgresql
  fi
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
  if [ -z "$version" ]; then echo "infra: no PostgreSQL cluster found" >&2; return 1; fi
  echo "infra: starting PostgreSQL $version"
  _as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do postgres_up && break; sleep 1; done
  postgres_up || { echo "infra: PostgreSQL did not come up" >&2; return 1; }
  # Local trust for the test user, as on the project's machines.
  if ! psql -h 127.0.0.1 -U postgres -c 'select 1' >/dev/null 2>&1; then
    local hba
    hba=$(ls /etc/postgresql/"$version"/main/pg_hba.conf)
    _as_root sed -i -E 's/^(host\s+all\s+all\s+127\.0\.0\.1\/32\s+)\S+/\1trust/' "$hba"
    _as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  fi
}

ensure_nats() {
  if nats_up; then return 0; fi
  if ! command -v nats-server >/dev/null 2>&1 && [ ! -x /usr/sbin/nats-server ]; then
    echo "infra: installing nats-server from Debian packages"
    _apt_install nats-server
  fi
  local bin
  bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  local store=${NATS_STORE_DIR:-/var/lib/nats-server}
  _as_root mkdir -p "$store"
  echo "infra: starting nats-server with JetStream"
  _as_root start-stop-daemon --start --oknodo --background --exec "$bin" -- \
    -a 127.0.0.1 -p 4222 -js -sd "$store" -l /var/log/nats-server.log
  for _ in $(seq 1 30); do nats_up && break; sleep 1; done
  nats_up || { echo "infra: nats-server did not come up" >&2; return 1; }
}
