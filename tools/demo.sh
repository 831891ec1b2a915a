#!/usr/bin/env bash
# make demo: the main job on a sample trace. Compresses a real trace with the
# C model, decompresses it, checks the round trip, prints the paper's Table 2
# figures, and (when the RTL harness is built) runs the same trace through the
# Verilog core in Verilator, checking it byte for byte against the model.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=demo/out
mkdir -p $OUT
T=${DEMO_TRACE:-tests/data/lua_calls_t10.txt.xz}
n=$(basename $T .txt.xz)
step() { printf '\n== %s\n' "$*"; }

step "1. unpack the sample trace $n (real Lua run, 10 ns ticks)"
xz -dc $T > $OUT/$n.txt
echo "$(grep -vc '^#' $OUT/$n.txt) records, $(stat -c %s $OUT/$n.txt) bytes of trace text v1"

step "2. compress with the C golden model (paper parameters)"
build/trc compress $OUT/$n.txt $OUT/$n.trc
echo "$OUT/$n.trc: $(stat -c %s $OUT/$n.trc) bytes"

step "3. decompress and compare with the canonical input"
build/trc decompress $OUT/$n.trc $OUT/$n.out.txt
grep -v '^#' $OUT/$n.txt | cmp - $OUT/$n.out.txt
echo "round trip exact"

step "4. statistics in the form of the paper's Table 2"
build/trc stats $OUT/$n.trc

if [ -x build/sim/trc_sim ]; then
  step "5. the same trace through the RTL encoder in Verilator, checked against the model"
  build/sim/trc_sim --trace $OUT/$n.txt
fi
