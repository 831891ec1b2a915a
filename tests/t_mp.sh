#!/usr/bin/env bash
# tests/t_mp.sh - several CPUs into one stream (docs/format.md 4.9, docs/rtl.md
# "trc_mpcore", docs/soc.md "Several CPUs"): lint and parameter checks of
# trc_mpenc / trc_mpcore; the harness (every byte against the C model's
# multi-CPU encoder, every CPU's events and LOST counts exact, markers in
# every CPU at one time, controls, fairness and one record per clock under
# saturation) on 1, 2, 4, 5 and 8 CPUs with stalls, saturation, storms and
# SYNC records (each returns every CPU's dictionary banks to reset), and
# directed probes of the broadcast rule's "TIME_EXT falling due" term;
# the 2- and 4-CPU PicoRV32 systems end to end (lock never held twice,
# markers once per CPU at one time, each CPU's calls as its firmware
# counted); mp_check.py made to fail; and the host tools on traces of several
# CPUs. Needs `make sim-deps mpsoc-deps` (mp-sim-deps is part of sim-deps).
. "$(dirname "$0")/lib.sh"
suite_init mp
S=build/sim
RTL="-I$(python3 tools/corefiles.py --incdirs rtl) $(python3 tools/corefiles.py rtl | tr '\n' ' ')"
VL="verilator --lint-only -Wall +define+TRC_ASSERT $(python3 tools/corefiles.py waivers | tr '\n' ' ')"

# ---- lint and parameter checks
for p in "NCPU=1" "NCPU=2" "NCPU=3" "NCPU=4 BURST=1 FIFO_AW=1" "NCPU=8 STIM=0 START=0 MARK_WAIT=0" \
         "NCPU=5 NT=12 VAL_W=8 OUT_W=8 PRESCALE=3"; do
  t "lint verilator trc_mpcore $p" $VL $(printf -- '-G%s ' $p) --top-module trc_mpcore $RTL
done
t "lint verilator trc_mpenc NCPU=7 OUT_W=16" $VL -GNCPU=7 -GOUT_W=16 --top-module trc_mpenc $RTL
t "lint iverilog -g2005 trc_mpcore" iverilog -g2005 -Wall -P trc_mpcore.NCPU=3 -s trc_mpcore \
  -o "$W/mp.vvp" ${RTL/-I/-I }
t "lint yosys synth trc_mpcore NCPU=3" yosys -q -p "read_verilog -defer $RTL; \
  chparam -set NCPU 3 trc_mpcore; synth -top trc_mpcore; check -assert"
stops() { # $1 message, then -G settings: Verilator and Yosys stop with it
  local msg=$1; shift
  ! $VL $(printf -- '-G%s ' "$@") --top-module trc_mpcore $RTL > "$W/p.log" 2>&1 &&
  grep -q "$msg" "$W/p.log" &&
  ! yosys -q -p "read_verilog -defer $RTL; $(printf 'chparam -set %s trc_mpcore; ' "${@/=/ }") \
    synth -top trc_mpcore" > "$W/y.log" 2>&1 && grep -q "$msg" "$W/y.log"
}
t "param check NCPU=9 stops Verilator and Yosys" stops "NCPU must be 1..8" NCPU=9
t "param check NT=15 with 2 CPUs stops them" stops "NT + 1 not a power of two" NCPU=2 NT=15
t "param check MARK_TYPE reserved stops them" stops "two user OS types" MARK_TYPE=125
t "param check VAL_W without room for a control word stops them" stops \
  "hold a control word" NCPU=8 VAL_W=4 ND_V=3
t "param check DROP_W not above VAL_W stops them" stops "DROP_W must be VAL_W+1..64" DROP_W=16

# ---- the harness: bytes against the model, every CPU's events exact
J="$W/jobs"
: > "$J"
for s in 1 2 3; do
  echo "+mp2 traffic, 30% output stalls, markers and controls, seed $s|$S/mp_mp2/Vtrc_sim_mp --events 20000 --sats 0 --storms 0 --idles 0 --stall-out 0.3 --seed $s" >> "$J"
done
echo "+mp1 one CPU: the single-CPU stream, markers and controls|$S/mp_mp1/Vtrc_sim_mp --events 20000 --sats 1 --storms 1 --idles 0 --seed 4" >> "$J"
echo "+mp2 saturation and storms, one record per clock|$S/mp_mp2/Vtrc_sim_mp --events 20000 --idles 0 --min-rate 0.999 --seed 5" >> "$J"
for s in 6 7; do
  echo "+mp4 saturation and storms, one record per clock, seed $s|$S/mp_mp4/Vtrc_sim_mp --events 30000 --idles 0 --min-rate 0.999 --seed $s" >> "$J"
done
echo "+mp8 saturation and storms, one record per clock|$S/mp_mp8/Vtrc_sim_mp --events 40000 --idles 0 --min-rate 0.999 --seed 8" >> "$J"
for n in 2 4 8; do
  echo "+mp$n SYNCs on random ports: every bank back to reset, 30% output stalls|$S/mp_mp$n/Vtrc_sim_mp --events 15000 --sats 0 --storms 0 --idles 0 --syncs 150 --min-syncs 10 --stall-out 0.3 --seed 1$n" >> "$J"
done
for s in 9 10; do
  echo "+mp5n extra switch bits, LOST split, OUT_W 16, idle gaps, seed $s|$S/mp_mp5n/Vtrc_sim_mp --events 15000 --idles 2 --seed $s" >> "$J"
done
# NT = 10: a TIME_EXT falls due after 1023 ticks without a record, so
# markers and controls wait on one (docs/rtl.md: a broadcast is ready from the
# flags of the clock before, a TIME_EXT falling due included)
for s in 1 2; do
  echo "+mp3t NT 10: broadcasts beside TIME_EXTs falling due, storms, seed $s|$S/mp_mp3t/Vtrc_sim_mp --events 20000 --idles 2 --storms 4 --stall-out 0.5 --marks 200 --ctls 60 --seed 3$s" >> "$J"
done
# directed: probes that put a waiting broadcast's ready decision in the very
# clock a TIME_EXT falls due on its CPU (CPU 0's FIFO at one free entry
# behind a stalled output, a control word for CPU 0 alone at eight offsets
# around that clock); --min-due fails the run if no clock reaches the case
# (a build without the rule's due term writes the control record into a
# time-stamper with a TIME_EXT waiting, and the run fails)
for s in 1 2; do
  echo "+mp3t probes: a broadcast ready in the clock a TIME_EXT falls due, seed $s|$S/mp_mp3t/Vtrc_sim_mp --events 3000 --idles 0 --storms 1 --sats 0 --probes 8 --min-due 1 --seed 4$s" >> "$J"
done
# directed: whole probes for the shared whole-record counts (trc_wholes):
# a whole TIME_EXT (NT 10) or LOST (VAL_W 8) record written in the clock
# trc_wholes serves its CPU while the step up of the same count still waits
# there (the output made ready at sixteen offsets around the step); --min-both
# fails the run if no clock reaches it. Each run kills the builds that get
# that clock wrong (the count's "last one", or its write).
echo "+mp3t whole probes: a whole TIME_EXT written beside its waiting step|$S/mp_mp3t/Vtrc_sim_mp --events 3000 --idles 0 --storms 1 --sats 0 --wprobes 32 --min-both 1 --seed 51" >> "$J"
echo "+mp5n whole probes: a whole LOST written beside its waiting step|$S/mp_mp5n/Vtrc_sim_mp --events 3000 --idles 0 --storms 1 --sats 0 --wprobes 32 --min-both 1 --seed 62" >> "$J"
run_jobs "$J" "trc_mpcore harness runs"

# ---- the PicoRV32 systems
t "trc_mpsoc 2 CPUs: lock, markers, every CPU's calls" soc/mp_run.sh 2 "$W/s2"
t "trc_mpsoc 4 CPUs, 30% output stalls" soc/mp_run.sh 4 "$W/s4" 0.3 5
neg_lock() { # one CPU's first FREE a million ticks late: caught
  awk '!done && $2 == "O" && $3 == 5 { $1 += 1000000; done = 1 } { print }' \
    "$W/s2/trace.txt" > "$W/bad.txt"
  ! python3 soc/mp_check.py "$W/bad.txt" "$W/s2/uart" 2 > "$W/n1" && grep -q "at once" "$W/n1"
}
t "mp_check rejects two CPUs holding the lock at once" neg_lock
neg_mark() { # one marker dropped from CPU 1's trace
  awk '!d && $2 == "O" && $3 == 119 && $NF == "@1" { d = 1; next } { print }' \
    "$W/s2/trace.txt" > "$W/bad2.txt"
  ! python3 soc/mp_check.py "$W/bad2.txt" "$W/s2/uart" 2 > "$W/n2" &&
  grep -q "not ok markers" "$W/n2"
}
t "mp_check rejects a marker missing on one CPU" neg_mark

# ---- host tools on a trace of several CPUs
TRC=build/trc
cat > "$W/m.txt" <<'T'
0 E 1 @0
3 E 2 @2
4 X 2 @2
5 X 1 @0
7 O 3 9 @1
9 L 4 @1
2 E 5 @2
T
t "compress --cpus 3, decompress: the same text" sh -c \
  "$TRC compress --cpus 3 $W/m.txt $W/m.trc && $TRC decompress $W/m.trc - | cmp - $W/m.txt"
t "container version 3 with the CPU count" sh -c \
  "[ \"\$(od -An -tx1 -j4 -N1 $W/m.trc | tr -d ' ')\" = 03 ] && \
   [ \"\$(od -An -tx1 -j13 -N1 $W/m.trc | tr -d ' ')\" = 04 ]"
t "one CPU: version 2, no CPU column" sh -c \
  "sed 's/ @0//' $W/m.txt | head -1 > $W/one.txt && $TRC compress $W/one.txt $W/one.trc && \
   [ \"\$(od -An -tx1 -j4 -N1 $W/one.trc | tr -d ' ')\" = 02 ] && \
   $TRC decompress $W/one.trc - | cmp - $W/one.txt"
expect_fail "a record of CPU 2 without --cpus is an error naming the line" \
  "m.txt:2:7: CPU 2 is past the stream's 1: give --cpus 3" $TRC compress "$W/m.txt" "$W/x.trc"
expect_fail "--frame with several CPUs is refused" "not defined for several CPUs" \
  $TRC compress --cpus 3 --frame 4 "$W/m.txt" "$W/x.trc"
expect_fail "--cpus with stack mode is refused" "paper mode only" \
  $TRC compress --cpus 2 --mode stack "$W/m.txt" "$W/x.trc"
t "stats: per CPU records and switch codes" sh -c \
  "$TRC stats $W/m.trc --json | python3 -c 'import json,sys; d=json.load(sys.stdin); \
   assert d[\"cpus\"] == 3 and [c[\"trace\"] for c in d[\"per_cpu\"]] == [2,2,3], d; \
   assert d[\"switches\"][\"codes\"] == 4, d'"
t "calltree: one tree per CPU, --cpu picks" sh -c \
  "$TRC calltree $W/m.trc 2>/dev/null | grep -c '^# cpu' | grep -qx 2 && \
   $TRC calltree --cpu 2 $W/m.trc 2>/dev/null | tr '\n' ' ' | grep -qx '# cpu 2 f2 (4 / 4) f5 (0 / 0) '"
expect_fail "calltree --cpu past the trace's CPUs" "CPU 5, but the trace has 3" \
  $TRC calltree --cpu 5 "$W/m.trc"
t "perfetto: one process per CPU, each CPU's records on its track" sh -c \
  "$TRC export $W/m.trc --perfetto $W/m.json 2>/dev/null && python3 -c 'import json; \
   e=json.load(open(\"$W/m.json\"))[\"traceEvents\"]; \
   ev=[x for x in e if x[\"ph\"] != \"M\"]; assert len(ev) == 7, len(ev); \
   assert sorted({x[\"pid\"] for x in ev}) == [1,2,3]; \
   assert [x[\"ts\"] for x in ev if x[\"pid\"] == 3] == [0.03, 0.07, 0.09], ev'"
t "ctf: one stream per CPU with cpu_id, babeltrace2 reads them" sh -c \
  "$TRC export $W/m.trc --ctf $W/ctf 2>/dev/null && ls $W/ctf | tr '\n' ' ' | \
   grep -qx 'metadata stream_0 stream_1 stream_2 ' && \
   babeltrace2 $W/ctf | grep -c 'cpu_id = 2' | grep -qx 3"
