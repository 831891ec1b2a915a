#!/usr/bin/env bash
# make stack-report: the stack modes (docs/stack-mode.md) beside paper mode,
# the LZ4 baseline core and gzip -9 / zstd -19 / lz4 -1, on every sample
# trace (tests/data) and OS-heavy trace (tests/data/os), in one run; the RTL
# encoder of both stack modes checked bit for bit on each full trace; the
# ablation of tools/stack_ablation.py (whose stack, stack2, +fresh and
# tqNfe must equal the C model's sizes). Writes reports/stack.md. Slow
# (about 20 minutes on 2 cores): not part of make test.
set -euo pipefail
cd "$(dirname "$0")/.."
W=build/tmp/stack
OUT=reports/stack.md
SIM1=build/sim/enc_stack/Vtrc_sim_enc
SIM2=build/sim/enc_s2fe/Vtrc_sim_enc
SIM2NF=build/sim/enc_s2/Vtrc_sim_enc
SIM2Q=build/sim/enc_s2q/Vtrc_sim_enc
mkdir -p $W reports
rm -f $W/*.abl $W/*.abl.tmp $W/quanta.tmp $W/sizes.tmp
VARIANTS="paper +stack +event stack -stack -event -mode -hit sk6 sk8 sk12 sd1 sd4 sd64"
VARIANTS2="stack +sk12 +noflip +nd4 +phase +os stack2 -phase2 -os2 -nd4 -noflip2 s2sk11 s2so8 s2nd5 +fresh +match +match1"
VARIANTS3="stack2 tq10 tq100 tq1000 +dd +mtf +osown +ospair +oslz"
sample=$(cd tests/data && ls *_t*.txt.xz | sed 's/\.txt\.xz$//')
os=$(cd tests/data && ls os/*_t*.txt.xz | sed 's/\.txt\.xz$//')
name() { basename "$1"; }

# The ablation runs in the background, one trace at a time, on the second core.
(for t in $sample $os; do
   n=$(name $t)
   xz -dc tests/data/$t.txt.xz > $W/$n.abl.txt
   case $t in os/*) v3=$VARIANTS3 ;; *) v3= ;; esac
   python3 tools/stack_ablation.py $W/$n.abl.txt $VARIANTS $VARIANTS2 $v3 > $W/$n.abl.tmp
   mv $W/$n.abl.tmp $W/$n.abl
   rm -f $W/$n.abl.txt
 done) &
abl=$!

bpr() { awk -v b="$1" -v r="$2" 'BEGIN { printf "%.2f", 8 * b / r }'; }
size() { stat -c %s "$1"; }
verdict() { if [ "$1" -le "$2" ]; then echo met; else echo "missed ($(awk -v a=$1 -v b=$2 'BEGIN { printf "%.2fx", a / b }'))"; fi; }
rows=""; rows_os=""; targets=""
for t in $sample $os; do
  n=$(name $t)
  echo "stack-report: $t" >&2
  xz -dc tests/data/$t.txt.xz > $W/$n.txt
  recs=$(grep -vc '^#' $W/$n.txt)
  build/trc compress --raw $W/$n.txt $W/$n.paper
  build/trc compress --raw --mode stack $W/$n.txt $W/$n.stack
  build/trc compress --raw --mode stack2 $W/$n.txt $W/$n.stack2
  build/trc compress --raw --mode stack2 --no-fresh $W/$n.txt $W/$n.stack2nf
  # The time quantum the trace allows: the largest of 1000, 100, 10 ticks
  # that divides every delta (1: none).
  q=$(awk '!/^#/ && NF { if ($1 % 1000) a = 1; if ($1 % 100) b = 1; if ($1 % 10) c = 1 }
           END { print !a ? 1000 : !b ? 100 : !c ? 10 : 1 }' $W/$n.txt)
  build/trc compress --raw --mode stack2 --quantum $q $W/$n.txt $W/$n.stack2q
  if [ "$q" != 1 ]; then  # the second implementation's size of it
    a=$(python3 tools/stack_ablation.py $W/$n.txt tq${q}fe | awk '{ print $3 }')
    [ "$a" = "$(size $W/$n.stack2q)" ] || { echo "stack-report: $n: ablation tq${q}fe $a bytes, model $(size $W/$n.stack2q)" >&2; exit 1; }
    build/trc compress --raw --mode stack2 --no-fresh --quantum $q $W/$n.txt $W/$n.stack2qnf
  fi
  build/trc decompress --raw $W/$n.paper $W/$n.pback
  for m in stack stack2; do
    build/trc decompress --raw --mode $m $W/$n.$m $W/$n.back
    cmp -s $W/$n.back $W/$n.pback || { echo "stack-report: $n: $m round trip differs" >&2; exit 1; }
  done
  build/trc decompress --raw --mode stack2 --no-fresh $W/$n.stack2nf $W/$n.back
  cmp -s $W/$n.back $W/$n.pback || { echo "stack-report: $n: stack2 --no-fresh round trip differs" >&2; exit 1; }
  build/trc decompress --raw --mode stack2 --quantum $q $W/$n.stack2q $W/$n.back
  cmp -s $W/$n.back $W/$n.pback || { echo "stack-report: $n: stack2 TQ $q round trip differs" >&2; exit 1; }
  echo "$n $q" >> $W/quanta.tmp
  # The RTL of both stack modes (stack mode 2 with and without fresh
  # entries), bit for bit against the model on the whole trace, no stalls.
  r1=$($SIM1 $W/$n.txt --out-w 64 | grep -o 'records/cycle [0-9.]*' | cut -d' ' -f2)
  o2=$($SIM2 $W/$n.txt --out-w 64)
  r2=$(grep -o 'records/cycle [0-9.]*' <<<"$o2" | cut -d' ' -f2)
  i2=$(grep -o 'input side [0-9.]*' <<<"$o2" | cut -d' ' -f3)
  rnf=$($SIM2NF $W/$n.txt --out-w 64 | grep -o 'records/cycle [0-9.]*' | cut -d' ' -f2)
  # the RTL with the quantum (its harness build has TQ 100), bit for bit
  rq="-"
  if [ "$q" = 100 ]; then
    oq=$($SIM2Q $W/$n.txt --out-w 64)
    rq="$(grep -o 'records/cycle [0-9.]*' <<<"$oq" | cut -d' ' -f2) ($(grep -o 'input side [0-9.]*' <<<"$oq" | cut -d' ' -f3))"
  fi
  build/trc convert $W/$n.txt $W/$n.bin --to bin
  build/lz4/trc_lz4 -w 12 $W/$n.bin $W/$n.l12
  build/lz4/trc_lz4 -w 16 $W/$n.bin $W/$n.l16
  lz4 -dc $W/$n.l12 | cmp -s - $W/$n.bin || { echo "stack-report: $n: lz4 -d differs" >&2; exit 1; }
  g=$(gzip -9 -c $W/$n.bin | wc -c)
  z=$(zstd -q -19 -c $W/$n.bin | wc -c)
  l=$(lz4 -q -1 -c $W/$n.bin | wc -c)
  p=$(size $W/$n.paper) s=$(size $W/$n.stack) s2=$(size $W/$n.stack2) s2q=$(size $W/$n.stack2q)
  s2nf=$(size $W/$n.stack2nf)
  l12=$(size $W/$n.l12) l16=$(size $W/$n.l16)
  row="| $t | $recs | $(bpr $p $recs) | $(bpr $s $recs) | **$(bpr $s2 $recs)** | $(awk -v a=$s2 -v b=$p 'BEGIN { printf "%.3f", a / b }') | $(bpr $s2nf $recs) | $(bpr $l12 $recs) | $(bpr $l16 $recs) | $(bpr $g $recs) | $(bpr $z $recs) | $(bpr $l $recs) | $r1 | $r2 ($i2) | $rnf | $q | $(bpr $s2q $recs) | $rq |"$'\n'
  case $t in os/*) rows_os+="$row" ;; *) rows+="$row" ;; esac
  targets+="- $t: stack mode 2 (TQ 1) <= gzip -9: $(verdict $s2 $g); <= paper mode: $(verdict $s2 $p); without fresh entries <= gzip -9: $(verdict $s2nf $g); <= 1.3 x zstd -19 (moonshot): $(verdict $s2 $(( z * 13 / 10 ))); RTL records/clock $r2 (input side $i2); with its time quantum (TQ $q, what \`trc compress --mode stack2\` into a .trc uses) <= gzip -9: $(verdict $s2q $g), <= paper mode: $(verdict $s2q $p), RTL records/clock $rq"$'\n'
  echo "$n $s $s2" >> $W/sizes.tmp
  rm -f $W/$n.back $W/$n.pback $W/$n.l12 $W/$n.l16 $W/$n.bin $W/$n.txt
done
wait $abl

# The ablation's stack and stack2 must be the C model's streams, byte for
# byte in size.
ablrow() {  # ablrow TRACE VARIANTS...: one table row
  local t=$1 n; n=$(name $1); shift
  local row="| $t"
  for v in "$@"; do row+=" | $(awk -v v="$v" '$1 == v { printf "%.2f", $2; exit }' $W/$n.abl)"; done
  echo "$row |"
}
abl_rows=""; abl2_rows=""; abl3_rows=""
for t in $sample $os; do
  n=$(name $t)
  for m in stack stack2 +fresh; do
    f=$m; [ $m = stack2 ] && f=stack2nf; [ $m = +fresh ] && f=stack2
    a=$(awk -v v=$m '$1 == v { print $3; exit }' $W/$n.abl)
    [ "$a" = "$(size $W/$n.$f)" ] || { echo "stack-report: $n: ablation $m $a bytes, model $(size $W/$n.$f)" >&2; exit 1; }
  done
  q=$(awk -v n=$n '$1 == n { print $2 }' $W/quanta.tmp)
  if [ "$q" != 1 ]; then
    a=$(awk -v v=tq$q '$1 == v { print $3; exit }' $W/$n.abl)
    [ "$a" = "$(size $W/$n.stack2qnf)" ] || { echo "stack-report: $n: ablation tq$q $a bytes, model $(size $W/$n.stack2qnf)" >&2; exit 1; }
  fi
  case $t in os/*) ;; *) abl_rows+="$(ablrow $t $VARIANTS)"$'\n' ;; esac
  abl2_rows+="$(ablrow $t $VARIANTS2)"$'\n'
  case $t in os/*) abl3_rows+="$(ablrow $t $VARIANTS3)"$'\n' ;; esac
done
rm -f $W/sizes.tmp $W/quanta.tmp

hdr() { echo "| trace | $(sed 's/ / | /g' <<<"$1") |"; echo "|---|$(for v in $1; do printf -- '---:|'; done)"; }
{
  echo "# The stack modes against paper mode, the LZ4 core and general-purpose compressors"
  echo
  echo "Made by \`make stack-report\` (tests/stack_report.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'),"
  echo "sources $(git describe --always --dirty 2>/dev/null || echo unknown). All figures in one run, on"
  echo "the sample traces in tests/data (real programs, see tests/data/README.md) and"
  echo "the OS-heavy traces in tests/data/os (a real 2-CPU ftrace capture and a seeded"
  echo "scheduler model, see tests/data/os/README.md)."
  echo
  echo "Bits per trace record (lower is better). trc: \`build/trc compress --raw\`"
  echo "(paper mode), \`--mode stack\` (SK 9, SD 16) and \`--mode stack2\` (stack mode 2:"
  echo "SK 12, SD 16, SO 9, ND 4,3,4, fresh entries), each decoded back and compared;"
  echo "stack 2 without FE: \`--mode stack2 --no-fresh\`. LZ4 core: its C model"
  echo "\`build/lz4/trc_lz4 -w 12|16\` (bit-exact with rtl/lz4, output checked with"
  echo "\`lz4 -d\`). gzip, zstd and lz4: on trace bin v1 (\`build/trc convert --to bin\`),"
  echo "the same records. RTL: \`$SIM1 T.txt --out-w 64\` (MODE=1),"
  echo "\`$SIM2 T.txt --out-w 64\` (MODE=2, FE=1) and, without fresh entries,"
  echo "\`$SIM2NF T.txt --out-w 64\` (MODE=2, FE=0) under Verilator, each compared byte"
  echo "for byte with the model on the whole trace; their records/clock without"
  echo "stalls (records over clocks, the pipeline's fill and drain included; in"
  echo "parentheses the input side alone, records over the clocks that the input"
  echo "was offered). TQ: the time quantum the trace allows (the largest of 1000,"
  echo "100 and 10 ticks that divides every delta, else 1), and stack mode 2 with"
  echo "it (\`--mode stack2 --quantum TQ\`, docs/format.md 4.8), and where TQ is 100"
  echo "the RTL with it (\`$SIM2Q T.txt --out-w 64\`, TQ = 100 and FE = 1, compared"
  echo "byte for byte with the model). The stack 2 column is TQ 1, as a bare stream and the"
  echo "RTL's default have it; \`trc compress --mode stack2\` from a file into a .trc"
  echo "finds the trace's TQ by itself (docs/stack-mode.md), so its size is the"
  echo "stack 2 TQ column's. Fresh entries (docs/format.md 4.8) are the model's"
  echo "default; reports/stack_cold.md measures what they are for: short traces and"
  echo "frequent SYNCs. The ablation's tqNfe (the trace's TQ, with FE) equals the"
  echo "stack 2 TQ column's streams (checked by this script)."
  echo
  echo "## Sizes"
  echo
  H="| trace | records | paper | stack | stack 2 | stack 2 / paper | stack 2 without FE | LZ4 core 4 KB | LZ4 core 64 KB | gzip -9 | zstd -19 | lz4 -1 | RTL stack records/clock | RTL stack 2 records/clock | RTL stack 2 without FE | TQ | stack 2 TQ | RTL stack 2 TQ records/clock |"
  S="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  echo "$H"; echo "$S"
  printf '%s' "$rows"
  echo
  echo "OS-heavy traces:"
  echo
  echo "$H"; echo "$S"
  printf '%s' "$rows_os"
  echo
  echo "Bits per trace record; the stack columns are the C model's streams, which the"
  echo "RTL matched byte for byte on every trace."
  echo
  echo "## Targets: sizes against gzip -9 and zstd -19, records/clock"
  echo
  printf '%s' "$targets"
  echo
  echo "## Ablation"
  echo
  echo "\`python3 tools/stack_ablation.py T.txt VARIANT...\`: a second implementation of"
  echo "the bit counts, written from docs/format.md 4.7 and 4.8; its \`stack\`,"
  echo "\`stack2\` and \`+fresh\` equal the C model's stream sizes on every trace"
  echo "(\`--mode stack\`, \`--mode stack2 --no-fresh\` and \`--mode stack2\`; checked"
  echo "by this script). Bits per record; the variants are listed in the tool's help."
  echo
  echo "Stack mode (sample traces): paper, +stack (exit-of-top class), +event (event"
  echo "prediction), stack (+ delta prediction); -X: stack without one piece; skN, sdN:"
  echo "another table size or stack depth."
  echo
  hdr "$VARIANTS"
  printf '%s' "$abl_rows"
  echo
  echo "Stack mode 2, built up from stack mode: +sk12 (4096 contexts), +noflip (no exit"
  echo "flip in the function dictionary), +nd4 (15-entry function and value"
  echo "dictionaries), +phase (NEAR phase), +os (OS context table, class bit), stack2"
  echo "(NPX: stack mode 2); -X: stack mode 2 without one piece; s2sk11, s2so8, s2nd5:"
  echo "another size; +fresh: fresh entries (FE, in the format); +match, +match1: a"
  echo "match model on top (not in the format, see docs/stack-mode.md)."
  echo
  hdr "$VARIANTS2"
  printf '%s' "$abl2_rows"
  echo
  echo "The OS traces' timestamps: stack mode 2 with a time quantum (tqN, in the"
  echo "format), and measured ideas for the OS records' deltas that are not: +dd (a"
  echo "15-entry dictionary of recent OS deltas), +mtf (a 31-entry move-to-front"
  echo "list), +osown and +ospair (the delta from an entry of the record's own"
  echo "type and value, or of the previous and own pair), +oslz (the OS entry"
  echo "split by the previous delta's bit-length class); see the tool's help."
  echo
  hdr "$VARIANTS3"
  printf '%s' "$abl3_rows"
  echo
  echo "Tool versions: $(gzip --version | head -1), zstd $(zstd --version | grep -o "v[0-9.]*" | head -1),"
  echo "lz4 $(lz4 --version 2>&1 | grep -o "v[0-9.]*" | head -1), $(python3 --version)."
} > $OUT.tmp
mv $OUT.tmp $OUT
rm -f $W/*.paper $W/*.stack $W/*.stack2 $W/*.stack2nf $W/*.stack2q $W/*.stack2qnf
cat $OUT
