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
# Under load V8 lets the old generation grow to up to four times what the last full collection
# left, and gives the excess back only when its memory reducer judges the process idle, 15 s to
# over a minute after the load (it judges from allocation samples taken at collections, which an
# idle process makes few of). Growth is held to twice the live heap instead: after load 199-203 MB
# instead of 154-251 MB, CPU per GET and POST within noise (D364).
exec node --heap-growing-percent=100 --enable-source-maps "$root/packages/standalone/dist/bundle/main.js" "$@"
