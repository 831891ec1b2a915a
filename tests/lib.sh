# tests/lib.sh - what the shell suites share. Source it from a suite with
#   . "$(dirname "$0")/lib.sh"; suite_init NAME
# It moves to the repository top, sets TRC/ASAN and a private work folder W
# (removed at exit, so runs side by side do not trip over each other).

suite_init() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
  TRC=${TRC:-build/trc}
  ASAN=${ASAN:-build/asan/trc}
  mkdir -p build/tmp
  W=$(mktemp -d "build/tmp/$1.XXXXXX")
  trap 'rm -rf "$W"' EXIT
}

# t NAME CMD...: "ok NAME" when CMD succeeds, else "not ok NAME" and its output.
t() {
  local name=$1; shift
  if "$@" >"$W/last.out" 2>&1; then echo "ok $name"
  else echo "not ok $name"; sed 's/^/  /' "$W/last.out" | head -5; fi
}

# expect_fail NAME PATTERN CMD...: CMD exits 1 (error) or 2 (usage) and its
# stderr matches PATTERN (a crash or a silent success fails).
expect_fail() {
  local name=$1 pat=$2; shift 2
  "$@" >"$W/ef.out" 2>"$W/ef.err"; local rc=$?
  if [ $rc -eq 1 -o $rc -eq 2 ] && grep -Eq -- "$pat" "$W/ef.err"; then echo "ok $name"
  else echo "not ok $name (rc $rc)"; head -3 "$W/ef.err"; fi
}

# run_jobs FILE LABEL: runs the "NAME|COMMAND" lines of FILE, $JOBS at a time
# (default 2), one "ok NAME" / "not ok NAME" line each (a "+NAME" also shows
# the command's last output line), then a timing line.
run_one() {
  local line=$1 name cmd out rc show=0
  name=${line%%|*}; cmd=${line#*|}
  case "$name" in "+"*) show=1; name=${name#+} ;; esac
  local t0=$EPOCHREALTIME
  out=$(eval "$cmd" 2>&1); rc=$?
  # TRC_JOB_TIMES=FILE: each job's wall time (to see where a suite's time goes)
  [ -n "${TRC_JOB_TIMES:-}" ] &&
    awk -v a="$EPOCHREALTIME" -v b="$t0" -v n="$name" \
      'BEGIN { printf "%.2f %s\n", a - b, n }' >> "$TRC_JOB_TIMES"
  if [ $rc -eq 0 ]; then
    if [ $show = 1 ]; then printf 'ok %s\n%s\n' "$name" "$(tail -1 <<< "$out" | sed 's/^/  /')"
    else printf 'ok %s\n' "$name"; fi
  else
    printf 'not ok %s\n%s\n  command: %s\n' "$name" "$(tail -4 <<< "$out" | sed 's/^/  /')" "$cmd"
  fi
}
run_jobs() {
  local start
  start=$(date +%s)
  export -f run_one
  xargs -P "${JOBS:-2}" -d '\n' -n 1 bash -c 'run_one "$1"' _ < "$1"
  echo "$(wc -l < "$1") $2 in $(( $(date +%s) - start )) s on ${JOBS:-2} jobs"
}
