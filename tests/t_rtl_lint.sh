#!/usr/bin/env bash
# RTL lint suite: verilator --lint-only -Wall on every top over the parameter
# sets and output widths, an Icarus -g2005 compile, a Yosys synth + check, and
# the elaboration-time parameter checks (a bad OUT_W must stop all three).
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
cd "$(dirname "$0")/.."
mkdir -p build
T=$(mktemp -d build/rtl-lint.XXXXXX) # private: concurrent runs do not collide
trap 'rm -rf "$T"' EXIT
# trc.core's file sets; each tool gets the include folder of trc_format.vh
RTL=$(python3 tools/corefiles.py rtl | tr '\n' ' ')
VLT=$(python3 tools/corefiles.py waivers)
INC=$(python3 tools/corefiles.py --incdirs rtl)
V_V="-I$INC $RTL"        # Verilator
I_V="-I $INC $RTL"       # Icarus
Y_V="-I$INC $RTL"        # Yosys read_verilog

check() { # NAME LOG CMD...: ok when CMD succeeds; the log is shown otherwise
  local name=$1 log=$2; shift 2
  if "$@" > "$log" 2>&1; then echo "ok $name"; else echo "not ok $name"; sed 's/^/  /' "$log" | head -20; fi
}
expect_fail() { # NAME LOG PATTERN CMD...: ok when CMD fails and prints PATTERN
  local name=$1 log=$2 pat=$3; shift 3
  if "$@" > "$log" 2>&1; then echo "not ok $name (accepted)";
  elif grep -q -- "$pat" "$log"; then echo "ok $name";
  else echo "not ok $name (no message)"; sed 's/^/  /' "$log" | head -10; fi
}

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
)
for s in paper nd2 nd4 nt16 fid8 wide tiny stack swide stiny s2 s2wide s2tiny; do
  for w in 8 16 32 64; do
    check "lint verilator trc_enc $s OUT_W=$w" "$T/v_enc_${s}_$w.log" \
      verilator --lint-only -Wall +define+TRC_ASSERT $VLT ${SETS[$s]} -GOUT_W=$w \
      --top-module trc_enc $V_V
  done
done
check "lint verilator trc_core paper" "$T/v_core.log" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_core $V_V
check "lint verilator trc_core NT=12 PRESCALE=3 OUT_W=8" "$T/v_core12.log" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT -GNT=12 -GPRESCALE=3 \
  -GOUT_W=8 -GFIFO_AW=3 --top-module trc_core $V_V
check "lint verilator trc_sim_enc" "$T/v_sim.log" \
  verilator --lint-only -Wall +define+TRC_ASSERT $VLT --top-module trc_sim_enc \
  $(python3 tools/corefiles.py sim_enc | grep '\.v$') $V_V
check "lint iverilog -g2005 trc_enc" "$T/i_enc.log" \
  iverilog -g2005 -Wall -s trc_enc -o "$T/enc.vvp" $I_V
check "lint iverilog -g2005 trc_enc MODE=1" "$T/i_enc_s.log" \
  iverilog -g2005 -Wall -P trc_enc.MODE=1 -s trc_enc -o "$T/enc_s.vvp" $I_V
check "lint iverilog -g2005 trc_enc MODE=2" "$T/i_enc_s2.log" \
  iverilog -g2005 -Wall -P trc_enc.MODE=2 -s trc_enc -o "$T/enc_s2.vvp" $I_V
check "lint iverilog -g2005 trc_core" "$T/i_core.log" \
  iverilog -g2005 -Wall -s trc_core -o "$T/core.vvp" $I_V
check "lint yosys synth trc_enc" "$T/y_enc.log" \
  yosys -q -p "read_verilog $Y_V; synth -top trc_enc; check -assert"
check "lint yosys synth trc_enc MODE=1" "$T/y_enc_s.log" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 1 trc_enc; synth -top trc_enc; check -assert"
check "lint yosys synth trc_enc MODE=2" "$T/y_enc_s2.log" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 2 trc_enc; synth -top trc_enc; check -assert"
check "lint yosys synth trc_core" "$T/y_core.log" \
  yosys -q -p "read_verilog $Y_V; synth -top trc_core; check -assert"

# Parameter checks stop every tool, with a message naming the parameter.
expect_fail "param check verilator OUT_W=12" "$T/bad_v.log" "OUT_W" \
  verilator --lint-only -Wno-fatal -GOUT_W=12 --top-module trc_enc $V_V
expect_fail "param check iverilog OUT_W=12" "$T/bad_i.log" "OUT_W" \
  iverilog -g2005 -P trc_enc.OUT_W=12 -s trc_enc -o "$T/bad.vvp" $I_V
expect_fail "param check yosys OUT_W=12" "$T/bad_y.log" "OUT_W" \
  yosys -q -p "read_verilog $Y_V; chparam -set OUT_W 12 trc_enc; synth -top trc_enc"
expect_fail "param check verilator ND_F > FID_W" "$T/bad_v2.log" "ND" \
  verilator --lint-only -Wno-fatal -GFID_W=2 -GND_F=3 --top-module trc_enc $V_V
expect_fail "param check verilator MODE=3" "$T/bad_v3.log" "MODE" \
  verilator --lint-only -Wno-fatal -GMODE=3 --top-module trc_enc $V_V
expect_fail "param check verilator MODE=2 SO=3" "$T/bad_v5.log" "SO" \
  verilator --lint-only -Wno-fatal -GMODE=2 -GSO=3 --top-module trc_enc $V_V
expect_fail "param check verilator MODE=1 SK=13" "$T/bad_v4.log" "SK" \
  verilator --lint-only -Wno-fatal -GMODE=1 -GSK=13 --top-module trc_enc $V_V
expect_fail "param check yosys MODE=1 SD=0" "$T/bad_y3.log" "SD" \
  yosys -q -p "read_verilog $Y_V; chparam -set MODE 1 -set SD 0 trc_enc; synth -top trc_enc"
expect_fail "param check yosys trc_core PRESCALE=0" "$T/bad_y2.log" "PRESCALE" \
  yosys -q -p "read_verilog $Y_V; chparam -set PRESCALE 0 trc_core; synth -top trc_core"

# Every HDL file of the tree is in trc.core, and FuseSoC itself can use it:
# its lint target (Verilator -Wall on trc_core) passes, and a bad parameter
# given through FuseSoC stops it.
if u=$(python3 tools/corefiles.py --unlisted); then echo "ok trc.core lists every HDL file"
else echo "not ok trc.core lists every HDL file; missing:"; sed 's/^/  /' <<< "$u"; fi
if command -v fusesoc > /dev/null; then
  check "fusesoc run --target lint ::trc" "$T/fs.log" \
    fusesoc --cores-root . run --build-root "$T/fs" --target lint ::trc
  expect_fail "fusesoc run --target lint ::trc --OUT_W 12 stops" "$T/fs_bad.log" "OUT_W" \
    fusesoc --cores-root . run --build-root "$T/fs_bad" --target lint ::trc --OUT_W 12
else
  echo "not ok fusesoc: not installed (tools/install-deps.sh installs it)"
fi
exit 0
