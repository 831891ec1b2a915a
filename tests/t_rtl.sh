#!/usr/bin/env bash
# RTL regression suite: trc_enc against the C model on the
# sample traces x OUT_W {8,16,32,64} x parameter sets {paper, nd2, nd4, nt16,
# fid8} x stalls {none, 10%, 50%} (20k-record prefixes), mid-stream resets,
# END/SYNC/bad-input streams, full 1M-record runs at paper params / OUT_W=64
# (records/cycle must round to 1.00), trc_core random events, and the Icarus
# directed test. fid8: the traces' function ids are mapped to id mod 2^8
# (--map-ids); nt16: long deltas are split by TIME_EXT as the format says.
# Beyond the matrix: a wide set and seeded random traces on every set.
# Stack mode runs the same matrix on its sets (stack = paper widths, snt16,
# sfid8; swide, stiny beyond it), and so do stack mode 2 (s2 = its preset,
# s2nt16, s2fid8; s2wide, s2tiny beyond it; s2 also on the OS-heavy traces
# of tests/data/os; s2fe, its preset with fresh entries, as the host tools
# write it, on those and two sample traces with SYNCs; s2q, that with a
# time quantum of 100 ticks, on the OS traces, a few sample traces and
# random traces; s2tinyfe) and the lean encoder (lpaper, lnd2, lnd4, lnt16, lfid8;
# lwide, ltiny beyond it; see sim/sim.mk).
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
. "$(dirname "$0")/lib.sh"
suite_init rtl
S=build/sim
JOBS=${TRC_JOBS:-2}

if ! make --no-print-directory -s sim-deps > $W/deps.log 2>&1; then
  echo "not ok rtl build (make sim-deps)"; sed 's/^/  /' $W/deps.log | tail -30; exit 0
fi
echo "ok rtl build (make sim-deps)"

# The waveform of `make wave` (same run, private file) holds every signal
# that sim/trc.gtkw shows.
if make --no-print-directory -s wave WAVE_FST=$W/trc.fst > $W/wave.log 2>&1 &&
   [ -s $W/trc.fst ]; then
  fst2vcd $W/trc.fst 2>/dev/null | awk '/\$scope/{s[++d]=$3} /\$upscope/{d--}
    /\$var/{p=""; for(i=1;i<=d;i++) p=p s[i] "."; print p $5 ($6 ~ /^\[/ ? $6 : "")}' \
    | sort -u > $W/wave.sigs
  missing=$(grep '^top\.' sim/trc.gtkw | grep -vxFf $W/wave.sigs)
  if [ -z "$missing" ]; then echo "ok make wave: FST has every signal of sim/trc.gtkw"
  else echo "not ok make wave: FST lacks signals of sim/trc.gtkw"; sed 's/^/  /' <<< "$missing"; fi
  # GTKWave itself opens it with the save file (needs a display: xvfb-run)
  if command -v xvfb-run > /dev/null && command -v gtkwave > /dev/null; then
    printf '%s\n' 'puts "TRACES [gtkwave::getTotalNumTraces]"' 'gtkwave::/File/Quit' \
      > $W/g.tcl
    got=$(timeout 60 xvfb-run -a gtkwave -S $W/g.tcl $W/trc.fst sim/trc.gtkw 2>/dev/null \
          | sed -n 's/^TRACES //p')
    # every signal line and group marker of the save file is a trace
    want=$(grep -c '^\(top\.\|-\)' sim/trc.gtkw)
    if [ "$got" = "$want" ]; then echo "ok gtkwave opens the FST with sim/trc.gtkw ($got traces)"
    else echo "not ok gtkwave opens the FST with sim/trc.gtkw (traces: $got, want $want)"; fi
  else
    echo "  (no xvfb-run/gtkwave: GTKWave not started)"
  fi
else
  echo "not ok make wave"; sed 's/^/  /' $W/wave.log | tail -5
fi

traces=$(cd tests/data && ls *_t*.txt.xz | sed 's/\.txt\.xz$//')
jobs=$W/jobs
: > "$jobs"
# job, enc, STALLS, BAD: tests/lib.sh (a job whose name starts with + also
# shows the harness's summary line)

# ---- the matrix, 20k-record prefixes
seed=0
for set in paper nd2 nd4 nt16 fid8 stack snt16 sfid8 s2 s2nt16 s2fid8 \
           lpaper lnd2 lnd4 lnt16 lfid8; do
  map=""; case $set in fid8|sfid8|s2fid8|lfid8) map="--map-ids";; esac
  for t in $traces; do
    for w in 8 16 32 64; do
      for st in 0 0.1 0.5; do
        seed=$((seed + 1))
        job "enc $set w$w $t stall $st" "$(enc $set $S/data/$t.20k.txt \
          --out-w $w --stall-in $st --stall-out $st --seed $seed $map)"
      done
    done
  done
  # reset in the middle of a stream, then the stream restarts from reset state
  for w in 8 64; do
    seed=$((seed + 1))
    job "enc $set w$w reset mid-stream" "$(enc $set $S/data/lua_errors_t1.20k.txt \
      --out-w $w $STALLS --reset-at 6000 --seed $seed $map)"
  done
  # END/SYNC mid-stream, junk in unused info bits, reserved types with values
  for w in 8 16 32 64; do
    seed=$((seed + 1))
    job "enc $set w$w END/SYNC + bad input" "$(enc $set $S/data/zlib_deflate_t1.20k.txt \
      --out-w $w $STALLS $BAD --seed $seed $map)"
  done
done

# ---- stack mode 2 on the OS-heavy traces (its OS context table), and with
# fresh entries and a time quantum of 100 ticks (s2q: the ftrace captures'
# deltas are multiples of it, the scheduler model's are not, so nearly all
# are raw)
for set in s2 s2q; do
  for t in $(cd tests/data && ls os/*_t*.txt.xz | sed 's/\.txt\.xz$//'); do
    for w in 8 64; do
      for st in 0 0.3; do
        seed=$((seed + 1))
        job "enc $set w$w $t stall $st" "$(enc $set $S/data/$t.20k.txt \
          --out-w $w --stall-in $st --stall-out $st --seed $seed)"
      done
    done
  done
done
# s2fe: fresh entries (docs/format.md 4.8), on the same traces and on
# function traces with a SYNC every 100 raw records (after which every
# entry is fresh again)
for t in $(cd tests/data && ls os/*_t*.txt.xz | sed 's/\.txt\.xz$//') lua_calls_t1 zlib_deflate_t10; do
  for w in 8 64; do
    seed=$((seed + 1))
    job "enc s2fe w$w $t SYNC every 100 stall 0.3" "$(enc s2fe $S/data/$t.20k.txt \
      --out-w $w --sync-every 100 --stall-in 0.3 --stall-out 0.3 --seed $seed)"
  done
done
# s2q on function traces (raw deltas), with resets, END/SYNC and bad input
for w in 8 64; do
  seed=$((seed + 1))
  job "enc s2q w$w lua_calls_t10 stall 0.5" "$(enc s2q $S/data/lua_calls_t10.20k.txt \
    --out-w $w --stall-in 0.5 --stall-out 0.5 --seed $seed)"
  seed=$((seed + 1))
  job "enc s2q w$w reset mid-stream + END/SYNC + bad input" "$(enc s2q \
    $S/data/zlib_deflate_t1.20k.txt --out-w $w $STALLS --reset-at 6000 $BAD --seed $seed)"
done

# ---- beyond the matrix: wide set (NT=31, FID_W=31, ND_F=8, ND_T=1, ND_V=5).
# Its 255-entry dictionary makes a simulated clock ~50 times slower, so
# these runs take the first 5000 records (they were 60% of this suite's time).
for set in wide swide s2wide lwide; do
  for t in $traces; do
    for w in 8 16 32 64; do
      for st in 0 0.3; do
        seed=$((seed + 1))
        job "enc $set w$w $t 5k records stall $st" "$(enc $set $S/data/$t.20k.txt \
          --records 5000 --out-w $w --stall-in $st --stall-out $st --seed $seed)"
      done
    done
  done
  job "enc $set w64 reset mid-stream + END/SYNC + bad input" "$(enc $set \
    $S/data/lua_calls_t1.20k.txt --out-w 64 $STALLS --reset-at 6000 $BAD --seed 77)"
done

# ---- seeded random traces (every delta range, TIME_EXT runs) on every set,
# incl. tiny (NT=2, FID_W=1, TYPE_W=3, VAL_W=1, ND=1), which no sample fits
for set in paper nd2 nd4 nt16 fid8 wide tiny stack snt16 sfid8 swide stiny \
           s2 s2nt16 s2fid8 s2wide s2tiny s2f s2q s2fe s2tinyfe lpaper lnd2 lnd4 lnt16 lfid8 \
           lwide ltiny; do
  n=20000; case $set in wide|swide|s2wide|lwide) n=5000;; esac   # see above
  for w in 8 16 32 64; do
    for st in 0 0.3; do
      seed=$((seed + 1))
      job "enc $set w$w random trace ($n) seed $seed stall $st" "$(enc $set random:$n \
        --out-w $w --stall-in $st --stall-out $st --sync-every 3001 --junk \
        --reserved 777 --seed $seed)"
    done
  done
done

# ---- long gaps: deltas that need more than 64 TIME_EXTs take the long-gap
# form (TIME_EXT values j, M << j ticks each), coded by the RTL as given
awk 'BEGIN { split("1 5 9223372036854775808 1099511627776 536870911 999999999999 " \
               "18446744073709551615 7 562949953421312", g, " ");
             for (i = 0; i < 300; i++) {
               d = (i % 7 == 3) ? g[1 + int(i / 7) % 9] : i % 50;
               printf "%s %s %d\n", d, (i % 2 ? "X" : "E"), i % 13 } }' > $W/gaps.txt
for set in paper nt16 stack snt16; do
  for w in 8 64; do
    seed=$((seed + 1))
    job "enc $set w$w long gaps (long-gap TIME_EXT)" "$(enc $set $W/gaps.txt --out-w $w \
      $STALLS --seed $seed)"
  done
done

# ---- full traces: paper params, OUT_W = 64, no stalls: one record per clock.
# Stack mode: a record longer than 57 bits (a miss with an escaped delta,
# rare on these traces) takes a second clock.
for t in $traces; do
  job "+enc paper w64 $t full, records/cycle >= 0.9999" \
    "$(enc paper tests/data/$t.txt.xz --out-w 64 --min-rate 0.9999)"
  job "+enc stack w64 $t full, records/cycle >= 0.999" \
    "$(enc stack tests/data/$t.txt.xz --out-w 64 --min-rate 0.999)"
  job "+enc s2 w64 $t full, records/cycle >= 0.999" \
    "$(enc s2 tests/data/$t.txt.xz --out-w 64 --min-rate 0.999)"
done
# Stack mode 2 with fresh entries, as the host tools write it: one record
# per clock on whole function traces (the rate counts the pipeline's
# clocks of fill and drain too: 19 in zlib_deflate_t1's 361219 records),
# and with a time quantum on the whole 2-CPU capture, where no record is
# longer than a piece (18 clocks of fill and drain in 164433 records:
# 0.99989)
for t in lua_calls_t1 zlib_deflate_t1; do
  job "+enc s2fe w64 $t full, records/cycle >= 0.9999" \
    "$(enc s2fe tests/data/$t.txt.xz --out-w 64 --min-rate 0.9999)"
done
job "+enc s2q w64 os/os_tools_t10 full, records/cycle >= 0.9998" \
  "$(enc s2q tests/data/os/os_tools_t10.txt.xz --out-w 64 --min-rate 0.9998)"
job "+enc paper w8 zlib_deflate_t1 full stall 0.1" "$(enc paper \
  tests/data/zlib_deflate_t1.txt.xz --out-w 8 --stall-in 0.1 --stall-out 0.1 --seed 99)"
# The lean encoder: a record over about 3 clocks (chunks of at most 8 bits a
# clock); the rate is a clock count, not a wall-clock time. Each floor is
# just under the rate measured on that trace (docs/rtl.md, "The lean encoder").
for tr in lua_calls_t1:0.28 lua_calls_t10:0.40 lua_errors_t1:0.25 lua_errors_t10:0.34 \
          zlib_deflate_t1:0.33 zlib_deflate_t10:0.44; do
  t=${tr%:*}
  job "+enc lpaper w8 $t full, records/cycle >= ${tr#*:}" \
    "$(enc lpaper tests/data/$t.txt.xz --out-w 8 --min-rate ${tr#*:})"
done
# --progress: lines on stderr, the last at 100%, the result unchanged
job "+enc paper w64 lua_calls_t10 full --progress" "$(enc paper \
  tests/data/lua_calls_t10.txt.xz --out-w 64 --progress) 2>$W/progress.log && \
  grep -q '^harness: 100.0% (1000001 of 1000001 raw records in), [0-9]* cycles, [0-9]* cycles/s' $W/progress.log"

# ---- trc_core: random events, overflow bursts, idle gaps > 2^NT ticks
for s in 1 2 3 4 5 6 7 8; do
  job "+core nt12 random events seed $s" "$S/core_nt12/Vtrc_sim_core --seed $s --idles 6"
done
job "+core paper random events, idle gap > 2^23 ticks" \
  "$S/core_paper/Vtrc_sim_core --seed 11 --idles 1 --events 5000"
# the lean trc_core (LEAN=1, one register for a FIFO, 24-bit tick and 17-bit
# drop counters)
for s in 1 2 3 4; do
  job "+core lean random events seed $s" "$S/core_lean/Vtrc_sim_core --seed $s --idles 2"
done

# ---- Icarus directed test (second simulator), vectors from the C model
I=$W/icarus
mkdir -p $I
if $S/trc_vec $S/data/zlib_deflate_t1.20k.txt 600 $I > $I/vec.log 2>&1; then
  ENC_V="-I $(python3 tools/corefiles.py --incdirs rtl) $(python3 tools/corefiles.py rtl | tr '\n' ' ')"
  for lean in 0 1; do
    for w in 8 16 32 64; do
      tb=$I/tb$w.l$lean
      job "+icarus directed w$w$( [ $lean = 1 ] && echo ' lean')" "iverilog -g2012 -DTRC_ASSERT \
        -P trc_tb_directed.OUT_W=$w -P trc_tb_directed.LEAN=$lean \
        -P 'trc_tb_directed.VEC=\"$I\"' -s trc_tb_directed \
        -o $tb.vvp $(python3 tools/corefiles.py tb_directed) $ENC_V && vvp -n $tb.vvp > $tb.log 2>&1; \
        cat $tb.log; grep -q '^PASS' $tb.log && ! grep -q 'ERROR' $tb.log"
    done
  done
else
  echo "not ok icarus vectors"; sed 's/^/  /' $I/vec.log
fi

# ---- latency (docs/rtl.md "Latency"): one END after reset, Icarus
for m in "0 10" "1 14" "2 14"; do
  set -- $m
  job "+icarus latency mode $1 k+$2" "iverilog -g2012 -P trc_tb_latency.MODE=$1 \
    -s trc_tb_latency -o $I/lat$1.vvp $(python3 tools/corefiles.py tb_latency) \
    -I $(python3 tools/corefiles.py --incdirs rtl) $(python3 tools/corefiles.py rtl | tr '\n' ' ') \
    && vvp -n $I/lat$1.vvp | tee $I/lat$1.log && grep -qx 'latency MODE $1: k+$2' $I/lat$1.log"
done

run_jobs "$jobs" "RTL simulations"
exit 0
