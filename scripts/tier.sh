#!/usr/bin/env bash
# One definition of each test tier, run by `npm test` (scripts/test.sh), `npm run test:unit`,
# `test:int`, `test:e2e` and `test:affected` (scripts/test-affected.sh).
#
#   tier.sh unit|int|e2e [nx options]       the tier over every project (nx run-many)
#   tier.sh --affected unit|int|e2e --base=<ref> [nx options]
#                                           the tier over the projects a change touches (nx affected)
#
# Extra options go to nx, e.g. `npm run test:int -- --projects=@petri/db`.
#   unit  ESLint, type checks and unit tests (src/): no PostgreSQL, no NATS, cached by Nx.
#   int   integration suites (test/): PostgreSQL at PETRI_TEST_DATABASE_URL (default
#         postgres://postgres@127.0.0.1:5432/postgres) and nats-server processes they start.
#   e2e   end-to-end suites through the gateway, standalone and cluster (same servers).
# int and e2e run one project at a time: their suites start servers and size themselves for the
# whole machine. Outside CI a suite whose server is missing skips with a warning; under CI=true
# it fails (packages/testkit: requireInfra).
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

command=run-many
if [ "${1:-}" = "--affected" ]; then
  command=affected
  shift
fi
tier="${1:-}"
shift || true

case "$tier" in
  unit)
    echo "== lint, typecheck, unit tests ($command)"
    targets=(-t lint typecheck test)
    ;;
  int)
    echo "== integration tests: real PostgreSQL and nats-server ($command)"
    targets=(-t int --parallel=1)
    ;;
  e2e)
    echo "== end-to-end tests: standalone and cluster ($command)"
    targets=(-t e2e --parallel=1)
    ;;
  *)
    echo "usage: $0 [--affected] unit|int|e2e [nx options]" >&2
    exit 2
    ;;
esac

exec node_modules/.bin/nx "$command" "${targets[@]}" --output-style=stream-without-prefixes "$@"
