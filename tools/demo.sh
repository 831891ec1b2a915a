#!/usr/bin/env bash
# make demo: the main job end to end. Builds a small C workload of our own
# with -finstrument-functions, captures its function trace, compresses that
# trace through the Verilog core in Verilator (checked byte for byte against
# the C model), decompresses it, prints the paper's Table 2, compresses it
# again in stack mode (RTL and model), prints the top of the call tree, and
# writes demo/out/trace.json for ui.perfetto.dev; then traces PicoRV32's
# firmware in Verilator (docs/soc.md) and decodes it with the ELF's names.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=demo/out
mkdir -p $OUT
SIM=build/sim/enc_paper/Vtrc_sim_enc
SIM_STACK=build/sim/enc_stack/Vtrc_sim_enc
step() { printf '\n== %s\n' "$*"; }
t0=$(date +%s)

step "1. build: the workload (instrumented), the trc CLI, the RTL harness"
if ! make -q $SIM $SIM_STACK 2>/dev/null; then
  # Verilator compiles each harness for minutes, silently: say so first
  took=""
  [ -f reports/run_times.md ] &&
    took=$(awk -F'|' '$2 ~ /verilator-build/ {gsub(/ /, "", $5); print $5}' reports/run_times.md)
  echo "building the Verilator harnesses of trc_enc (paper and stack mode; logs in build/sim/enc_*/build.log)${took:+: one took $took s of CPU on the machine of reports/run_times.md}"
fi
make -s build/wl/wl build/trc $SIM $SIM_STACK
echo "built build/wl/wl (text statistics, sort, a recursive-descent calculator with longjmp)"

step "2. capture: run the workload with the capture library (10 ns ticks)"
TRC_CAPTURE_OUT=$OUT/wl.txt build/wl/wl -n 96 -e 1500
echo "$(grep -vc '^#' $OUT/wl.txt) records in $OUT/wl.txt, names in $OUT/wl.sym"

step "3. compress in the RTL: trc_enc (paper parameters, OUT_W = 64) in Verilator, every byte checked against the C model"
$SIM $OUT/wl.txt --out-w 64
echo "the RTL's output stream equals the C model's, byte for byte"

step "4. compress with the C model and decompress; the round trip must be exact"
build/trc compress $OUT/wl.txt $OUT/wl.trc
build/trc decompress $OUT/wl.trc $OUT/wl.out.txt
grep -v '^#' $OUT/wl.txt | cmp - $OUT/wl.out.txt
echo "$OUT/wl.trc: $(stat -c %s $OUT/wl.trc) bytes for $(stat -c %s $OUT/wl.txt) bytes of text; round trip exact"

step "5. statistics in the form of the paper's Table 2"
build/trc stats $OUT/wl.trc

step "6. stack mode (docs/stack-mode.md): the RTL with MODE = 1, checked against the model, then the model"
$SIM_STACK $OUT/wl.txt --out-w 64
build/trc compress --mode stack $OUT/wl.txt $OUT/wl.stack.trc
build/trc decompress $OUT/wl.stack.trc - | cmp - $OUT/wl.out.txt
build/trc stats $OUT/wl.stack.trc | grep -E "^stream|^stack mode"
echo "$OUT/wl.stack.trc: $(stat -c %s $OUT/wl.stack.trc) bytes, paper mode $(stat -c %s $OUT/wl.trc); round trip exact"

step "7. the call tree, name (self / total) in microseconds, three levels"
build/trc calltree $OUT/wl.trc --syms $OUT/wl.sym --unit us --depth 3
echo "-- the same, functions merged by module (seed paper 002, method 2):"
build/trc calltree $OUT/wl.trc --syms $OUT/wl.sym --unit us --depth 2 \
  --modules capture/workload/modules.map 2>/dev/null

step "8. export for Perfetto"
build/trc export $OUT/wl.trc --syms $OUT/wl.sym --perfetto $OUT/trace.json
echo "wrote $OUT/trace.json: open it in ui.perfetto.dev or chrome://tracing"

step "9. beside a real CPU (docs/soc.md): PicoRV32 runs its firmware in Verilator, traced by trc_rvfi + trc_core, every byte checked against the C model, the firmware's own call counts checked against the decoded trace"
make -q soc-deps 2>/dev/null ||
  echo "building the PicoRV32 system's firmware and its Verilator harness first (minutes)"
make -s soc-deps
soc/run.sh paper 0 $OUT/soc
echo "-- Table 2 of the PicoRV32 trace:"
build/trc stats --raw $OUT/soc/stream.bin
echo "-- its call tree, names from the firmware's ELF (build/soc/fw/fw.sym), clocks, with call counts:"
build/trc calltree $OUT/soc/trace.txt --syms build/soc/fw/fw.sym --calls --depth 2 \
  --min-fraction 0.01

step "10. two CPUs (docs/soc.md, \"Several CPUs\"): two PicoRV32s contend for a shared lock, traced into one stream by trc_mpcore; per-CPU call trees and the global markers, one per lock taken, at one time in both CPUs' traces"
make -s mpsoc-deps
soc/mp_run.sh 2 $OUT/mp --show
echo "-- per CPU figures of the stream:"
build/trc stats --raw --cpus 2 $OUT/mp/stream.bin | sed -n '/^cpus:/,$p'

printf '\ndemo done in %d s\n' $(( $(date +%s) - t0 ))
