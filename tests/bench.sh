#!/usr/bin/env bash
# make bench: speed of the C model in its three modes beside lz4 -1 and
# zstd -1, all timed in one process on the same records (build/trc_bench),
# and compressed sizes beside gzip -9, zstd -1, zstd -19 and lz4 -1 run on
# the same records in trace bin v1. Writes reports/bench.md.
# BENCH_RUNS (default 7): rounds per trace, the best of which is kept.
# BENCH_BEFORE: another build's trc_bench (say, main's); when set, it runs
# right after this build's on each trace and a before/after table is added.
set -euo pipefail
cd "$(dirname "$0")/.."
W=build/tmp/bench
OUT=reports/bench.md
RUNS=${BENCH_RUNS:-7}
BEFORE=${BENCH_BEFORE:-}
mkdir -p $W reports
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
speed=$W/speed.md
size=$W/size.md
: > $speed
: > $size
ab=$W/ab.md
: > $ab
# key=value field of a trc_bench line
kv() { sed -n "s/.*\<$2=\([^ ]*\).*/\1/p" <<<"$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
bpr() { awk -v b="$1" -v r="$2" 'BEGIN { printf "%.2f", 8 * b / r }'; }
lows=()
for x in tests/data/*_t*.txt.xz; do
  n=$(basename $x .txt.xz)
  echo "bench: $n" >&2
  xz -dc $x > $W/$n.txt
  out=$(build/trc_bench $W/$n.txt $RUNS)
  head=$(sed -n 1p <<<"$out")
  recs=$(kv "$head" records)
  line() { grep "^codec=$1 " <<<"$out"; }
  lz=$(line lz4-1)
  lz_enc=$(kv "$lz" enc_mrec_s)
  lz_dec=$(kv "$lz" dec_mrec_s)
  for c in paper stack stack2 lz4-1 zstd-1; do
    l=$(line $c)
    enc=$(kv "$l" enc_mrec_s)
    dec=$(kv "$l" dec_mrec_s)
    echo "| $n | $c | $enc | $dec | $(ratio $enc $lz_enc) | $(ratio $dec $lz_dec) | $(kv "$l" bits_per_record) |" >> $speed
    case $c in
      paper|stack|stack2) lows+=("$c $enc $dec $(ratio $enc $lz_enc) $(ratio $dec $lz_dec)") ;;
    esac
  done
  if [ -n "$BEFORE" ]; then
    bout=$($BEFORE $W/$n.txt $RUNS)
    blz=$(grep "^codec=lz4-1 " <<<"$bout")
    for m in paper stack stack2; do
      b=$(grep "^codec=$m " <<<"$bout")
      a=$(line $m)
      be=$(kv "$b" enc_mrec_s) bd=$(kv "$b" dec_mrec_s)
      ae=$(kv "$a" enc_mrec_s) ad=$(kv "$a" dec_mrec_s)
      echo "| $n | $m | $be | $ae | $bd | $ad | $(ratio $be $(kv "$blz" enc_mrec_s)) | $(ratio $ae $lz_enc) | $(ratio $bd $(kv "$blz" dec_mrec_s)) | $(ratio $ad $lz_dec) |" >> $ab
    done
  fi

  # Sizes: the CLI's streams and the general-purpose tools' files.
  build/trc convert $W/$n.txt $W/$n.bin --to bin
  sz() { stat -c %s "$1"; }
  [ "$(sz $W/$n.bin)" = "$(kv "$head" bin_bytes)" ] || {
    echo "bench: $n: trc_bench's trace bin v1 differs in size from trc convert's" >&2
    exit 1
  }
  cells=""
  for m in paper stack stack2; do
    build/trc compress --raw --mode $m $W/$n.txt $W/$n.$m.trc
    [ "$(sz $W/$n.$m.trc)" = "$(kv "$(line $m)" bytes)" ] || {
      echo "bench: $n: trc_bench's $m stream differs in size from trc compress's" >&2
      exit 1
    }
    cells+=" $(bpr $(sz $W/$n.$m.trc) $recs) |"
  done
  g=$(gzip -9 -c $W/$n.bin | wc -c)
  z1=$(zstd -q -1 -c $W/$n.bin | wc -c)
  z19=$(zstd -q -19 -c $W/$n.bin | wc -c)
  l1=$(lz4 -q -1 -c $W/$n.bin | wc -c)
  echo "| $n | $recs |$cells $(bpr $g $recs) | $(bpr $z1 $recs) | $(bpr $z19 $recs) | $(bpr $l1 $recs) | $(bpr $(sz $W/$n.bin) $recs) |" >> $size
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# Each mode's lowest figures over the traces, against the 150 M records/s
# goal.
summary() {
  for m in paper stack stack2; do
    printf '%s\n' "${lows[@]}" | awk -v m=$m '$1 == m {
        if (!n++) { e = $2; d = $3; re = $4; rd = $5 }
        if ($2 < e) e = $2; if ($3 < d) d = $3
        if ($4 < re) re = $4; if ($5 < rd) rd = $5 }
      END { printf "| %s | %.1f | %.1f | %.2f | %.2f | %s |\n", m, e, d, re, rd,
            (e >= 150 && d >= 150) ? "yes" : "no" }'
  done
}

{
  echo "# Model speed and compressed size"
  echo
  echo "Made by \`make bench\` (tests/bench.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'): $cpu,"
  echo "$(nproc) CPUs, $(cc --version | head -1), model flags \`-O2\` (the"
  echo "portable build users get), liblz4 $(pkg-config --modversion liblz4 2>/dev/null || echo '?'),"
  echo "libzstd $(pkg-config --modversion libzstd 2>/dev/null || echo '?'). Load average before:"
  echo "$load0; after: $load1 (the machine is shared; see below)."
  echo
  echo "## Speed"
  echo
  echo "\`build/trc_bench TRACE $RUNS\` (tools/trc_bench.c): one process parses the"
  echo "trace once, then runs $RUNS rounds; each round times, in turn, the model"
  echo "in paper, stack and stack2 mode (paper field widths; stack SK 9, stack2"
  echo "SK 12, SD 16) encoding the records and decoding the stream, then"
  echo "liblz4 (\`lz4 -1\`: frame, 4 MB independent blocks, content checksum) and"
  echo "libzstd (\`zstd -1\`: frame with checksum) compressing and decompressing"
  echo "the same records as trace bin v1 bytes, all in memory. Every round trip"
  echo "is checked. Each figure is the best round, as records per second of the"
  echo "thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that time the thread"
  echo "spent waiting for a CPU does not count; what other jobs still cost it"
  echo "(shared caches, a busy sibling thread) slows every codec of a round"
  echo "alike, hence the columns \"/ lz4 -1\": the codec's speed over lz4 -1's"
  echo "in the same run, the figure to compare between machines and loads."
  echo
  echo "| trace | codec | encode Mrec/s | decode Mrec/s | encode / lz4 -1 | decode / lz4 -1 | bits/record |"
  echo "|---|---|---|---|---|---|---|"
  cat $speed
  echo
  echo "## Summary"
  echo
  echo "Each mode's lowest figures over the six sample traces of one run (speed"
  echo "in M records/s of thread CPU time; \"/ lz4 -1\": over lz4 -1's in the"
  echo "same run), against the goal of 150 M records/s encode and decode:"
  echo
  echo "| mode | encode | decode | encode / lz4 -1 | decode / lz4 -1 | both >= 150 |"
  echo "|---|---|---|---|---|---|"
  summary
  echo
  if [ -n "$BEFORE" ]; then
    echo "## Before and after"
    echo
    echo "\`BENCH_BEFORE=$BEFORE make bench\`: that build's trc_bench ran right"
    echo "after this one on each trace, $RUNS rounds each; M records/s, and the"
    echo "ratio to lz4 -1 in the same process (each build's own lz4 -1 run)."
    echo
    echo "| trace | mode | encode before | encode after | decode before | decode after | encode / lz4 -1 before | after | decode / lz4 -1 before | after |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat $ab
    echo
  fi
  echo "## Size"
  echo
  echo "Bits per trace record: the model's bare stream (\`build/trc compress"
  echo "--raw --mode M\`, END included; trc_bench's streams are checked to be"
  echo "the same size), and each general-purpose tool's file of trace bin v1"
  echo "(\`build/trc convert --to bin\`, 48 bits a record). Lower is better."
  echo
  echo "| trace | records | paper | stack | stack2 | gzip -9 | zstd -1 | zstd -19 | lz4 -1 | bin v1 |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  cat $size
  echo
  echo "bin v1 is larger than 48 bits a record where long deltas need TIME_EXT"
  echo "words. Tool versions: $(gzip --version | head -1), zstd $(zstd --version | grep -o "v[0-9.]*" | head -1),"
  echo "lz4 $(lz4 --version 2>&1 | grep -o "v[0-9.]*" | head -1)."
} > $OUT.tmp
mv $OUT.tmp $OUT
cat $OUT
