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
  if [ $rc -eq 1 -o $rc -eq 2 ] && grep -Eq "$pat" "$W/ef.err"; then echo "ok $name"
  else echo "not ok $name (rc $rc)"; head -3 "$W/ef.err"; fi
}
