#!/usr/bin/env bash
# The host tools with a trace's context: the time base (one rule, the same
# for files and standard input), compressed inputs (.xz, .zst by magic), the
# OS context of an ftrace import (Linux CPU tracks in Perfetto, cpu_id and
# tid in CTF) and the checkers of the outputs: a Trace Event Format checker
# (tests/trace_event_check.py), babeltrace2, and Perfetto's trace processor
# when it can run here. Expected values come from the inputs (grep, awk,
# python over the ftrace text), never from the code under test.
set -u
. "$(dirname "$0")/lib.sh"
suite_init context
T=${T_HOST_TRC:-$TRC}
D=tests/data
CHECK="python3 tests/trace_event_check.py"
records() { grep -v '^#' "$1"; }

# ---- time base: file and standard input give the same output -------------
xz -dc $D/lua_calls_t1.txt.xz | head -20002 > "$W/tb.txt"          # with the line
grep -v '^# trc-timebase' "$W/tb.txt" > "$W/notb.txt"                # without
xz -dc $D/lua_errors_t1.txt.xz | head -20002 > "$W/tick.txt"       # tick only
t timebase_sample_has_line grep -qx '# trc-timebase clock=monotonic tick_ns=1 t0_ns=544265266468' "$W/tb.txt"
for c in tb notb tick; do
  $T calltree "$W/$c.txt" --unit us --depth 4 > "$W/$c.f.ct" 2> "$W/$c.f.log"
  $T calltree - --unit us --depth 4 < "$W/$c.txt" > "$W/$c.s.ct" 2> "$W/$c.s.log"
  cat "$W/$c.txt" | $T calltree - --unit us --depth 4 > "$W/$c.p.ct" 2> "$W/$c.p.log"
  t "timebase_${c}_calltree_file_eq_stdin" cmp "$W/$c.f.ct" "$W/$c.s.ct"
  t "timebase_${c}_calltree_file_eq_pipe" cmp "$W/$c.f.ct" "$W/$c.p.ct"
  $T export "$W/$c.txt" --perfetto "$W/$c.f.json" --ctf "$W/$c.f.ctf" 2> "$W/$c.fe.log"
  cat "$W/$c.txt" | $T export - --perfetto "$W/$c.p.json" --ctf "$W/$c.p.ctf" 2> "$W/$c.pe.log"
  t "timebase_${c}_export_json_file_eq_pipe" cmp <(sed 's/"source":"[^"]*"//; s/"name":"[^"]*txt"/N/; s/"name":"-"/N/' "$W/$c.f.json") \
                                               <(sed 's/"source":"[^"]*"//; s/"name":"[^"]*txt"/N/; s/"name":"-"/N/' "$W/$c.p.json")
  t "timebase_${c}_export_ctf_file_eq_pipe" bash -c "cmp '$W/$c.f.ctf/stream_0' '$W/$c.p.ctf/stream_0' && cmp '$W/$c.f.ctf/metadata' '$W/$c.p.ctf/metadata'"
done
# the line's tick is used (the same tree as with --tick 1, not the default)
$T calltree "$W/notb.txt" --unit us --depth 4 --tick 1 > "$W/tick1.ct" 2>/dev/null
t timebase_line_gives_tick cmp "$W/tb.f.ct" "$W/tick1.ct"
t timebase_tick_only_line_gives_tick bash -c "! grep -q assumed '$W/tick.f.log' '$W/tick.p.log'"
# without one, the default is said, on files and pipes alike
t timebase_default_said_file grep -q "notb.txt states no tick .*10 ns assumed" "$W/notb.f.log"
t timebase_default_said_pipe grep -q -- "- states no tick .*10 ns assumed" "$W/notb.p.log"
t timebase_default_said_export grep -q "states no tick" "$W/notb.pe.log"
t timebase_no_note_with_line bash -c "! grep -q 'states no tick' '$W/tb.f.log' '$W/tb.p.log' '$W/tb.fe.log' '$W/tb.pe.log'"
t timebase_json_from_pipe grep -q '"tick_ns":1,"t0_ns":544265266468' "$W/tb.p.json"
t timebase_ctf_clock_offset grep -q 'offset_s = 544;' "$W/tb.p.ctf/metadata"
cat "$W/tb.txt" | $T export - --perfetto "$W/abs.json" --absolute 2>/dev/null
t timebase_absolute_from_pipe grep -q '"ts":544265266.468' "$W/abs.json"
# a .trc has no comments: its symbol map beside it (or --syms) carries the line
$T compress "$W/tb.txt" "$W/tbc.trc" 2>/dev/null
grep '^# trc-timebase' "$W/tb.txt" > "$W/tbc.sym"
$T calltree "$W/tbc.trc" --unit us --depth 4 > "$W/tbc.ct" 2>/dev/null
$T calltree - --unit us --depth 4 --syms "$W/tbc.sym" < "$W/tbc.trc" > "$W/tbc.s.ct" 2>/dev/null
t timebase_trc_symmap_beside cmp "$W/tb.f.ct" "$W/tbc.ct"
t timebase_trc_stdin_syms cmp "$W/tb.f.ct" "$W/tbc.s.ct"
printf '# trc-timebase clock=monotonic tick_ns=ten\n0 E 0\n' > "$W/bad_tb.txt"
expect_fail timebase_malformed_line "bad_tb.txt:1: malformed time base line" $T calltree "$W/bad_tb.txt"
printf '# trc-timebase tick_ns=1\n# trc-timebase tick_ns=2\n0 E 0\n' > "$W/two_tb.txt"
expect_fail timebase_two_lines "two_tb.txt:2: a second time base line" $T export "$W/two_tb.txt" --perfetto "$W/x.json"

# the samples' t0 puts every OS record on its ftrace event (computed here
# from the ftrace text, independently of trc)
cat > "$W/t0chk.py" <<'EOF'
import lzma, re, sys
trace, ftrace = sys.argv[1], sys.argv[2]
field = {"sched_switch": ("next_pid", 1), "irq_handler_entry": ("irq", 2),
         "softirq_entry": ("vec", 3), "sched_wakeup": ("pid", 4)}
ev = set()
for l in lzma.open(ftrace, "rt"):
    m = re.match(r".*?\[(\d+)\]\s+\S*\s*(\d+)\.(\d+): (\w+): (.*)", l)
    if m and m.group(4) in field:
        k, ty = field[m.group(4)]
        v = int(re.search(r"\b" + k + r"=(\d+)", m.group(5)).group(1)) & 0xFFFF
        ev.add((ty, v, int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, "0"))))
cum, n, t0, tick = 0, 0, None, None
for l in lzma.open(trace, "rt"):
    if l.startswith("# trc-timebase"):
        kv = dict(x.split("=") for x in l.split()[2:])
        t0, tick = int(kv["t0_ns"]), int(kv["tick_ns"])
        continue
    if l.startswith("#"):
        continue
    p = l.split()
    cum += int(p[0])
    if p[1] == "O":
        n += 1
        assert (int(p[2]), int(p[3]), t0 + cum * tick) in ev, "record %d off" % n
print(n, "OS records on their ftrace events")
EOF
for s in lua_calls zlib_deflate; do
  for k in 1 10; do
    t "timebase_sample_${s}_t${k}_t0_matches_ftrace" python3 "$W/t0chk.py" $D/${s}_t$k.txt.xz $D/$s.ftrace.xz
  done
done

# ---- compressed inputs: .xz and .zst by their magic, in every subcommand ----
records "$W/tb.txt" > "$W/plain.txt"
xz -c "$W/tb.txt" > "$W/tb.txt.xz"
zstd -q -c "$W/tb.txt" > "$W/tb.txt.zst"
zstd -q -c "$W/tb.txt" > "$W/zst_named.txt"      # the name says nothing
$T compress "$W/tb.txt" "$W/ref.trc" 2>/dev/null
for z in tb.txt.xz tb.txt.zst zst_named.txt; do
  $T compress "$W/$z" "$W/$z.trc" 2>/dev/null
  t "compressed_${z}_compress" cmp "$W/ref.trc" "$W/$z.trc"
  t "compressed_${z}_stats" bash -c "cmp <($T stats '$W/$z') <($T stats '$W/tb.txt')"
  t "compressed_${z}_calltree" bash -c "cmp <($T calltree '$W/$z' --unit us --depth 4 2>/dev/null) '$W/tb.f.ct'"
  t "compressed_${z}_stdin" bash -c "cmp <($T calltree - --unit us --depth 4 < '$W/$z' 2>/dev/null) '$W/tb.f.ct'"
done
xz -c "$W/ref.trc" > "$W/ref.trc.xz"; zstd -q -c "$W/ref.trc" > "$W/ref.trc.zst"
for z in ref.trc.xz ref.trc.zst; do
  t "compressed_${z}_decompress" bash -c "$T decompress '$W/$z' - | cmp - '$W/plain.txt'"
  $T export "$W/$z" --perfetto "$W/$z.json" --syms "$W/tbc.sym" 2>/dev/null
  t "compressed_${z}_export" cmp <(sed 's/"source":"[^"]*"//; s/"name":"[^"]*\(txt\|zst\|xz\)"/N/' "$W/$z.json") \
                                 <(sed 's/"source":"[^"]*"//; s/"name":"[^"]*\(txt\|zst\|xz\)"/N/' "$W/tb.f.json")
done
$T convert "$W/tb.txt" "$W/ref.bin" --to bin
zstd -q -c "$W/ref.bin" > "$W/ref.bin.zst"
t compressed_convert_bin_input bash -c "$T convert '$W/ref.bin.zst' - --to text | cmp - '$W/plain.txt'"
$T compress --raw --sync-every 1000 "$W/tb.txt" "$W/raw.bin"
$T frame "$W/raw.bin" "$W/framed_ref.trc"; xz -c "$W/raw.bin" > "$W/raw.bin.xz"
$T frame "$W/raw.bin.xz" "$W/framed_xz.trc"
t compressed_frame_input cmp "$W/framed_ref.trc" "$W/framed_xz.trc"
$T import-ftrace $D/lua_calls.ftrace.xz "$W/osx.txt" 2>/dev/null
xz -dc $D/lua_calls.ftrace.xz | $T import-ftrace - "$W/osp.txt" 2>/dev/null
t compressed_import_ftrace cmp <(records "$W/osx.txt") <(records "$W/osp.txt")
head -c $(( $(stat -c %s "$W/tb.txt.xz") / 2 )) "$W/tb.txt.xz" > "$W/cut.xz"
expect_fail compressed_truncated_xz "cut.xz: xz data, compressed byte [0-9]+: compressed data is truncated" $T stats "$W/cut.xz"
head -c $(( $(stat -c %s "$W/tb.txt.zst") / 2 )) "$W/tb.txt.zst" > "$W/cut.zst"
expect_fail compressed_truncated_zst "cut.zst: zstd data, compressed byte [0-9]+: compressed data is truncated" $T calltree "$W/cut.zst"
python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[len(b) // 2] ^= 0x55
open(sys.argv[2], 'wb').write(b)" "$W/tb.txt.xz" "$W/flip.xz"
expect_fail compressed_corrupt_xz "flip.xz: xz data, compressed byte [0-9]+: compressed data is corrupt" $T compress "$W/flip.xz" "$W/flip.trc"
t compressed_corrupt_leaves_no_output test ! -e "$W/flip.trc"
yes '0 E 0' | head -c 200M | zstd -q -19 -c > "$W/bomb.zst"
expect_fail compressed_bomb_refused "bomb.zst: zstd data expands more than 1024 times" $T stats "$W/bomb.zst"

# ---- wrong inputs are errors -------------------------------------------------
expect_fail ftrace_no_event_lines "README.md: no ftrace event lines in [0-9]+ lines" $T import-ftrace README.md "$W/readme_os.txt"
t ftrace_no_event_lines_no_output bash -c "! ls '$W'/readme_os.* 2>/dev/null"
: > "$W/empty.ftrace"
expect_fail ftrace_empty_input "no ftrace event lines in 0 lines" $T import-ftrace "$W/empty.ftrace" "$W/e.txt"

# ---- OS context: Linux CPU tracks of a real 2-CPU capture -------------------
xz -dc $D/os_tools.ftrace.xz > "$W/os.ftrace"
$T import-ftrace $D/os_tools.ftrace.xz "$W/os.trc" 2> "$W/os.log"
t osctx_written_beside_output grep -q "wrote $W/os.osctx (OS context of 164433 records)" "$W/os.log"
$T export "$W/os.trc" --perfetto "$W/os.json" --ctf "$W/os.ctf" 2> "$W/ose.log"
t osctx_found_beside_trace grep -q "OS context of 164433 records from $W/os.osctx" "$W/ose.log"
t osctx_perfetto_trace_event_format $CHECK "$W/os.json" --events 164433 --open 0
cat > "$W/percpu.py" <<'EOF'
import json, re, sys, collections
want = collections.Counter(int(m.group(1)) for m in
                           (re.search(r"\[(\d+)\] \S* *[\d.]+: sched_switch:", l)
                            for l in open(sys.argv[1])) if m)
d = json.load(open(sys.argv[2]))
names = {e["tid"]: e["args"]["name"] for e in d["traceEvents"]
         if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 9}
got = collections.Counter(names[e["tid"]] for e in d["traceEvents"]
                          if e.get("cat") == "sched" and e["ph"] == "X")
exp = {"Linux CPU %d" % c: n for c, n in want.items()}
assert got == exp, "slices per CPU track %s, sched_switch per CPU %s" % (dict(got), exp)
# every slice is named by its task, as the next_comm/next_pid of its switch
sw = [re.search(r"next_comm=(.*) next_pid=(\d+)", l).groups()
      for l in open(sys.argv[1]) if ": sched_switch:" in l]
sl = sorted((e for e in d["traceEvents"] if e.get("cat") == "sched"), key=lambda e: e["args"]["record"])
assert [(e["args"]["comm"], str(e["args"]["pid"])) for e in sl] == sw, "slice names"
print("per CPU:", dict(sorted(got.items())))
EOF
t osctx_perfetto_one_slice_per_sched_switch_per_cpu python3 "$W/percpu.py" "$W/os.ftrace" "$W/os.json"
babeltrace2 "$W/os.ctf" > "$W/os.bt" 2>&1
for c in 0 1; do
  want=$(grep -c "\[00$c\] .*: sched_switch:" "$W/os.ftrace")
  got=$(grep -c "sched_switch: { cpu_id = $c, " "$W/os.bt")
  t "osctx_ctf_cpu${c}_sched_switch" test "$want" = "$got"
done
# tid = the running task (TASK-PID) of each event, in order
t osctx_ctf_tids cmp <(grep -v '^#' "$W/os.ftrace" | sed 's/^ *.*-\([0-9]*\) *\[.*/\1/') \
                     <(sed 's/.*tid = \([0-9-]*\), thread.*/\1/' "$W/os.bt")
t osctx_ctf_sched_switch_fields grep -q 'sched_switch: { cpu_id = 1, tid = 27660, thread = 0 }, { type = 1, value = 27662, prev_comm = "bash", prev_tid = 27660, prev_prio = 120, prev_state = "S", next_comm = "bash", next_tid = 27662, next_prio = 120 }' "$W/os.bt"
t osctx_ctf_irq_name grep -q 'irq_handler_entry: { cpu_id = 1, tid = 27664, thread = 0 }, { type = 2, value = 36, irq = 36, name = "virtio1-req.0", dur_ns = -1 }' "$W/os.bt"
# the table belongs to its trace: another trace with it is refused
$T import-ftrace $D/lua_calls.ftrace.xz "$W/other.txt" 2>/dev/null
expect_fail osctx_other_trace_refused "os.osctx:[0-9]+: record [0-9]+ of the trace is not OS type" \
  $T export "$W/other.txt" --context "$W/os.osctx" --perfetto "$W/other.json"
t osctx_other_trace_no_output test ! -e "$W/other.json"
xz -c "$W/os.osctx" > "$W/osz.osctx.xz"; cp "$W/os.trc" "$W/osz.trc"
$T export "$W/osz.trc" --perfetto "$W/osz.json" 2> "$W/osz.log"
t osctx_compressed_beside_trace bash -c "grep -q 'OS context of 164433 records from $W/osz.osctx.xz' '$W/osz.log' && cmp <(grep -v '\"source\"\|process_name' '$W/os.json') <(grep -v '\"source\"\|process_name' '$W/osz.json')"
head -5 "$W/os.osctx" > "$W/short.osctx"
$T export "$W/os.trc" --context "$W/short.osctx" --perfetto "$W/short.json" 2>/dev/null
t osctx_partial_table_rest_plain $CHECK "$W/short.json" --events 164433

# irq and softirq slices end at their exit events (hand-built, two CPUs,
# a softirq interrupted by an irq, an exit without entry)
cat > "$W/irq.ftrace" <<'EOF'
           a-10    [000] d..2.   10.000000: sched_switch: prev_comm=x prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120
           a-10    [000] ..s1.   10.000010: softirq_entry: vec=3 [action=NET_RX]
           a-10    [000] d.h1.   10.000012: irq_handler_entry: irq=24 name=eth0
           a-10    [000] d.h1.   10.000015: irq_handler_exit: irq=24 ret=handled
           a-10    [000] ..s1.   10.000030: softirq_exit: vec=3 [action=NET_RX]
           b-11    [001] d.h1.   10.000040: irq_handler_exit: irq=7 ret=handled
           b-11    [001] d.h1.   10.000050: irq_handler_entry: irq=7 name=timer
           a-10    [000] d..2.   10.000060: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=D ==> next_comm=x next_pid=9 next_prio=120
EOF
$T import-ftrace "$W/irq.ftrace" "$W/irq.txt" 2> "$W/irq.log"
t irq_exits_reported grep -q '2 give their entry.s duration, 1 without an open entry' "$W/irq.log"
$T export "$W/irq.txt" --perfetto "$W/irq.json" 2>/dev/null
t irq_trace_event_format $CHECK "$W/irq.json" --events 5
t irq_slice_to_exit grep -q '"name":"irq 24 eth0","cat":"irq","ph":"X","dur":3.000,"ts":12.000,"pid":9,"tid":1000001' "$W/irq.json"
t softirq_slice_to_exit grep -q '"name":"softirq NET_RX","cat":"softirq","ph":"X","dur":20.000,"ts":10.000,"pid":9,"tid":1000002' "$W/irq.json"
t irq_without_exit_instant grep -q '"name":"irq 7 timer","cat":"irq","ph":"i".*"end":"unknown' "$W/irq.json"
t sched_slice_end_state grep -q '"name":"a 10","cat":"sched","ph":"X","dur":60.000,"ts":0.000.*"end_state":"D"' "$W/irq.json"

# functions and OS context in one trace: a capture merged with ftrace events
printf '# trc-timebase clock=monotonic tick_ns=10 t0_ns=10000000000\n0 E 0\n100 E 1\n300 X 1\n300 E 2\n200 E 3\n100 X 0\n' > "$W/cap.txt"
printf '0 main 0x401000 /bin/x 0x1000\n1 f 0x401100 /bin/x 0x1100\n2 g 0x401200 /bin/x 0x1200\n3 h 0x401300 /bin/x 0x1300\n' > "$W/cap.sym"
$T import-ftrace "$W/irq.ftrace" "$W/mix.txt" --merge "$W/cap.txt" 2>/dev/null
$T export "$W/mix.txt" --perfetto "$W/mix.json" --ctf "$W/mix.ctf" 2>/dev/null
n=$(records "$W/mix.txt" | wc -l)
t mixed_trace_event_format $CHECK "$W/mix.json" --events "$n"
t mixed_function_args grep -q '"name":"f","ph":"B","ts":1.000,"pid":1,"tid":0,"args":{"id":1,"symbol":"f","address":"0x401100"}' "$W/mix.json"
t mixed_longjmp_frames_end_at_exit grep -q '"name":"g","cat":"unwound","ph":"X","dur":3.000,"ts":7.000' "$W/mix.json"
t mixed_longjmp_frames_end_at_exit2 grep -q '"name":"h","cat":"unwound","ph":"X","dur":1.000,"ts":9.000' "$W/mix.json"
t mixed_ctf_babeltrace2 bash -c "babeltrace2 '$W/mix.ctf' | grep -q 'func_entry: { cpu_id = -1, tid = -1, thread = 0 }, { fid = 1, matched = 1, name = \"f\", addr = 4198656 }'"

# ---- the same paths under ASan + UBSan ---------------------------------------
A=${ASAN}
if [ -x "$A" ]; then
  t asan_compressed_inputs no_sanitizer_report bash -c "$A stats '$W/tb.txt.zst' && $A calltree '$W/tb.txt.xz' && $A stats '$W/cut.xz'; $A stats '$W/flip.xz'; $A stats '$W/bomb.zst'; true"
  t asan_import_ftrace_context no_sanitizer_report bash -c "$A import-ftrace '$W/irq.ftrace' '$W/airq.txt' && $A import-ftrace $D/host_tracecmd_report.txt '$W/atc.txt' && $A import-ftrace $D/host_ftrace.txt '$W/ahf.txt'"
  t asan_export_context no_sanitizer_report bash -c "$A export '$W/mix.txt' --perfetto '$W/amix.json' --ctf '$W/amix.ctf' && $A export '$W/ahf.txt' --perfetto '$W/ahf.json' --ctf '$W/ahf.ctf' && $A export '$W/atc.txt' --perfetto '$W/atc.json'; $A export '$W/other.txt' --context '$W/os.osctx' --perfetto '$W/x.json'; true"
  t asan_export_context_checked $CHECK "$W/ahf.json"
fi

# the capture thread whose Linux tid the OS context knows gets its comm
printf '# trc-timebase clock=monotonic tick_ns=10 t0_ns=99999999000\n0 E 0\n100 E 1\n300 X 1\n300 X 0\n' > "$W/cap2.txt"
printf '# trc-thread 0 tid=70000\n0 main\n1 f\n' > "$W/cap2.sym"
$T import-ftrace $D/host_ftrace.txt "$W/mix2.txt" --merge "$W/cap2.txt" 2>/dev/null
$T export "$W/mix2.txt" --perfetto "$W/mix2.json" 2>/dev/null
t thread_named_by_os_context grep -q '"pid":1,"tid":0,"args":{"name":"a.out (thread 0, tid 70000)"}' "$W/mix2.json"
t thread_named_checker $CHECK "$W/mix2.json"
# --context writes the table for an output on standard output
$T import-ftrace $D/host_ftrace.txt - --context "$W/out.osctx" > "$W/stdout_os.txt" 2>/dev/null
$T export - --context "$W/out.osctx" --perfetto "$W/stdout_os.json" < "$W/stdout_os.txt" 2>/dev/null
t osctx_for_stdout_output grep -q '"name":"irq 19 eth0","cat":"irq"' "$W/stdout_os.json"

# ---- the Trace Event Format checker rejects what viewers reject -------------
echo '{"traceEvents":[{"ph":"X","name":"a","ts":0,"pid":1,"tid":1}]}' > "$W/nodur.json"
expect_fail checker_rejects_x_without_dur "must contain \['dur'\]" $CHECK "$W/nodur.json"
echo '{"traceEvents":[{"ph":"X","name":"a","ts":0,"dur":5,"pid":1,"tid":1},{"ph":"X","name":"b","ts":3,"dur":5,"pid":1,"tid":1}]}' > "$W/overlap.json"
expect_fail checker_rejects_overlap "overlaps 'a'" $CHECK "$W/overlap.json"
echo '{"traceEvents":[{"ph":"B","name":"a","ts":0,"pid":1,"tid":1},{"ph":"E","name":"b","ts":3,"pid":1,"tid":1}]}' > "$W/mismatch.json"
expect_fail checker_rejects_wrong_end "E 'b' at 3 closes B 'a'" $CHECK "$W/mismatch.json"

# ---- Perfetto's trace processor (PyPI perfetto), when it can run here -------
# Its TraceProcessor downloads trace_processor_shell at first use; a binary
# given in TRC_TRACE_PROCESSOR (or already cached) lets it run offline.
cat > "$W/tp.py" <<'EOF'
import os, sys
from perfetto.trace_processor import TraceProcessor, TraceProcessorConfig
cfg = TraceProcessorConfig(bin_path=os.environ.get("TRC_TRACE_PROCESSOR") or None)
tp = TraceProcessor(trace=sys.argv[1], config=cfg)
q = tp.query("select thread.name as cpu, count(*) as n from slice join thread_track "
             "on slice.track_id = thread_track.id join thread using (utid) "
             "where slice.category = 'sched' group by thread.name order by thread.name")
print(" ".join("%s=%d" % (r.cpu, r.n) for r in q))
EOF
if python3 -c 'import perfetto.trace_processor' 2>/dev/null &&
   timeout 120 python3 "$W/tp.py" "$W/os.json" > "$W/tp.out" 2> "$W/tp.err"; then
  want="Linux CPU 0=$(grep -c '\[000\] .*: sched_switch:' "$W/os.ftrace") Linux CPU 1=$(grep -c '\[001\] .*: sched_switch:' "$W/os.ftrace")"
  t perfetto_trace_processor_sql_slices_per_cpu test "$(cat "$W/tp.out")" = "$want"
else
  echo "# skip perfetto_trace_processor_sql: the PyPI perfetto package's TraceProcessor downloads trace_processor_shell at first use, and this machine reaches only Debian and PyPI: $(tail -1 "$W/tp.err" 2>/dev/null | cut -c1-240)"
fi

# ---- help: every subcommand has it, the top-level one names them all --------
cmds=$($T --help | sed -n '/^commands:/,/^options:/p' | awk '/^  [a-z]/ {print $1}')
t help_lists_commands test "$(echo $cmds)" = "compress decompress stats frame convert import-ftrace export calltree"
for c in $cmds; do
  t "help_$c" bash -c "$T $c --help | grep -q '^usage: trc $c ' && $T $c --help | grep -q '^time base:'"
done
t help_command bash -c "$T help | cmp - <($T --help) && $T help stats | cmp - <($T stats --help)"
t help_top_level_every_option bash -c "for o in \$(grep -o '\"--[a-z-]*\"' tools/cli_opts.c | tr -d '\"'); do $T --help | grep -q -- \"\$o\" || { echo missing \$o; exit 1; }; done"
