#!/usr/bin/env bash
# Runs every regression suite tests/t_*.sh (or those named on the command
# line) and ends with one line "N passed, N failed". A suite prints one line
# per check: "ok NAME" or "not ok NAME" (anything else is shown as is).
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
times=()
mkdir -p build
tf=$(mktemp build/run-time.XXXXXX)
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(tests/t_*.sh)
for s in "${suites[@]}"; do
  echo "== $s"
  start=$(date +%s)
  while IFS= read -r line; do
    case "$line" in
      "ok "*) pass=$((pass + 1)); echo "  $line" ;;
      "not ok "*) fail=$((fail + 1)); echo "  $line" ;;
      *) echo "    $line" ;;
    esac
  done < <(/usr/bin/time -f '%U %S' -o "$tf" bash "$s" 2>&1; rc=$?
            [ $rc -eq 0 ] || echo "not ok $s exited $rc")
  wall=$(( $(date +%s) - start ))
  cpu=$(awk 'END { printf "%d", $1 + $2 }' "$tf" 2>/dev/null)
  echo "   ($wall s, ${cpu:-?} s CPU)"
  times+=("$wall ${cpu:-?} $s")
done
rm -f "$tf"
if [ ${#times[@]} -gt 1 ]; then
  echo "== time per suite (wall s, CPU s), slowest first"
  printf '%s\n' "${times[@]}" | sort -rn | awk '{ printf "   %5d %6s  %s\n", $1, $2, $3 }'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
