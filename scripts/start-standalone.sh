#!/bin/sh
# `npm start`: bundle the standalone host (about a second; PETRI_SKIP_BUILD=1 runs the bundle
# already built), then run it in place of this shell, so signals reach Node (D316).
set -e
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${PETRI_SKIP_BUILD:-}" != "1" ]; then
  (cd "$root" && node --conditions=@petri/source --import tsx packages/bundle/src/main.ts --standalone)
fi
# glibc keeps a freed block of up to 32 MiB inside its heaps once it has seen one that large:
# every password hash (argon2, 19 MiB in a worker thread) left its block resident, 10 MB and
# more each. A fixed threshold (4 MiB: above the request path's buffers) returns them (D317).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-4194304}"
exec node --enable-source-maps "$root/packages/standalone/dist/bundle/main.js" "$@"
