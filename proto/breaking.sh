#!/usr/bin/env bash
# buf breaking (FILE rules) against the last landed contracts.
# On a feature branch the baseline is `main`; on main itself it is the previous commit,
# so every landing is compared with what was there before it.
set -euo pipefail
cd "$(dirname "$0")"
top=$(git rev-parse --show-toplevel)
branch=$(git rev-parse --abbrev-ref HEAD)
if [ -n "${BUF_BREAKING_AGAINST:-}" ]; then
  ref="$BUF_BREAKING_AGAINST"
elif [ "$branch" != "main" ] && git rev-parse --verify -q main >/dev/null; then
  ref="main"
elif git rev-parse --verify -q HEAD~1 >/dev/null; then
  ref="HEAD~1"
else
  echo "buf breaking: no earlier commit to compare with; nothing to check"; exit 0
fi
if ! git cat-file -e "$ref:proto/buf.yaml" 2>/dev/null; then
  echo "buf breaking: $ref has no proto/ module yet; nothing to compare"; exit 0
fi
commit=$(git rev-parse "$ref")
echo "buf breaking against $ref ($commit)"
npx --no-install buf breaking --against "$top/.git#ref=$commit,subdir=proto"
