#!/usr/bin/env bash
# Stack mode 2 (docs/format.md 4.8) through the command line, on the sample
# traces and the OS-heavy traces of tests/data/os: round trips, the header,
# the accounting of its statistics, parameter options, frames, and its size
# beside paper mode, stack mode and gzip -9 (on trace bin v1, as reports/).
# Expected counts come from the input files (awk), not from trc.
set -u
. "$(dirname "$0")/lib.sh"
suite_init stack2
# at_most FILE LESS BYTES: FILE's size minus LESS is at most BYTES (> 0);
# smaller A B: file A is smaller than file B. A file that is missing or
# empty fails both, as does a BYTES of 0 (gzip of a missing file).
at_most() { [ -s "$1" ] && [ "$3" -gt 0 ] && [ $(( $(stat -c %s "$1") - $2 )) -le "$3" ]; }
smaller() { [ -s "$1" ] && [ -s "$2" ] && [ "$(stat -c %s "$1")" -lt "$(stat -c %s "$2")" ]; }

for x in tests/data/*_t*.txt.xz tests/data/os/*_t*.txt.xz; do
  n=$(basename $x .txt.xz)
  xz -dc $x > $W/$n.txt
  grep -v '^#' $W/$n.txt > $W/$n.canon
  awk '$2=="E"||$2=="X" {f++} $2=="O" {o++} $2=="L" {l++}
       { d=$1; if (d > 8388607) ext += int((d-1)/8388607) }
       END { printf "%d %d %d %d\n", f, o, l, ext }' $W/$n.canon > $W/$n.want
  t "stack2_round_trip_$n" bash -c "$TRC compress --mode stack2 $W/$n.txt $W/$n.s2.trc && $TRC decompress $W/$n.s2.trc - | cmp - $W/$n.canon"
  $TRC compress $W/$n.txt $W/$n.p.trc
  $TRC compress --mode stack $W/$n.txt $W/$n.s1.trc
  t "stack2_smaller_than_paper_$n" smaller $W/$n.s2.trc $W/$n.p.trc
  $TRC stats $W/$n.s2.trc --json > $W/$n.json
  t "stack2_stats_rules_$n" python3 - $W/$n.json $W/$n.want $W/$n.s2.trc <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
f, o, l, ext = map(int, open(sys.argv[2]).read().split())
r, fl, k = s["records"], s["fields"], s["stack"]
assert r["function"] == f and r["trace"] == f + o + l, r
assert r["os"] == o + l + ext + 1, r
# every function record: predicted, the exit of the top, or a dictionary code
assert k["predicted"] + k["top_exits"] + s["hits"]["function"][1] == f, (k, s["hits"])
# every OS record: predicted by the OS table, or a type and a value code
assert k["os_predicted"] + s["hits"]["type"][1] == r["os"], (k, s["hits"])
assert s["hits"]["type"][1] == s["hits"]["value"][1]
assert sum(k["delta"].values()) == f + o + l + ext + 1, k
coded = sum(fl[x]["coded"] for x in ("timestamp", "function", "type", "value"))
assert coded + fl["kind"]["coded"] + s["padding_bits"] == 8 * s["stream_bytes"]
hdr = open(sys.argv[3], "rb").read(16)
assert hdr[5] == 2 and hdr[14] == 12 | 9 << 4 and hdr[15] == 16, hdr
assert tuple(hdr[10:13]) == (4, 3, 4), hdr
assert s["stream_bytes"] == os.path.getsize(sys.argv[3]) - 16
PY
done

# Size: the sample traces (tests/data) at most gzip -9's size on trace bin v1,
# and below stack mode's; the figures themselves are in reports/stack.md.
for x in tests/data/*_t*.txt.xz; do
  n=$(basename $x .txt.xz)
  $TRC convert $W/$n.txt $W/$n.bin --to bin
  g=$(gzip -9 -c $W/$n.bin | wc -c)
  t "stack2_at_most_gzip9_$n" at_most $W/$n.s2.trc 16 "$g"
  t "stack2_smaller_than_stack_$n" smaller $W/$n.s2.trc $W/$n.s1.trc
done

n=lua_errors_t10
for opt in "--table-bits 4 --stack-depth 1" "--table-bits 9" "--nt 16 --dict-bits 2" "--fid-bits=10 --dict-bits 8,3,1"; do
  name=$(echo "$opt" | tr -c 'a-z0-9\n' '_')
  t "stack2_params_round_trip$name" bash -c "$TRC compress --mode stack2 $opt $W/$n.txt $W/p.trc && $TRC decompress $W/p.trc - | cmp - $W/$n.canon && $TRC decompress --raw --mode stack2 $opt <(tail -c +17 $W/p.trc) - | cmp - $W/$n.canon"
done
n=sched_s1_t10
t stack2_framed_round_trip bash -c "$TRC compress --mode stack2 --frame 997 $W/$n.txt $W/sf.trc && $TRC decompress $W/sf.trc - | cmp - $W/$n.canon && $TRC decompress --from-frame 3 $W/sf.trc - | tail -n +2 | cmp - <(tail -n +\$(( 3 * 997 + 2 )) $W/$n.canon)"
t stack2_raw_needs_mode bash -c "$TRC compress --raw --mode stack2 $W/$n.txt $W/r.bin && ! $TRC decompress --raw --mode stack $W/r.bin - 2>/dev/null | cmp -s - $W/$n.canon"
expect_fail stack2_unknown_mode "paper|stack|stack2" $TRC compress --mode stack3 $W/$n.txt $W/x.trc
t stack2_asan_round_trip bash -c "$ASAN compress --mode stack2 $W/lua_calls_t1.txt $W/a.trc && $ASAN decompress $W/a.trc - | cmp - $W/lua_calls_t1.canon && $ASAN stats $W/a.trc >/dev/null"

# The time quantum (docs/format.md 4.8). The ftrace imports at 10 ns ticks
# (every delta a multiple of 100): round trips, the header's k, and at most
# gzip -9's size on trace bin v1 (the issue's OS-only target). The quantum
# each trace allows is found with awk from the input, not by trc.
for n in os_tools_t10 os_tools_cpu0_t10; do
  q=$(awk '!/^#/ && NF && $1 % 100 { bad = 1 } END { print bad ? 1 : 100 }' $W/$n.canon)
  t "stack2_quantum_trace_is_quantized_$n" test "$q" = 100
  t "stack2_quantum_round_trip_$n" bash -c "$TRC compress --mode stack2 --quantum 100 $W/$n.txt $W/$n.q.trc && $TRC decompress $W/$n.q.trc - | cmp - $W/$n.canon"
  t "stack2_quantum_header_$n" test "$(od -An -tu1 -j13 -N1 $W/$n.q.trc | tr -d ' ')" = 130
  $TRC convert $W/$n.txt $W/$n.bin --to bin
  g=$(gzip -9 -c $W/$n.bin | wc -c)
  t "stack2_quantum_at_most_gzip9_$n" at_most $W/$n.q.trc 16 "$g"
  # without --quantum, compress from a file finds it (the header records it)
  t "stack2_quantum_by_default_$n" cmp $W/$n.s2.trc $W/$n.q.trc
  t "stack2_quantum_smaller_than_tq1_$n" bash -c "$TRC compress --mode stack2 --quantum 1 $W/$n.txt $W/$n.q1.trc && test \$(stat -c %s $W/$n.q.trc) -lt \$(stat -c %s $W/$n.q1.trc)"
done
# stdin, a pipe and a bare stream keep a quantum of 1 (a pipe cannot be read
# twice, a bare stream has no header to record it); stats of text finds it as
# compress does, and says which it is
n=os_tools_cpu0_t10
t stack2_quantum_default_pipe bash -c "$TRC compress --mode stack2 <(cat $W/$n.txt) $W/qp.trc && test \$(od -An -tu1 -j13 -N1 $W/qp.trc | tr -d ' ') = 2 && $TRC decompress $W/qp.trc - | cmp - $W/$n.canon && cmp $W/qp.trc $W/$n.q1.trc"
t stack2_quantum_default_raw bash -c "$TRC compress --raw --mode stack2 $W/$n.txt $W/qr.bin && $TRC decompress --raw --mode stack2 $W/qr.bin - | cmp - $W/$n.canon"
t stack2_quantum_stats_of_text bash -c "$TRC stats --mode stack2 --json $W/$n.txt > $W/st1.json && $TRC stats --json $W/$n.s2.trc > $W/st2.json && cmp $W/st1.json $W/st2.json"
t stack2_quantum_stats_format bash -c "$TRC stats $W/$n.s2.trc | grep -qx 'format: stack mode 2, NT 23, FID_W 15, TYPE_W 7, VAL_W 16, ND 4/3/4, SK 12, SD 16, SO 9, TQ 100, fresh entries' && $TRC stats $W/qp.trc | grep -q ', TQ 1, fresh entries\$'"
# import-ftrace into a .trc finds it as compress does from its text import
t stack2_quantum_import_ftrace bash -c "$TRC import-ftrace tests/data/os_tools.ftrace.xz $W/if.trc --mode stack2 2>/dev/null && $TRC import-ftrace tests/data/os_tools.ftrace.xz $W/if.txt 2>/dev/null && $TRC compress --mode stack2 $W/if.txt $W/ift.trc && cmp $W/if.trc $W/ift.trc && test \$(od -An -tu1 -j13 -N1 $W/if.trc | tr -d ' ') = 130"
# the figures of a checked stream add up as a plain one's (every unit's OS
# table predictions counted)
$TRC compress --mode stack2 --check --sync-every 1000 $W/$n.txt $W/qc.trc
t stack2_stats_rules_checked python3 - $W/qc.trc "$TRC" <<'PY'
import json, subprocess, sys
s = json.loads(subprocess.run([sys.argv[2], "stats", "--json", sys.argv[1]], check=True,
                              stdout=subprocess.PIPE).stdout)
k, r = s["stack"], s["records"]
assert s["check"]["units"] > 20, s["check"]
assert k["os_predicted"] > 0 and k["os_predicted"] + s["hits"]["type"][1] == r["os"], (k, s["hits"], r)
PY
# A quantum the trace does not have: every delta raw, still lossless; and
# the raw stream needs the same --quantum to decode.
n=sched_s1_t10
t stack2_quantum_raw_deltas_round_trip bash -c "$TRC compress --mode stack2 --quantum 1000 $W/$n.txt $W/q.trc && $TRC decompress $W/q.trc - | cmp - $W/$n.canon"
t stack2_quantum_raw_stream bash -c "$TRC compress --raw --mode stack2 --quantum 10 $W/lua_errors_t10.txt $W/q.bin && $TRC decompress --raw --mode stack2 --quantum 10 $W/q.bin - | cmp - $W/lua_errors_t10.canon"
expect_fail stack2_quantum_needs_stack2 "needs --mode stack2" $TRC compress --mode stack --quantum 100 $W/$n.txt $W/x.trc
expect_fail stack2_quantum_power_of_ten "'50' is not 1, 10, 100, 1000 or auto" $TRC compress --mode stack2 --quantum 50 $W/$n.txt $W/x.trc
# auto: the largest quantum dividing every delta, found by reading the file
t stack2_quantum_auto_quantized bash -c "$TRC compress --mode stack2 --quantum auto $W/os_tools_t10.txt $W/qa.trc && cmp $W/qa.trc $W/os_tools_t10.q.trc"
t stack2_quantum_auto_not_quantized bash -c "$TRC compress --mode stack2 --quantum auto $W/$n.txt $W/qa.trc && cmp $W/qa.trc $W/$n.s2.trc"
expect_fail stack2_quantum_auto_not_stdin "give a regular file, not stdin" $TRC compress --mode stack2 --quantum auto - $W/x.trc
# a pipe read once for the quantum would be empty the second time
t stack2_quantum_auto_not_pipe bash -c "! $TRC compress --mode stack2 --quantum auto <(cat $W/$n.txt) $W/xp.trc 2>$W/xp.err && grep -q 'reads the input twice' $W/xp.err && test ! -e $W/xp.trc"
expect_fail stack2_quantum_auto_compress_only "only compress" $TRC decompress --raw --mode stack2 --quantum auto $W/q.bin $W/x.txt
expect_fail stack2_quantum_nt_31 "NT \+ 1 is not a power of two" $TRC compress --mode stack2 --nt 31 --quantum 10 $W/$n.txt $W/x.trc
t stack2_quantum_asan_round_trip bash -c "$ASAN compress --mode stack2 --quantum 100 $W/os_tools_cpu0_t10.txt $W/aq.trc && $ASAN decompress $W/aq.trc - | cmp - $W/os_tools_cpu0_t10.canon && $ASAN stats $W/aq.trc >/dev/null"

# Fresh entries (docs/format.md 4.8, FE), on by default (--no-fresh: off):
# round trips through every path a user takes (container, framed, checked,
# bare stream with a quantum), the header's flag, the stats' format line,
# and the sizes they exist for: a short trace and a stream with a SYNC
# every 100 records come out smaller than stack mode 2 without them, and
# than paper mode. The ablation tool, written from the format text, gives
# the C model's size to the byte.
for n in lua_calls_t1 os_tools_cpu0_t10; do
  t "stack2_fresh_round_trip_$n" bash -c "$TRC compress --mode stack2 --fresh $W/$n.txt $W/$n.fe.trc && $TRC decompress $W/$n.fe.trc - | cmp - $W/$n.canon"
  t "stack2_fresh_framed_$n" bash -c "$TRC compress --mode stack2 --fresh --frame 500 $W/$n.txt $W/$n.fef.trc && $TRC decompress $W/$n.fef.trc - | cmp - $W/$n.canon"
  t "stack2_fresh_checked_$n" bash -c "$TRC compress --mode stack2 --fresh --check --sync-every 100 $W/$n.txt $W/$n.fec.trc && $TRC decompress $W/$n.fec.trc - | cmp - $W/$n.canon"
done
n=os_tools_cpu0_t10
t stack2_fresh_header bash -c "test \$(od -An -tu1 -j13 -N1 $W/$n.fe.trc | tr -d ' ') = 130"
t stack2_fresh_by_default cmp $W/$n.fe.trc $W/$n.s2.trc
t stack2_no_fresh_round_trip bash -c "$TRC compress --mode stack2 --no-fresh $W/$n.txt $W/$n.nf.trc && $TRC decompress $W/$n.nf.trc - | cmp - $W/$n.canon && test \$(od -An -tu1 -j13 -N1 $W/$n.nf.trc | tr -d ' ') = 128 && ! cmp -s $W/$n.nf.trc $W/$n.fe.trc"
t stack2_fresh_stats_format bash -c "$TRC stats $W/$n.fe.trc | grep -qx 'format: stack mode 2, NT 23, FID_W 15, TYPE_W 7, VAL_W 16, ND 4/3/4, SK 12, SD 16, SO 9, TQ 100, fresh entries'"
t stack2_fresh_raw_quantum bash -c "$TRC compress --raw --mode stack2 --fresh --quantum 100 $W/$n.txt $W/fe.bin && $TRC decompress --raw --mode stack2 --fresh --quantum 100 $W/fe.bin - | cmp - $W/$n.canon && ! $TRC decompress --raw --mode stack2 --no-fresh --quantum 100 $W/fe.bin - 2>/dev/null | cmp -s - $W/$n.canon"
# the core's bare stream with SYNCs, framed afterwards (trc frame) with FE
t stack2_fresh_frame_of_bare_stream bash -c "$TRC compress --raw --mode stack2 --fresh --sync-every 500 $W/$n.txt $W/feb.bin && $TRC frame --mode stack2 --fresh $W/feb.bin $W/feb.trc && $TRC decompress $W/feb.trc - | cmp - $W/$n.canon && test \$(od -An -tu1 -j13 -N1 $W/feb.trc | tr -d ' ') = 3"
expect_fail stack2_fresh_needs_stack2 "--fresh needs --mode stack2" $TRC compress --mode stack --fresh $W/$n.txt $W/x.trc
expect_fail stack2_no_fresh_needs_stack2 "--no-fresh needs --mode stack2" $TRC compress --no-fresh $W/$n.txt $W/x.trc
expect_fail stack2_fresh_or_no_fresh "give one of them" $TRC compress --mode stack2 --fresh --no-fresh $W/$n.txt $W/x.trc
n=lua_errors_t1
head -n 202 $W/$n.txt > $W/short.txt
$TRC compress --raw $W/short.txt $W/short.paper
$TRC compress --raw --mode stack2 --no-fresh $W/short.txt $W/short.stack2
# read with the default (fresh entries), it fails at once and says what to check
expect_fail stack2_raw_no_fresh_read_with_fresh "no-fresh for a core built with FE = 0" \
  $TRC decompress --raw --mode stack2 $W/short.stack2 $W/x.txt
$TRC compress --raw --mode stack2 --fresh $W/short.txt $W/short.fe
t stack2_fresh_short_trace_smaller bash -c "smaller() { test \$(stat -c %s \$1) -lt \$(stat -c %s \$2); }; smaller $W/short.fe $W/short.stack2 && smaller $W/short.fe $W/short.paper"
head -n 20002 $W/$n.txt > $W/s20k.txt
$TRC compress --raw --sync-every 100 $W/s20k.txt $W/s20k.paper
$TRC compress --raw --mode stack2 --no-fresh --sync-every 100 $W/s20k.txt $W/s20k.stack2
$TRC compress --raw --mode stack2 --fresh --sync-every 100 $W/s20k.txt $W/s20k.fe
t stack2_fresh_sync100_smaller bash -c "smaller() { test \$(stat -c %s \$1) -lt \$(stat -c %s \$2); }; smaller $W/s20k.fe $W/s20k.stack2 && smaller $W/s20k.fe $W/s20k.paper"
t stack2_fresh_ablation_equals_model bash -c "test \"\$(python3 tools/stack_ablation.py $W/s20k.txt --sync 100 +fresh | cut -d' ' -f3)\" = \$(stat -c %s $W/s20k.fe) && test \"\$(python3 tools/stack_ablation.py $W/short.txt +fresh | cut -d' ' -f3)\" = \$(stat -c %s $W/short.fe)"
t stack2_fresh_asan_round_trip bash -c "$ASAN compress --mode stack2 --fresh --check --sync-every 37 $W/short.txt $W/af.trc && $ASAN decompress $W/af.trc - | cmp - <(grep -v '^#' $W/short.txt) && $ASAN stats $W/af.trc >/dev/null"
