#!/usr/bin/env bash
# Formal checks of trc_fifo and trc_skid with yosys + yosys-smtbmc + z3 (no
# SymbiYosys: not packaged here). Each property harness sim/formal/*_prop.v
# is read with `read_verilog -formal -DFORMAL`, written as SMT-LIB2, then:
#   - control properties: BMC to BMC_DEPTH steps from reset, and k-induction
#     (depth IND_DEPTH): together a proof for every depth;
#   - data integrity (-DTRACK: a tracked beat comes out unchanged, in its
#     place): BMC to TRACK_DEPTH steps only (not inductive as written).
# Then trc_packer and trc_dictm (read with -DTRC_ASSERT: their own checks
# are proven too), flattened and solved with --unroll (z3 4.8 stalls on
# their deep shared logic as uninterpreted functions):
#   - the packer's properties and the tracked stream bit (OUT_W 8 and 16):
#     BMC to PK_DEPTH;
#   - the dictionary (FLIP 0 and 1; one bank, two in LUT RAM and two in
#     registers) against the format's reference: BMC to DM_DEPTH;
#   - the cover statements of both (-DCOVER): each reached, within 14 steps
#     (yosys-smtbmc -c).
# Prints "ok NAME" / "not ok NAME" with the time each took.
# usage: sim/formal/run.sh [BMC_DEPTH [IND_DEPTH [TRACK_DEPTH [PK_DEPTH [DM_DEPTH]]]]]
set -u
cd "$(dirname "$0")/../.."
BMC=${1:-30}; IND=${2:-8}; TRK=${3:-14}; PKD=${4:-7}; DMD=${5:-9}
mkdir -p build
W=$(mktemp -d build/formal.XXXXXX)
trap 'rm -rf "$W"' EXIT
for t in yosys yosys-smtbmc z3; do
  command -v $t > /dev/null || { echo "not ok formal: $t not installed"; exit 0; }
done

# the module's file and its property harness, from trc.core's file sets
RTL=$(python3 tools/corefiles.py rtl)
PROP=$(python3 tools/corefiles.py formal)
INC=$(python3 tools/corefiles.py --incdirs rtl)
smt() { # MODULE DEFINES OUT [PASSES-AFTER-PREP [PASSES-BEFORE]]
  local files
  files=$(grep -E "/trc_$1(_prop)?\.v$" <<< "$RTL"$'\n'"$PROP" | tr '\n' ' ')
  yosys -q -p "read_verilog -formal -DFORMAL -I$INC $2 $files; ${5:-}
    prep -top trc_$1_prop; ${4:-} async2sync; dffunmap; write_smt2 -wires $3" > $3.log 2>&1
}
run() { # NAME SMT2 SMTBMC-ARGS...
  local name=$1 f=$2 s e; shift 2
  s=$(date +%s.%N)
  if timeout 900 yosys-smtbmc -s z3 "$@" "$f" > "$f.$$.out" 2>&1 &&
     tr '\r' '\n' < "$f.$$.out" | grep -aq 'Status: PASSED'; then
    e=$(date +%s.%N); printf 'ok %s (%.1f s)\n' "$name" "$(echo "$e - $s" | bc)"
  else
    echo "not ok $name"
    tr '\r' '\n' < "$f.$$.out" | grep -a 'failed\|Status\|Unreached' | sed 's/^/  /' | head -5
  fi
}
for m in fifo skid; do
  if ! smt $m "" $W/$m.smt2 || ! smt $m -DTRACK $W/${m}_trk.smt2; then
    echo "not ok formal trc_$m: yosys"; sed 's/^/  /' $W/$m.smt2.log $W/${m}_trk.smt2.log | head; continue
  fi
  run "formal trc_$m control properties: BMC depth $BMC" $W/$m.smt2 -t $BMC
  run "formal trc_$m control properties: k-induction depth $IND (with BMC: all depths)" \
    $W/$m.smt2 -i -t $IND
  run "formal trc_$m data integrity (tracked beat): BMC depth $TRK" $W/${m}_trk.smt2 -t $TRK
done

FL="memory_map; flatten; opt -fast;"
for w in 8 16; do
  P="chparam -set OUT_W $w trc_packer_prop;"
  if smt packer "-DTRC_ASSERT -DTRACK" $W/pk$w.smt2 "$FL" "$P" &&
     smt packer "-DTRC_ASSERT -DCOVER" $W/pk${w}_cov.smt2 "$FL" "$P"; then
    run "formal trc_packer stall, tkeep, fill, tracked bit, tlast (OUT_W $w): BMC depth $PKD" \
      $W/pk$w.smt2 --unroll -t $PKD
    run "formal trc_packer covers (OUT_W $w): all reached" $W/pk${w}_cov.smt2 --unroll -c -t 14
  else
    echo "not ok formal trc_packer OUT_W $w: yosys"; sed 's/^/  /' $W/pk$w.smt2.log | head
  fi
done
# two banks twice: as LUT RAM with stored-key flags, and as registers (the
# iCE40's form, TRC_ICE40)
for v in "1 " "2 " "2 -DTRC_ICE40"; do
nb=${v%% *}; dv=${v#* }; tag=$nb${dv:+ (registers)}
for fl in 0 1; do
  P="chparam -set FLIP $fl -set NB $nb trc_dictm_prop;"
  f=$W/dm$fl$nb${dv:+r}
  if smt dictm "-DTRC_ASSERT $dv" $f.smt2 "$FL" "$P" &&
     smt dictm "-DTRC_ASSERT -DCOVER $dv" ${f}_cov.smt2 "$FL" "$P"
  then
    run "formal trc_dictm FLIP=$fl NB=$tag lookups as format 4.4 (ND 2, W 4): BMC depth $DMD" \
      $f.smt2 --unroll -t $DMD
    run "formal trc_dictm FLIP=$fl NB=$tag covers: all reached" ${f}_cov.smt2 --unroll -c -t 14
  else
    echo "not ok formal trc_dictm FLIP=$fl NB=$tag: yosys"; sed 's/^/  /' $f.smt2.log | head
  fi
done
done
exit 0
