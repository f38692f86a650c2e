#!/usr/bin/env bash
# `npm test`: contracts, boundaries, documentation, lint, types, unit, integration and end-to-end tests.
# Integration and e2e suites need PostgreSQL and nats-server on 127.0.0.1 (.ci/run starts
# them); outside CI they skip loudly when those are absent, under CI=true they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
nx=node_modules/.bin/nx

echo "== contracts: buf lint, buf breaking, generated code fresh"
npm run --silent -w @petri/proto lint
npm run --silent -w @petri/proto breaking
npm run --silent -w @petri/proto check-generated

echo "== formatting (prettier)"
node_modules/.bin/prettier --check --log-level warn .

echo "== module boundaries"
node scripts/check-boundaries.mjs

echo "== documentation stands alone (citations, README examples, links)"
node scripts/check-docs.mjs

echo "== lint, typecheck, unit tests"
$nx run-many -t lint typecheck test --output-style=stream-without-prefixes

echo "== integration tests (real PostgreSQL and nats-server)"
$nx run-many -t int --parallel=1 --output-style=stream-without-prefixes

echo "== end-to-end tests (standalone and cluster)"
$nx run-many -t e2e --parallel=1 --output-style=stream-without-prefixes
