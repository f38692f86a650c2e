#!/usr/bin/env bash
# `npm test`: contracts, boundaries, documentation, lint, types, unit, integration and end-to-end tests.
# Integration and e2e suites need PostgreSQL and nats-server on 127.0.0.1 (.ci/run starts
# them); outside CI they skip loudly when those are absent, under CI=true they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

echo "== contracts: buf lint, buf breaking, generated code fresh"
npm run --silent -w @petri/proto lint
npm run --silent -w @petri/proto breaking
npm run --silent -w @petri/proto check-generated

echo "== formatting (prettier)"
node_modules/.bin/prettier --check --log-level warn .

echo "== module boundaries"
node scripts/check-boundaries.mjs

echo "== readable units (no source file over 400 lines, no function over 80)"
node scripts/check-sizes.mjs

echo "== documentation stands alone (citations, README examples, links)"
node scripts/check-docs.mjs

echo "== affected scoping (Nx project graph)"
node scripts/check-affected.mjs

# The tiers, each also runnable alone: npm run test:unit, test:int, test:e2e.
bash scripts/tier.sh unit
bash scripts/tier.sh int
bash scripts/tier.sh e2e
