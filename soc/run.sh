#!/usr/bin/env bash
# soc/run.sh SET WORKLOAD OUTDIR [STALL_OUT [SEED]]: one trc_soc run end to
# end (docs/soc.md). PicoRV32 runs the firmware under Verilator with the
# tracer of build SET (paper or stack); every trace byte is checked against
# the C model there; then the stream is decoded with `trc decompress` and
# soc/trace_check.py compares the decoded trace with the counts the firmware
# printed and checks the call tree's balance. Writes OUTDIR/{stream.bin,
# uart.log, sim.log, trace.txt, check.log}; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
set_=${1:?SET}; wl=${2:?WORKLOAD}; out=${3:?OUTDIR}; stall=${4:-0}; seed=${5:-1}
SIM=build/soc/sim_$set_/Vtrc_soc
FW=build/soc/fw
mkdir -p "$out"
mode=paper; [ "$set_" = stack ] && mode=stack
if ! $SIM $FW/fw.hex --workload "$wl" --out "$out/stream.bin" --uart "$out/uart.log" \
     --stall-out "$stall" --seed "$seed" > "$out/sim.log" 2>&1; then
  echo "soc/run.sh: $SIM failed ($out/sim.log):"; tail -3 "$out/sim.log"; exit 1
fi
# the bare stream of trc_core: parameters as the build's (paper widths, MODE)
build/trc decompress --raw --mode "$mode" "$out/stream.bin" "$out/trace.txt"
if ! python3 soc/trace_check.py "$out/trace.txt" $FW/fw.sym "$out/uart.log" \
     > "$out/check.log" 2>&1; then
  echo "soc/run.sh: trace check failed ($out/check.log):"; grep -v '^ok' "$out/check.log" | head -5
  exit 1
fi
grep -E '^(clocks|events/clock)' "$out/sim.log"
tail -1 "$out/check.log"
