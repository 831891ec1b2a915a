#!/usr/bin/env bash
# The dual-clock front end (rtl/trc_afifo.v, trc_evcdc.v, trc_core_dc.v):
# lint (Verilator -Wall, Icarus, Yosys), its parameter checks, the
# structural CDC check (tools/cdc_check.py), and the Verilator harness
# (sim/trc_sim_cdc.cpp, builds by sim/cdc.mk) at CPU:trc clock ratios 1:3,
# 3:1 and 1:1 from random phases with jitter: overload runs (drops at the
# crossing and in trc_core, LOST records, resets), runs within capacity that
# must lose nothing at all, runs where the latency must be exactly the
# documented one, and one that must re-present dropped LOST records.
# One "ok"/"not ok" line per check.
. "$(dirname "$0")/lib.sh"; suite_init cdc
RTL=$(python3 tools/corefiles.py rtl | tr '\n' ' ')
INC=$(python3 tools/corefiles.py --incdirs rtl)
VLT=$(python3 tools/corefiles.py waivers)

t lint_verilator_trc_core_dc verilator --lint-only -Wall +define+TRC_ASSERT $VLT \
  --top-module trc_core_dc -I$INC $RTL
t lint_verilator_trc_core_dc_small verilator --lint-only -Wall +define+TRC_ASSERT $VLT \
  --top-module trc_core_dc -GNT=12 -GVAL_W=8 -GOUT_W=8 -GFIFO_AW=2 -GCDC_AW=1 \
  -GCDC_SYNC=3 -I$INC $RTL
t lint_verilator_trc_afifo verilator --lint-only -Wall +define+TRC_ASSERT $VLT \
  --top-module trc_afifo -GW=5 -GAW=1 -GSYNC_N=4 -I$INC $RTL
t lint_iverilog_trc_core_dc iverilog -g2005 -Wall -s trc_core_dc -o "$W/dc.vvp" -I $INC $RTL
# (Yosys on trc_evcdc: trc_core itself is t_rtl_lint's, and several minutes)
t lint_yosys_trc_evcdc yosys -q -p "read_verilog -defer -I$INC $RTL; hierarchy -top trc_evcdc; synth -top trc_evcdc; check -assert"
expect_fail param_check_verilator_CDC_SYNC=1 "CDC_SYNC" \
  verilator --lint-only -Wno-fatal -GCDC_SYNC=1 --top-module trc_core_dc -I$INC $RTL
expect_fail param_check_yosys_AW=0 "AW must be" \
  yosys -q -p "read_verilog -defer -I$INC $RTL; chparam -set AW 0 trc_afifo; hierarchy -top trc_afifo; synth -top trc_afifo"
# (trc_evcdc holds every crossing of trc_core_dc; trc_core is on one clock)
t cdc_check_trc_evcdc python3 tools/cdc_check.py trc_evcdc
expect_fail cdc_check_finds_logic_before_a_synchronizer "logic between" \
  python3 tools/cdc_check.py trc_cdc_bad
expect_fail cdc_check_finds_a_missing_synchronizer "without a synchronizer" \
  python3 tools/cdc_check.py trc_cdc_bad

S=build/sim
J=$W/jobs
: > "$J"
for set in paper small; do
  for ratio in 1:3 3:1 1:1; do
    echo "+cdc_${set}_${ratio}_overload|$S/cdc_$set/Vtrc_core_dc --ratio $ratio --events 100000 --seed 1" >> "$J"
    echo "+cdc_${set}_${ratio}_resets|$S/cdc_$set/Vtrc_core_dc --ratio $ratio --events 50000 --seed 2 --resets 8" >> "$J"
  done
  echo "+cdc_${set}_1:3_exact_latency|$S/cdc_$set/Vtrc_core_dc --ratio 1:3 --events 50000 --seed 3 --exact-latency" >> "$J"
done
for ratio in 1:3 3:1 1:1; do
  echo "+cdc_paper_${ratio}_no_loss|$S/cdc_paper/Vtrc_core_dc --ratio $ratio --events 100000 --seed 4 --no-loss" >> "$J"
done
# odd ratios and no jitter (edges in a fixed pattern) too
echo "+cdc_paper_7:5_no_loss|$S/cdc_paper/Vtrc_core_dc --ratio 7:5 --events 50000 --seed 5 --no-loss" >> "$J"
echo "+cdc_paper_1:1_no_jitter|$S/cdc_paper/Vtrc_core_dc --ratio 1:1 --jitter 0 --events 50000 --seed 6" >> "$J"
echo "+cdc_small_3:1_lost_redo|$S/cdc_small/Vtrc_core_dc --ratio 3:1 --events 50000 --seed 7 --min-redo 100" >> "$J"
run_jobs "$J" "cdc harness runs"
