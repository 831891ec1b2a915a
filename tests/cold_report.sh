#!/usr/bin/env bash
# The stack modes' cold start: paper, stack, stack mode 2 without fresh
# entries (`--no-fresh`) and with them (the default, docs/format.md 4.8),
# the C model's bare streams, on the first N records of every sample trace
# and on whole traces with a SYNC every N records. Prints markdown tables
# on stdout (bytes; bits per record in the SYNC table). Checks on the way
# that tools/stack_ablation.py's stack2 and +fresh equal the C model's
# sizes.
# Slow (about 30 minutes on one core): not part of make test.
#   tests/cold_report.sh [TRACE-NAME ...]   (default: the six sample traces)
set -euo pipefail
cd "$(dirname "$0")/.."
W=build/tmp/cold
mkdir -p $W/os
names=${*:-$(cd tests/data && ls *_t*.txt.xz | sed 's/\.txt\.xz$//')}
abl() { python3 tools/stack_ablation.py "$@" | awk '{ print $3 }'; }
size() { stat -c %s "$1"; }

echo "### The first N records (bytes)"
echo
echo "| trace | N | paper | stack | stack 2 | stack 2 FE | stack 2 / paper | FE / paper |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for n in $names; do
  xz -dc tests/data/$n.txt.xz > $W/$n.txt
  for k in 10 20 50 100 200 500 1000; do
    awk -v k=$k '/^#/ { print; next } NF && ++i > k { exit } NF { print }' $W/$n.txt > $W/head.txt
    for m in paper stack; do
      build/trc compress --raw --mode $m $W/head.txt $W/head.$m
    done
    build/trc compress --raw --mode stack2 --no-fresh $W/head.txt $W/head.stack2
    build/trc compress --raw --mode stack2 $W/head.txt $W/head.fe
    p=$(size $W/head.paper); s2=$(size $W/head.stack2); f=$(size $W/head.fe)
    [ "$(abl $W/head.txt +fresh)" = "$f" ] || { echo "cold_report: $n: stack_ablation +fresh differs" >&2; exit 1; }
    echo "| $n | $k | $p | $(size $W/head.stack) | $s2 | $f |" \
         "$(awk -v a=$s2 -v b=$p 'BEGIN { printf "%.2f", a / b }') |" \
         "$(awk -v a=$f -v b=$p 'BEGIN { printf "%.2f", a / b }') |"
  done
done
echo
echo "### Whole traces with a SYNC every N records (bits/record)"
echo
echo "| trace | SYNC every | paper | stack | stack 2 | stack 2 FE | FE / stack 2 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for n in $names; do
  recs=$(grep -vc '^#' $W/$n.txt)
  for k in 100 1000 none; do
    opt=(); sy=(); [ $k = none ] || { opt=(--sync-every $k); sy=(--sync $k); }
    for m in paper stack; do
      build/trc compress --raw --mode $m "${opt[@]}" $W/$n.txt $W/$n.$m
    done
    build/trc compress --raw --mode stack2 --no-fresh "${opt[@]}" $W/$n.txt $W/$n.stack2
    build/trc compress --raw --mode stack2 "${opt[@]}" $W/$n.txt $W/$n.fe
    read -r s2py fpy < <(python3 tools/stack_ablation.py $W/$n.txt "${sy[@]}" stack2 +fresh |
                         awk '{ printf "%s ", $3 } END { print "" }')
    s2=$(size $W/$n.stack2); f=$(size $W/$n.fe)
    [ "$s2py $fpy" = "$s2 $f" ] || { echo "cold_report: $n: stack_ablation $s2py $fpy bytes, C model $s2 $f" >&2; exit 1; }
    bpr() { awk -v b="$1" -v r=$recs 'BEGIN { printf "%.3f", 8 * b / r }'; }
    echo "| $n | $k | $(bpr $(size $W/$n.paper)) | $(bpr $(size $W/$n.stack)) | $(bpr $s2) | $(bpr $f) |" \
         "$(awk -v a=$f -v b=$s2 'BEGIN { printf "%.3f", a / b }') |"
  done
done
