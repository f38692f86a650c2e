#!/bin/sh
# `npm start`: bundle the standalone host (about a second; PETRI_SKIP_BUILD=1 runs the bundle
# already built), then run it in place of this shell, so signals reach Node (D316).
set -e
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${PETRI_SKIP_BUILD:-}" != "1" ]; then
  (cd "$root" && node --conditions=@petri/source --import tsx packages/bundle/src/main.ts --standalone)
fi
exec node --enable-source-maps "$root/packages/standalone/dist/bundle/main.js" "$@"
