#!/usr/bin/env bash
# Quick FPGA check (`make fpga` is the slow full run): synthesis only
# (Yosys synth_ice40, check -assert) of trc_enc at paper parameters (OUT_W=64),
# in both modes, and of the LZ4 baseline (4 KB window), with their cell
# counts; lint of the
# LZ4 core (verilator -Wall per parameter set, iverilog -g2005) and of the
# pin wrappers; a bad LZ4 parameter stops Verilator, Yosys and Icarus.
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
cd "$(dirname "$0")/.."
Q=build/fpga/quick
mkdir -p $Q
check() { if "$@" > $Q/last.log 2>&1; then echo "ok $name"; else echo "not ok $name"; tail -5 $Q/last.log; fi; }
field() { python3 -c "import json,sys; d=json.load(open('$1')); print(d.get('$2', ''))"; }

for d in trc_enc_w64 trc_stack_w64 lz4_w12; do
  name="synth_ice40 $d (core alone, check -assert)"
  check python3 fpga/flow.py synth $d ice40 $Q/$d.json
  [ -f $Q/$d.json ] && echo "$d: LUT4 $(field $Q/$d.json lut4) FF $(field $Q/$d.json ff)" \
    "carry $(field $Q/$d.json carry) BRAM $(field $Q/$d.json bram) ($(field $Q/$d.json seconds) s)"
done
name="trc_enc maps to logic only (0 block RAM)"
check test "$(field $Q/trc_enc_w64.json bram)" = 0
# the call stack's 14 entries below top and second (id and its 9-bit hash
# part, 24 bits): LUT RAM elsewhere; on iCE40 Yosys folds its registered
# read address into block RAM, two 16-bit-wide ones
name="stack mode: the 512 x 36 context table in 5 SB_RAM40_4K, the call stack in 2"
check test "$(field $Q/trc_stack_w64.json bram)" = 7
name="LZ4 4 KB: 25 SB_RAM40_4K (table 12, history 8, literal FIFO 1, output FIFO 4)"
check test "$(field $Q/lz4_w12.json bram)" = 25

L=$(python3 tools/corefiles.py lz4 | tr '\n' ' ')
for p in "WIN_BITS=12" "WIN_BITS=16" "WIN_BITS=10 -GOUT_AW=8 -GLIT_AW=7"; do
  name="verilator -Wall lint trc_lz4_core -G$p"
  check verilator --lint-only -Wall -Irtl/lz4 -G$p rtl/lz4/trc_lz4_core.v --top-module trc_lz4_core
done
name="iverilog -g2005 trc_lz4_core"
check iverilog -g2005 -o $Q/lz4.vvp -s trc_lz4_core $L
for w in lz4 enc core; do
  name="verilator -Wall lint fpga/trc_fpga_$w.v"
  check verilator --lint-only -Wall -Irtl -Irtl/lz4 fpga/trc_fpga_$w.v --top-module trc_fpga_$w
done
name="verilator -Wall lint fpga/trc_fpga_enc.v in stack mode"
check verilator --lint-only -Wall -Irtl -GMODE=1 fpga/trc_fpga_enc.v --top-module trc_fpga_enc
name="bad parameter (WIN_BITS=9) stops verilator, yosys and iverilog"
check bash -c "! verilator --lint-only -Wall -GWIN_BITS=9 -Irtl/lz4 rtl/lz4/trc_lz4_core.v --top-module trc_lz4_core \
  && ! yosys -q -p 'read_verilog -sv $L; chparam -set WIN_BITS 9 trc_lz4_core; hierarchy -top trc_lz4_core' \
  && ! iverilog -g2005 -o $Q/bad.vvp -s trc_lz4_core -Ptrc_lz4_core.WIN_BITS=9 $L"
exit 0
