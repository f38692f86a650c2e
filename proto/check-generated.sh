#!/usr/bin/env bash
# Fails when the generated contracts (packages/contracts/src/gen and the per-package barrels)
# differ from what `npm run generate` makes from proto/. Leaves the fresh output in place.
set -euo pipefail
cd "$(dirname "$0")"
contracts=../packages/contracts/src
fingerprint() {
  (cd "$contracts" && find gen -type f | sort && ls ./*.ts | grep -v -E '/(index|streams)\.ts$') |
    while read -r f; do printf '%s ' "$f"; sha256sum < "$contracts/$f"; done | sha256sum
}
before=$(fingerprint)
npx --no-install buf generate
node write-barrels.mjs
node write-vocabulary.mjs
after=$(fingerprint)
if [ "$before" != "$after" ]; then
  echo "the generated contracts were stale: 'npm run generate' has refreshed them; commit the result" >&2
  exit 1
fi
echo "generated contracts are fresh"
