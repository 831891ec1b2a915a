#!/usr/bin/env bash
# make bench: speed of the C model in its three modes beside lz4 -1 and
# zstd -1, all timed in one process on the same records (build/trc_bench),
# and compressed sizes beside gzip -9, zstd -1, zstd -19 and lz4 -1 run on
# the same records in trace bin v1. Writes reports/bench.md.
# BENCH_RUNS (default 7): rounds per trace, the best of which is kept.
# BENCH_BEFORE: another build's trc_bench (say, main's); when set, it runs
# right after this build's on each trace and a before/after table is added.
# BENCH_BEFORE_TRC: another build's trc, likewise for the command line's
# section (BENCH_CLI_RUNS, default 3: runs of each command, the best kept).
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
# The command line on containers: plain, framed and checked. A frame (and
# a checked unit after each SYNC) restarts the coder, so per-frame costs
# show here and not in trc_bench. CPU time (user + sys) of one trc run,
# the best of CRUNS.
CRUNS=${BENCH_CLI_RUNS:-3}
BTRC=${BENCH_BEFORE_TRC:-}
cli=$W/cli.md
cliab=$W/cliab.md
: > $cli
: > $cliab
cputime() { # COMMAND...: best CPU seconds of CRUNS runs (getrusage of the
             # children: user + sys, whose sum the kernel counts exactly)
  python3 - "$CRUNS" "$@" <<'PY' || { echo "bench: $* failed" >&2; exit 1; }
import resource, subprocess, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
best = None
for _ in range(int(sys.argv[1])):
    t0 = cpu()
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    t = cpu() - t0
    best = t if best is None or t < best else best
print("%.6f" % best)
PY
}
mrs() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? n / s / 1e6 : 0) }'; }
for x in tests/data/*_t10.txt.xz; do
  n=$(basename $x .txt.xz)
  echo "bench: $n (command line)" >&2
  recs=$(grep -vc '^#' $W/$n.txt)
  build/trc compress $W/$n.txt $W/$n.base.trc
  for m in paper stack stack2; do
    row="| $n | $m |"
    for form in "" "--frame 1000" "--check --sync-every 1000"; do
      build/trc compress --mode $m $form $W/$n.base.trc $W/$n.form.trc
      tc=$(cputime build/trc compress --mode $m $form $W/$n.base.trc $W/$n.out.trc)
      ts=$(cputime build/trc stats $W/$n.form.trc)
      row+=" $(mrs $recs $tc) / $(mrs $recs $ts) |"
      if [ -n "$BTRC" ]; then
        bc=$(cputime $BTRC compress --mode $m $form $W/$n.base.trc $W/$n.out.trc)
        bs=$(cputime $BTRC stats $W/$n.form.trc)
        echo "| $n | $m | ${form:-plain} | $(mrs $recs $bc) | $(mrs $recs $tc) | $(mrs $recs $bs) | $(mrs $recs $ts) |" >> $cliab
      fi
    done
    echo "$row" >> $cli
  done
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
  echo "in paper, stack and stack2 mode (paper field widths; stack SK 9, SD 16;"
  echo "stack2 its preset: SK 12, SD 16, SO 9, ND 4,3,4, fresh entries) encoding"
  echo "the records and decoding the stream, then"
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
  echo "## The command line on containers"
  echo
  echo "\`build/trc compress --mode M FORM IN.trc OUT.trc\` (the records read"
  echo "from a paper mode container of the trace) and \`build/trc stats\` on"
  echo "that output (reads and decodes every record): M records/s of the"
  echo "process's CPU time (user + sys), the best of $CRUNS runs. FORM: none; a"
  echo "framed container of 1000 records a frame (\`--frame 1000\`, format.md"
  echo "5.1); a checked stream with a SYNC every 1000 records (\`--check"
  echo "--sync-every 1000\`, 4.10). A frame and a SYNC restart the coder, so"
  echo "what a restart costs shows in the second and third pairs."
  echo
  echo "| trace | mode | plain: compress / stats | framed: compress / stats | checked: compress / stats |"
  echo "|---|---|---|---|---|"
  cat $cli
  echo
  if [ -n "$BTRC" ]; then
    echo "\`BENCH_BEFORE_TRC=$BTRC make bench\`: the same commands with that"
    echo "build's trc, each right after this build's; M records/s."
    echo
    echo "| trace | mode | form | compress before | after | stats before | after |"
    echo "|---|---|---|---:|---:|---:|---:|"
    cat $cliab
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
