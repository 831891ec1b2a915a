#!/usr/bin/env bash
# RTL reliability suite: frames (SYNC_EVERY) bit-exact with the C
# model, resets in mid-frame, overflow storms and mid-stream resets of
# trc_core with exact LOST accounting and frames that decode alone, a short
# soak (1 M records through the streaming harness), the short formal run, and
# an RTL assertion made to fire by a protocol violation; checked streams
# (CHECK = 1, docs/format.md 4.10): trc_wcrc's check words against the model
# at every OUT_W, and bit errors injected on the AXI-Stream output, all caught.
# `make soak` (100 M records) and `make formal` (deeper) are the long runs.
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
. "$(dirname "$0")/lib.sh"
suite_init rtl-rel
S=build/sim
JOBS=${TRC_JOBS:-2}

if ! make --no-print-directory -s sim-deps > $W/deps.log 2>&1; then
  echo "not ok rtl build (make sim-deps)"; sed 's/^/  /' $W/deps.log | tail -30; exit 0
fi

# Assertions are compiled into every Verilator build (--assert
# +define+TRC_ASSERT) and stop the harness: an input beat changed while it is
# held (an AXI-Stream violation, --violate) must make trc_skid's assertion
# fire, and the harness fail with the report.
violation_fires() {
  ! $S/enc_paper/Vtrc_sim_enc $S/data/lua_calls_t1.20k.txt --records 3000 --stall-out 0.5 \
      --violate 3 > $W/viol.log 2>&1 &&
  grep -q 'ASSERTION failed' $W/viol.log && grep -q 'changed while stalled' $W/viol.log
}
t "rtl assertion fires on an input beat changed while stalled" violation_fires
t "rtl the same run without the violation passes" $S/enc_paper/Vtrc_sim_enc \
  $S/data/lua_calls_t1.20k.txt --records 3000 --stall-out 0.5

# Lint with frames on (make lint covers SYNC_EVERY = 0)
RTL=$(python3 tools/corefiles.py rtl | tr '\n' ' ')
INC=$(python3 tools/corefiles.py --incdirs rtl)
lint_frames() { # SYNC_EVERY: Verilator -Wall, Icarus and Yosys (prep, check) on trc_core
  verilator --lint-only -Wall +define+TRC_ASSERT $(python3 tools/corefiles.py waivers) \
    -GSYNC_EVERY=$1 --top-module trc_core -I$INC $RTL &&
  iverilog -g2005 -Wall -P trc_core.SYNC_EVERY=$1 -s trc_core -o $W/c.vvp -I $INC $RTL &&
  yosys -q -p "read_verilog -defer -I$INC $RTL; chparam -set SYNC_EVERY $1 trc_core;
    prep -top trc_core; check -assert"
}
for se in 1 64 4096; do
  t "lint trc_core SYNC_EVERY=$se (verilator -Wall, iverilog, yosys prep)" lint_frames $se
done
t "param check SYNC_EVERY=-1 stops verilator" stops_with SYNC_EVERY \
  verilator --lint-only -Wno-fatal -GSYNC_EVERY=-1 --top-module trc_enc -I$INC $RTL

jobs=$W/jobs
: > "$jobs"
seed=5000

# ---- frames: SYNC after every 64 trace records (paperf), every record (tinyf)
for t in lua_calls_t1 lua_errors_t10 zlib_deflate_t1; do
  for w in 8 64; do
    seed=$((seed + 1))
    job "+enc paperf w$w $t SYNC_EVERY=64 stall 0.2" \
      "$(enc paperf $S/data/$t.20k.txt --out-w $w $STALLS --seed $seed)"
  done
done
# a reset in mid-frame: the next record starts a new frame from the reset state
for w in 8 16 32 64; do
  for at in 6000 6037; do
    seed=$((seed + 1))
    job "+enc paperf w$w reset mid-frame at record $at + END/SYNC + bad input" \
      "$(enc paperf $S/data/lua_errors_t1.20k.txt --out-w $w $STALLS --reset-at $at $BAD \
        --seed $seed)"
  done
  seed=$((seed + 1))
  job "enc tinyf w$w SYNC_EVERY=1 random trace, reset mid-stream" "$(enc tinyf random:20000 \
    --out-w $w --stall-in 0.3 --stall-out 0.3 --sync-every 301 --junk --reserved 77 \
    --reset-at 7000 --seed $seed)"
done
# stack mode frames: the predictor table, stack and dictionaries reset at
# every SYNC, and after a mid-frame reset
for w in 8 64; do
  seed=$((seed + 1))
  job "+enc stackf w$w lua_errors_t1 SYNC_EVERY=64 stall 0.2" \
    "$(enc stackf $S/data/lua_errors_t1.20k.txt --out-w $w $STALLS --seed $seed)"
  seed=$((seed + 1))
  job "+enc stackf w$w reset mid-frame + END/SYNC + bad input" \
    "$(enc stackf $S/data/lua_calls_t1.20k.txt --out-w $w $STALLS --reset-at 6037 $BAD \
      --seed $seed)"
done
# the lean encoder's frames, and a reset in mid-frame
for w in 8 64; do
  seed=$((seed + 1))
  job "+enc lpaperf w$w lua_errors_t10 SYNC_EVERY=64 stall 0.2" \
    "$(enc lpaperf $S/data/lua_errors_t10.20k.txt --out-w $w $STALLS --seed $seed)"
  seed=$((seed + 1))
  job "+enc lpaperf w$w reset mid-frame + END/SYNC + bad input" \
    "$(enc lpaperf $S/data/lua_errors_t1.20k.txt --out-w $w $STALLS --reset-at 6037 $BAD \
      --seed $seed)"
  seed=$((seed + 1))
  job "enc ltinyf w$w SYNC_EVERY=1 random trace, reset mid-stream" "$(enc ltinyf random:20000 \
    --out-w $w --stall-in 0.3 --stall-out 0.3 --sync-every 301 --junk --reserved 77 \
    --reset-at 7000 --seed $seed)"
done
# stack mode 2 frames: both tables, the stack, pk, nc, the phase and the
# dictionaries reset at every SYNC
for w in 8 64; do
  seed=$((seed + 1))
  job "+enc s2f w$w lua_errors_t1 SYNC_EVERY=64 stall 0.2" \
    "$(enc s2f $S/data/lua_errors_t1.20k.txt --out-w $w $STALLS --seed $seed)"
  seed=$((seed + 1))
  job "+enc s2f w$w os/sched_s1_t10 reset mid-frame + END/SYNC + bad input" \
    "$(enc s2f $S/data/os/sched_s1_t10.20k.txt --out-w $w $STALLS --reset-at 6037 $BAD \
      --seed $seed)"
done
job "+enc paperf w64 lua_calls_t1 full, SYNC_EVERY=64" \
  "$(enc paperf tests/data/lua_calls_t1.txt.xz --out-w 64 --min-rate 0.98)"

# ---- trc_core: overflow storms and mid-stream resets, exact LOST counts;
# nt12f: frames of 37 trace records, VAL_W = 8 (LOST counts split at 255)
for s in 1 2 3 4 5 6; do
  job "+core nt12f frames + storms + resets seed $s" \
    "$S/core_nt12f/Vtrc_sim_core --seed $s --events 60000 --idles 3 --storms 6 --resets 5"
done
for s in 1 2 3; do
  job "+core nt12 storms + resets seed $s" \
    "$S/core_nt12/Vtrc_sim_core --seed $((s + 20)) --events 60000 --idles 2 --storms 5 --resets 4"
done
job "+core paper storms + resets" \
  "$S/core_paper/Vtrc_sim_core --seed 31 --events 40000 --idles 1 --storms 4 --resets 3"
for s in 1 2; do
  job "+core lean storms + resets seed $s" \
    "$S/core_lean/Vtrc_sim_core --seed $((s + 40)) --events 40000 --idles 1 --storms 4 --resets 3"
  job "+core lnt12f frames + storms + resets seed $s" \
    "$S/core_lnt12f/Vtrc_sim_core --seed $((s + 50)) --events 60000 --idles 3 --storms 6 --resets 5"
done

# ---- short soak: 1 M records, streaming, byte-exact and decoded back
job "+soak 1M records (paper, SYNC_EVERY=4096, OUT_W 64, stalls 0.02)" \
  "$S/soak/Vtrc_sim_enc --records 1000000 --out-w 64 --stall-in 0.02 --stall-out 0.02 \
   --seed 7 $S/data/*.20k.txt"
job "+soak 200k records (OUT_W 8, stalls 0.3)" \
  "$S/soak/Vtrc_sim_enc --records 200000 --out-w 8 --stall-in 0.3 --stall-out 0.3 \
   --seed 8 $S/data/*.20k.txt"

# ---- checked streams (CHECK = 1): trc_enc + trc_wcrc against the model,
# check words included, at every OUT_W with and without stalls (cpaperf:
# paper, SYNC every 64; ctinyf: the smallest format, a SYNC each record;
# clpaperf: the lean encoder); END/SYNC on the input and a mid-stream reset;
# then seeded bit errors (single bits, bursts of 2..32) on the output bytes,
# each decoded by the model's checked decoder, which must catch all, and read
# as the tools read it (resuming after the damaged unit), which must give
# decoded + reported lost = the records emitted in every trial (the END's
# closing units tell the loss of a damaged last unit).
seed=900
for set in cpaperf ctinyf clpaperf; do
  tr=$S/data/lua_calls_t1.20k.txt
  [ $set = ctinyf ] && tr=random:3000
  for w in 8 16 32 64; do
    for st in 0 0.3; do
      seed=$((seed + 1))
      job "enc $set w$w stall $st: check words as the model's" "$S/enc_$set/Vtrc_sim_enc $tr \
        --records 4000 --out-w $w --stall-in $st --stall-out $st --seed $seed"
    done
  done
  seed=$((seed + 1))
  job "enc $set w64 checked, END/SYNC + reset mid-stream" "$S/enc_$set/Vtrc_sim_enc $tr \
    --records 4000 --out-w 64 --stall-in 0.2 --stall-out 0.2 --sync-every 97 \
    --end-every 301 --reset-at 1500 --seed $seed"
  for w in 8 64; do
    seed=$((seed + 1))
    job "+enc $set w$w bit errors on m_axis: every one caught, decoded + lost = emitted" "$S/enc_$set/Vtrc_sim_enc $tr \
      --records 1000 --out-w $w --stall-out 0.2 --end-every 333 --inject 4000 --seed $seed"
  done
done

run_jobs "$jobs" "reliability simulations"

# ---- formal, short: FIFO, skid, packer (OUT_W 8, 16) and dictionary
# properties proven (BMC + k-induction), the data integrity of the FIFO and
# skid and the packer's tracked bit bounded (packer BMC 5, dictionary BMC 7),
# all covers, the time-stamper's counts and, with two of them, trc_wholes'
# against ghost counts (make formal goes deeper and wider)
bash sim/formal/run.sh 20 6 10 5 7
exit 0
