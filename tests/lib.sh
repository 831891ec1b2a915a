# tests/lib.sh - what the shell suites share. Source it from a suite with
#   . "$(dirname "$0")/lib.sh"; suite_init NAME
# It moves to the repository top, sets TRC/ASAN and a private work folder W
# (under build/tmp, removed at exit, so runs side by side do not trip over
# each other). Every check goes through t.

suite_init() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
  TRC=${TRC:-build/trc}
  ASAN=${ASAN:-build/asan/trc}
  mkdir -p build/tmp
  W=$(mktemp -d "build/tmp/$1.XXXXXX")
  trap 'rm -rf "$W"' EXIT
}

# t NAME CMD...: "ok NAME" when CMD succeeds, else "not ok NAME" with the
# start of its output and the command as run (so `t NAME test "$a" = "$b"`
# shows both values).
t() {
  local name=$1; shift
  if "$@" >"$W/last.out" 2>&1; then echo "ok $name"
  else
    echo "not ok $name"
    head -c 600 "$W/last.out" | head -5 | sed 's/^/  /'
    echo "  command: $(printf '%q ' "$@" | head -c 300)"
  fi
}

# fails_with PATTERN CMD...: CMD exits 1 (error) or 2 (usage) and its stderr
# matches PATTERN (a crash or a silent success does not).
fails_with() {
  local pat=$1; shift
  "$@" >"$W/ef.out" 2>"$W/ef.err"; local rc=$?
  [ $rc -eq 1 -o $rc -eq 2 ] && grep -Eq -- "$pat" "$W/ef.err" && return 0
  echo "rc $rc"; head -3 "$W/ef.err"; return 1
}
expect_fail() { local name=$1; shift; t "$name" fails_with "$@"; }

# stops_with PATTERN CMD...: a tool (Verilator, Yosys, Icarus, FuseSoC) stops
# with an error: CMD exits non-zero (not killed by a signal) and what it
# printed, on either stream, matches PATTERN.
stops_with() {
  local pat=$1; shift
  "$@" >"$W/sw.out" 2>&1; local rc=$?
  [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -Eq -- "$pat" "$W/sw.out" && return 0
  echo "rc $rc"; tail -3 "$W/sw.out"; return 1
}

# no_sanitizer_report CMD...: CMD (an ASan/UBSan build) reports nothing.
no_sanitizer_report() {
  "$@" >"$W/san.out" 2>"$W/san.err"
  ! grep -m1 'ERROR: .*Sanitizer\|runtime error' "$W/san.err"
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
# job NAME COMMAND: a line of the job file $jobs, for run_jobs.
job() { printf '%s|%s\n' "$1" "$2" >> "$jobs"; }
# enc SET TRACE OPTIONS...: the command line of the trc_enc harness built for
# parameter set SET (under $S, the simulation builds); STALLS: stalls on both
# sides, BAD: SYNCs, ENDs, junk in unused bits and reserved records
enc() { local set=$1 tr=$2; shift 2; echo "$S/enc_$set/Vtrc_sim_enc $tr $*"; }
STALLS="--stall-in 0.2 --stall-out 0.2"
BAD="--sync-every 997 --end-every 1501 --junk --reserved 313"
run_jobs() {
  local start
  start=$(date +%s)
  export -f run_one
  xargs -P "${JOBS:-2}" -d '\n' -n 1 bash -c 'run_one "$1"' _ < "$1"
  echo "$(wc -l < "$1") $2 in $(( $(date +%s) - start )) s on ${JOBS:-2} jobs"
}
