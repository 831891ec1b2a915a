#!/usr/bin/env bash
# RTL lint suite: verilator --lint-only -Wall on every top over the parameter
# sets and output widths, an Icarus -g2005 compile, a Yosys elaboration (prep) +
# check -assert (synthesis itself: t_fpga_quick.sh), the elaboration-time parameter
# checks (a bad OUT_W must stop all three), and trc.core through FuseSoC.
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
. "$(dirname "$0")/lib.sh"
suite_init rtl-lint
# trc.core's file sets; each tool gets the include folder of trc_format.vh
RTL=$(python3 tools/corefiles.py rtl | tr '\n' ' ')
VLT=$(python3 tools/corefiles.py waivers)
INC=$(python3 tools/corefiles.py --incdirs rtl)
V_V="-I$INC $RTL"        # Verilator
I_V="-I $INC $RTL"       # Icarus
Y_V="-defer -I$INC $RTL" # Yosys read_verilog (-defer: only the top asked for is elaborated)

declare -A SETS=(
  [paper]="" [nd2]="-GND_F=2 -GND_T=2 -GND_V=2" [nd4]="-GND_F=4 -GND_T=4 -GND_V=4"
  [nt16]="-GNT=16" [fid8]="-GFID_W=8"
  [wide]="-GNT=32 -GTYPE_W=16 -GVAL_W=32 -GND_V=8"
  [tiny]="-GNT=2 -GFID_W=1 -GTYPE_W=3 -GVAL_W=1 -GND_F=1 -GND_T=1 -GND_V=1"
  [stack]="-GMODE=1"
  [swide]="-GMODE=1 -GNT=32 -GFID_W=31 -GTYPE_W=16 -GVAL_W=32 -GND_F=8 -GND_V=8 -GSK=12 -GSD=64"
  [stiny]="-GMODE=1 -GNT=2 -GFID_W=1 -GTYPE_W=3 -GVAL_W=1 -GND_F=1 -GND_T=1 -GND_V=1 -GSK=4 -GSD=1"
  [s2]="-GMODE=2 -GSK=12 -GND_F=4 -GND_V=4"
  [s2wide]="-GMODE=2 -GNT=32 -GFID_W=31 -GTYPE_W=16 -GVAL_W=32 -GND_F=8 -GND_V=8 -GSK=12 -GSD=64 -GSO=12"
  [s2tiny]="-GMODE=2 -GNT=2 -GFID_W=1 -GTYPE_W=3 -GVAL_W=1 -GND_F=1 -GND_T=1 -GND_V=1 -GSK=4 -GSD=1 -GSO=4"
  [s2q]="-GMODE=2 -GSK=12 -GND_F=4 -GND_V=4 -GTQ=100"
  [s2fe]="-GMODE=2 -GSK=12 -GND_F=4 -GND_V=4 -GTQ=100 -GFE=1"
  [s2wideq]="-GMODE=2 -GNT=32 -GFID_W=31 -GTYPE_W=16 -GVAL_W=32 -GND_F=8 -GND_V=8 -GSK=12 -GSD=64 -GSO=12 -GTQ=1000"
  [lpaper]="-GLEAN=1"
  [lwide]="-GLEAN=1 -GNT=31 -GFID_W=31 -GTYPE_W=8 -GVAL_W=16 -GND_F=8 -GND_T=1 -GND_V=5"
  [ltiny]="-GLEAN=1 -GNT=2 -GFID_W=1 -GTYPE_W=3 -GVAL_W=1 -GND_F=1 -GND_T=1 -GND_V=1"
  [lwide32]="-GLEAN=1 -GNT=32 -GTYPE_W=16 -GVAL_W=32 -GND_V=8"
)
# Each mode's default set at every OUT_W; every other set at one OUT_W, taken
# in turn, so each width meets sets of every mode (the output width only
# changes the packer's and the lean output's generate branches).
# (two at a time: each is one Verilator process on one core)
: > "$W/jobs"
i=0
for s in paper nd2 nd4 nt16 fid8 wide tiny stack swide stiny s2 s2wide s2tiny \
         s2q s2wideq s2fe lpaper lwide ltiny lwide32; do
  case $s in
    paper|stack|s2|lpaper) widths="8 16 32 64" ;;
    *) widths=$(( 8 << (i % 4) )); i=$((i + 1)) ;;
  esac
  for w in $widths; do
    printf '%s|%s\n' "lint verilator trc_enc $s OUT_W=$w" "verilator --lint-only -Wall \
+define+TRC_ASSERT $VLT ${SETS[$s]} -GOUT_W=$w --top-module trc_enc $V_V" >> "$W/jobs"
  done
done
run_jobs "$W/jobs" "Verilator lints of trc_enc"
t "lint verilator trc_core paper" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_core $V_V
t "lint verilator trc_core NT=12 PRESCALE=3 OUT_W=8" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT -GNT=12 -GPRESCALE=3 \
  -GOUT_W=8 -GFIFO_AW=3 --top-module trc_core $V_V
t "lint verilator trc_core LEAN=1 FIFO_AW=0 DT_W=24 DROP_W=17 OUT_W=8" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT -GLEAN=1 -GFIFO_AW=0 -GDT_W=24 \
  -GDROP_W=17 -GOUT_W=8 --top-module trc_core $V_V
t "lint verilator trc_mpcore NCPU=4 (whole counts in trc_wholes)" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_mpcore -GNCPU=4 $V_V
t "lint verilator trc_mpcore NCPU=3 NT=10 FIFO_AW=2" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_mpcore -GNCPU=3 -GNT=10 \
  -GFIFO_AW=2 $V_V
t "lint verilator trc_mpcore NCPU=8 NT=32 VAL_W=32 TYPE_W=16 (wide counts)" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_mpcore -GNCPU=8 -GNT=32 \
  -GVAL_W=32 -GTYPE_W=16 -GDT_W=64 -GDROP_W=64 $V_V
t "lint verilator trc_mpcore NCPU=1 (whole counts in its time-stamper)" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_mpcore -GNCPU=1 $V_V
t "lint verilator trc_sim_enc" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_sim_enc \
  $(python3 tools/corefiles.py sim_enc | grep '\.v$') $V_V
t "lint iverilog -g2005 trc_enc" \
  iverilog -g2005 -Wall -s trc_enc -o "$W/enc.vvp" $I_V
t "lint iverilog -g2005 trc_enc MODE=1" \
  iverilog -g2005 -Wall -P trc_enc.MODE=1 -s trc_enc -o "$W/enc_s.vvp" $I_V
t "lint iverilog -g2005 trc_enc MODE=2" \
  iverilog -g2005 -Wall -P trc_enc.MODE=2 -s trc_enc -o "$W/enc_s2.vvp" $I_V
t "lint iverilog -g2005 trc_enc MODE=2 TQ=100" \
  iverilog -g2005 -Wall -P trc_enc.MODE=2 -P trc_enc.TQ=100 -s trc_enc -o "$W/enc_s2q.vvp" $I_V
t "lint iverilog -g2005 trc_enc MODE=2 FE=1" \
  iverilog -g2005 -Wall -P trc_enc.MODE=2 -P trc_enc.FE=1 -s trc_enc -o "$W/enc_s2fe.vvp" $I_V
t "lint iverilog -g2005 trc_core" \
  iverilog -g2005 -Wall -s trc_core -o "$W/core.vvp" $I_V
t "lint iverilog -g2005 trc_core LEAN=1 FIFO_AW=0 DROP_W=17" \
  iverilog -g2005 -Wall -P trc_core.LEAN=1 -P trc_core.FIFO_AW=0 -P trc_core.DROP_W=17 \
  -s trc_core -o "$W/corel.vvp" $I_V
t "lint yosys prep trc_enc" \
  yosys -q -p "read_verilog $Y_V; prep -top trc_enc; check -assert"
t "lint yosys prep trc_enc MODE=1" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 1 trc_enc; prep -top trc_enc; check -assert"
t "lint yosys prep trc_enc MODE=2" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 2 trc_enc; prep -top trc_enc; check -assert"
t "lint yosys prep trc_enc MODE=2 TQ=100" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 2 -set TQ 100 trc_enc; prep -top trc_enc; check -assert"
t "lint yosys prep trc_enc MODE=2 FE=1" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 2 -set FE 1 trc_enc; prep -top trc_enc; check -assert"
t "lint yosys prep trc_core" \
  yosys -q -p "read_verilog $Y_V; prep -top trc_core; check -assert"
t "lint yosys prep trc_enc LEAN=1 OUT_W=8" \
  yosys -q -p "read_verilog $Y_V; chparam -set LEAN 1 -set OUT_W 8 trc_enc; prep -top trc_enc; check -assert"

# Parameter checks stop every tool, with a message naming the parameter.
t "param check verilator trc_mpcore NCPU=8 NT=4 (2^NT - 1 < 2 NCPU)" stops_with "NT_VAL_W" \
  verilator --lint-only -Wno-fatal -GNCPU=8 -GNT=4 --top-module trc_mpcore $V_V
t "param check verilator OUT_W=12" stops_with "OUT_W" \
  verilator --lint-only -Wno-fatal -GOUT_W=12 --top-module trc_enc $V_V
t "param check iverilog OUT_W=12" stops_with "OUT_W" \
  iverilog -g2005 -P trc_enc.OUT_W=12 -s trc_enc -o "$W/bad.vvp" $I_V
t "param check yosys OUT_W=12" stops_with "OUT_W" \
  yosys -q -p "read_verilog $Y_V; chparam -set OUT_W 12 trc_enc; prep -top trc_enc"
t "param check verilator ND_F > FID_W" stops_with "ND" \
  verilator --lint-only -Wno-fatal -GFID_W=2 -GND_F=3 --top-module trc_enc $V_V
t "param check verilator MODE=3" stops_with "MODE" \
  verilator --lint-only -Wno-fatal -GMODE=3 --top-module trc_enc $V_V
t "param check verilator MODE=2 SO=3" stops_with "SO" \
  verilator --lint-only -Wno-fatal -GMODE=2 -GSO=3 --top-module trc_enc $V_V
t "param check verilator MODE=2 TQ=50" stops_with "TQ" \
  verilator --lint-only -Wno-fatal -GMODE=2 -GTQ=50 --top-module trc_enc $V_V
t "param check yosys MODE=1 TQ=100" stops_with "TQ" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 1 -set TQ 100 trc_enc; prep -top trc_enc"
t "param check verilator MODE=1 FE=1" stops_with "FE" \
  verilator --lint-only -Wno-fatal -GMODE=1 -GFE=1 --top-module trc_enc $V_V
t "param check verilator MODE=1 SK=13" stops_with "SK" \
  verilator --lint-only -Wno-fatal -GMODE=1 -GSK=13 --top-module trc_enc $V_V
t "param check yosys MODE=1 SD=0" stops_with "SD" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 1 -set SD 0 trc_enc; prep -top trc_enc"
t "param check yosys trc_core PRESCALE=0" stops_with "PRESCALE" \
  yosys -q -p "read_verilog $Y_V; chparam -set PRESCALE 0 trc_core; prep -top trc_core"
t "param check verilator LEAN=1 MODE=1" stops_with "LEAN" \
  verilator --lint-only -Wno-fatal -GLEAN=1 -GMODE=1 --top-module trc_enc $V_V
t "param check iverilog trc_core DROP_W=16 (= VAL_W)" stops_with "DROP_W" \
  iverilog -g2005 -P trc_core.DROP_W=16 -s trc_core -o "$W/bad2.vvp" $I_V

# Every HDL file of the tree is in trc.core, and FuseSoC itself can use it:
# its lint target (Verilator -Wall on trc_core) passes, and a bad parameter
# given through FuseSoC stops it. Its sim target compiles the C model with
# the harness as C++ (Verilator's build): the model's files must compile so.
t "trc.core lists every HDL file and the C model's (else: those it lacks)" python3 tools/corefiles.py --unlisted
model_cxx() {
  local f
  for f in $(python3 tools/corefiles.py model | grep '\.c$'); do
    g++ -fsyntax-only -x c++ -Wall -Imodel "$f" || return 1
  done
}
t "the C model of trc.core compiles as C++ (FuseSoC's sim target)" model_cxx
if command -v fusesoc > /dev/null; then
  t "fusesoc run --target lint ::trc" \
    fusesoc --cores-root . run --build-root "$W/fs" --target lint ::trc
  t "fusesoc run --target lint ::trc --OUT_W 12 stops" stops_with "OUT_W" \
    fusesoc --cores-root . run --build-root "$W/fs_bad" --target lint ::trc --OUT_W 12
else
  echo "not ok fusesoc: not installed (tools/install-deps.sh installs it)"
fi
exit 0
