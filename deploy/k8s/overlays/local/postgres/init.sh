#!/bin/sh
# Run by the postgres-init Job: one database, and per service a role and a schema.
# Each URL is postgres://<role>:<password>@postgres:5432/petri (password: URL-safe, e.g. hex).
set -eu
db=${PETRI_DATABASE:-petri}
until pg_isready -q; do sleep 2; done
psql -v ON_ERROR_STOP=1 -d postgres -v db="$db" <<'SQL'
select format('create database %I', :'db') where not exists (select 1 from pg_database where datname = :'db') \gexec
SQL
psql -v ON_ERROR_STOP=1 -d "$db" -c 'revoke create on schema public from public'
for entry in identity:URL_IDENTITY experiments:URL_EXPERIMENTS marketplace:URL_MARKETPLACE \
  hypotheses:URL_HYPOTHESES engine:URL_ENGINE cloudlabs:URL_CLOUDLABS notifications:URL_NOTIFICATIONS; do
  schema=${entry%%:*}
  eval "url=\${${entry#*:}}"
  role=$(printf '%s' "$url" | sed -E 's#^[a-z]+://([^:@/]+):.*#\1#')
  password=$(printf '%s' "$url" | sed -E 's#^[a-z]+://[^:@/]+:([^@]*)@.*#\1#')
  # psql variables quote the values (:'password', :"role"): nothing from the Secret is pasted into SQL.
  psql -v ON_ERROR_STOP=1 -d "$db" -v role="$role" -v password="$password" -v schema="$schema" <<'SQL'
select format('create role %I login', :'role')
  where not exists (select 1 from pg_roles where rolname = :'role') \gexec
select format('alter role %I with login password %L', :'role', :'password') \gexec
select format('create schema if not exists %I authorization %I', :'schema', :'role') \gexec
select format('alter role %I set search_path = %I', :'role', :'schema') \gexec
SQL
done
echo "postgres-init: database $db, 7 roles and schemas ready"
