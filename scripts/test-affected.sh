#!/usr/bin/env bash
# `npm run test:affected [-- <base>]`: the unit, integration and end-to-end tiers (scripts/tier.sh)
# over the projects that the changes since <base> touch, and the projects depending on them,
# as Nx's project graph has it. Committed, staged, unstaged and untracked changes all count.
#
# The base: the argument, else NX_BASE, else origin/main, else main (when HEAD is another
# branch), else HEAD~1. Nx compares with the merge base of that ref and HEAD. Without any of
# them (a fresh single-commit clone) every project runs.
# Repository-wide checks (contracts, formatting, module boundaries) are `npm test`'s.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

exists() { git rev-parse --verify -q "$1^{commit}" >/dev/null; }

base="${1:-${NX_BASE:-}}"
if [ -z "$base" ]; then
  branch=$(git rev-parse --abbrev-ref HEAD)
  if exists origin/main; then
    base=origin/main
  elif [ "$branch" != "main" ] && exists main; then
    base=main
  elif exists HEAD~1; then
    base=HEAD~1
  fi
fi

if [ -z "$base" ]; then
  echo "test:affected: no base to compare with (no origin/main, main or HEAD~1): running every project"
  for tier in unit int e2e; do bash scripts/tier.sh "$tier"; done
  exit 0
fi
if ! exists "$base"; then
  echo "test:affected: '$base' is not a commit" >&2
  exit 2
fi
echo "test:affected: changes since $base (merge base $(git merge-base "$base" HEAD | cut -c1-12))"
affected=$(node_modules/.bin/nx show projects --affected --base="$base" | sort | tr '\n' ' ')
echo "test:affected: projects: ${affected:-none}"
for tier in unit int e2e; do bash scripts/tier.sh --affected "$tier" --base="$base"; done
