#!/usr/bin/env bash
# Fails when packages/contracts/src/gen is not what `buf generate` makes from proto/.
set -euo pipefail
cd "$(dirname "$0")"
npx --no-install buf generate
if ! git diff --exit-code --stat -- ../packages/contracts/src/gen || [ -n "$(git status --porcelain -- ../packages/contracts/src/gen)" ]; then
  echo "packages/contracts/src/gen is stale: run 'npm run generate' and commit the result" >&2
  exit 1
fi
echo "generated contracts are fresh"
