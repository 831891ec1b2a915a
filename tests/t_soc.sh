#!/usr/bin/env bash
# tests/t_soc.sh - PicoRV32 traced by trc_rvfi + trc_core (docs/soc.md):
# lint of the adapter and the system, the adapter's directed tests, and every
# firmware workload through the Verilator harness (every trace byte against
# the C model) and the independent check (the firmware's own counts equal the
# decoded trace's, the call tree balanced), with and without random output
# stalls, in paper and stack mode. Needs `make soc-deps`.
. "$(dirname "$0")/lib.sh"
suite_init soc
PICO=$(python3 -c 'import pythondata_cpu_picorv32 as p; print(p.data_location)')/picorv32.v
# trc.core's file sets; every tool gets rtl/ on its include path
RTL="-I$(python3 tools/corefiles.py --incdirs rtl) $(python3 tools/corefiles.py rtl | tr '\n' ' ')"
VL="verilator --lint-only -Wall --timescale 1ns/1ps +define+TRC_ASSERT \
  $(python3 tools/corefiles.py waivers soc_waivers | tr '\n' ' ')"
SOC_V="$(python3 tools/corefiles.py soc_sim soc | tr '\n' ' ') $RTL $PICO"

t "lint verilator trc_rvfi" $VL --top-module trc_rvfi $RTL
t "lint verilator trc_rvfi RVC=1 ID_SHIFT=1 SD_AW=1 QAW=1 TYPE_W=4 VAL_W=32 SP_W=32" \
  $VL -GRVC=1 -GID_SHIFT=1 -GSD_AW=1 -GQAW=1 -GTYPE_W=4 -GVAL_W=32 -GSP_W=32 \
  --top-module trc_rvfi $RTL
t "lint verilator trc_soc_cpu" $VL +define+RISCV_FORMAL --top-module trc_soc_cpu $SOC_V
t "lint verilator trc_soc_cpu TRACE=0" $VL +define+RISCV_FORMAL -GTRACE=0 \
  --top-module trc_soc_cpu $SOC_V
t "lint verilator trc_soc MODE=1" $VL +define+RISCV_FORMAL -GMODE=1 --top-module trc_soc $SOC_V
t "lint iverilog -g2005 trc_rvfi" iverilog -g2005 -Wall -s trc_rvfi -o "$W/rvfi.vvp" \
  ${RTL/-I/-I }
t "lint yosys prep trc_rvfi" yosys -q -p "read_verilog -defer $RTL; \
  prep -top trc_rvfi; check -assert"
stops() { # the parameter check stops Verilator and Yosys
  ! $VL -GSD_AW=9 --top-module trc_rvfi $RTL > "$W/p.log" 2>&1 &&
  grep -q "SD_AW must be" "$W/p.log" &&
  ! yosys -q -p "read_verilog -defer $RTL; chparam -set SD_AW 9 trc_rvfi; \
    prep -top trc_rvfi" > "$W/y.log" 2>&1 && grep -q "SD_AW must be" "$W/y.log"
}
t "trc_rvfi SD_AW=9 stops Verilator and Yosys" stops

# directed tests of the adapter: its own ok / not ok lines
build/soc/rvfi/Vtrc_rvfi | grep -E '^(ok|not ok)'

# workloads: 0 all, 1 recursion, 2 sort, 3 calculator with longjmp
J="$W/jobs"
: > "$J"
for w in 0 1 2 3; do
  echo "+workload $w paper|soc/run.sh paper $w $W/p$w" >> "$J"
  echo "workload $w paper, 50% output stalls|soc/run.sh paper $w $W/ps$w 0.5 $((w + 11))" >> "$J"
  echo "workload $w stack mode, 20% output stalls|soc/run.sh stack $w $W/s$w 0.2 $((w + 21))" >> "$J"
  echo "workload $w lean encoder, 20% output stalls|soc/run.sh lean $w $W/l$w 0.2 $((w + 31))" >> "$J"
done
run_jobs "$J" "trc_soc runs"

# the independent check can fail: one count changed, one exit dropped
neg() {
  sed 's/^count hanoi \([0-9]*\)/count hanoi 1\1/' "$W/p1/uart.log" > "$W/bad.uart"
  ! python3 soc/trace_check.py "$W/p1/trace.txt" build/soc/fw/fw.sym "$W/bad.uart" > "$W/n1" &&
  grep -q "not ok count hanoi" "$W/n1" &&
  awk '$2 == "X" && !d { d = 1; next } { print }' "$W/p1/trace.txt" > "$W/bad.txt" &&
  ! python3 soc/trace_check.py "$W/bad.txt" build/soc/fw/fw.sym "$W/p1/uart.log" > "$W/n2" &&
  grep -q "^not ok open at the end" "$W/n2"
}
t "trace_check rejects a wrong count and an unbalanced tree" neg
