#!/usr/bin/env bash
# soc/mp_run.sh NCPU OUTDIR [STALL_OUT [SEED]] [--show]: one trc_mpsoc run end
# to end (docs/soc.md, "Several CPUs"). NCPU PicoRV32s run the multi-CPU
# firmware under Verilator, traced into one stream by trc_mpcore; every
# stream byte is checked against the C model there. Then the stream is
# decoded with `trc decompress --raw --cpus NCPU`, each CPU's trace is
# checked against what that CPU's firmware counted (soc/trace_check.py), and
# soc/mp_check.py checks, from the decoded trace alone, that the shared lock
# was never held by two CPUs at once and that every marker is in every CPU's
# trace at one time. --show prints, after the checks, each CPU's call tree
# (`trc calltree --cpu K`) and the marker times. Writes OUTDIR/{stream.bin,
# uartK.log, sim.log, trace.txt, cpuK.txt, checkK.log, mp.log}; exits non-zero
# on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
show=0
args=()
for a in "$@"; do
  if [ "$a" = --show ]; then show=1; else args+=("$a"); fi
done
n=${args[0]:?NCPU}; out=${args[1]:?OUTDIR}; stall=${args[2]:-0}; seed=${args[3]:-1}
SIM=build/soc/mpsim_$n/Vtrc_mpsoc
FW=build/soc/fw
TRC=build/trc
mkdir -p "$out"
if ! $SIM $FW/mpfw.hex --out "$out/stream.bin" --uart "$out/uart" --stall-out "$stall" \
     --seed "$seed" > "$out/sim.log" 2>&1; then
  echo "soc/mp_run.sh: $SIM failed ($out/sim.log):"; tail -3 "$out/sim.log"; exit 1
fi
# the bare stream of trc_mpcore: the paper's widths, NCPU CPUs
$TRC decompress --raw --cpus "$n" "$out/stream.bin" "$out/trace.txt"
fail=0
for k in $(seq 0 $((n - 1))); do
  # CPU k's records alone: its deltas already count on its own time line
  sed -n "s/ @$k\$//p" "$out/trace.txt" > "$out/cpu$k.txt"
  if ! python3 soc/trace_check.py "$out/cpu$k.txt" $FW/mpfw.sym "$out/uart$k.log" \
       > "$out/check$k.log" 2>&1; then
    echo "soc/mp_run.sh: CPU $k's trace check failed ($out/check$k.log):"
    grep -v '^ok' "$out/check$k.log" | awk 'NR <= 5'
    fail=1
  fi
done
if ! python3 soc/mp_check.py "$out/trace.txt" "$out/uart" "$n" --markers > "$out/mp.log" 2>&1; then
  echo "soc/mp_run.sh: the lock or marker check failed ($out/mp.log):"
  grep -v '^ok\|^ *[0-9]\|^marker' "$out/mp.log" | awk 'NR <= 5'
  fail=1
fi
[ $fail = 0 ] || exit 1
grep -E '^cpus' "$out/sim.log"
for k in $(seq 0 $((n - 1))); do echo "CPU $k: $(tail -1 "$out/check$k.log")"; done
grep -E '^ok (lock|markers):' "$out/mp.log" | grep -v 'took it'
# (awk, not head, keeps the first lines: head would stop the writer with
# SIGPIPE, which pipefail reports as a failure)
if [ $show = 1 ]; then
  for k in $(seq 0 $((n - 1))); do
    echo "--- CPU $k: call tree (trc calltree --raw --cpus $n --cpu $k --syms mpfw.sym --depth 3)"
    $TRC calltree --raw --cpus "$n" --cpu "$k" --syms $FW/mpfw.sym --depth 3 "$out/stream.bin" \
      2> /dev/null | awk 'NR <= 20'
  done
  echo "--- markers: one per lock taken, at one time in every CPU's trace"
  sed -n '/^marker/,$p' "$out/mp.log" | awk 'NR <= 12'
  echo "    ... ($(grep -c '^ *[0-9]' "$out/mp.log") markers, all in $out/mp.log)"
fi
