# Sourced by deploy/local's scripts: stop_pids_in FILE stops every process FILE lists (lines
# "<label> <pid>"): SIGTERM, SIGKILL to whatever still runs after 30 s, then empties FILE.
stop_pids_in() {
  local file=$1 pids alive=""
  [ -s "$file" ] || return 0
  pids=$(awk '{print $2}' "$file")
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 1 30); do
    alive=""
    for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
    [ -z "$alive" ] && break
    sleep 1
  done
  [ -n "$alive" ] && kill -KILL $alive 2>/dev/null || true
  : >"$file"
}
