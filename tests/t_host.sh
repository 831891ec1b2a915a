#!/usr/bin/env bash
# Host tools suite: import-ftrace, export (Perfetto JSON, CTF via the real
# babeltrace2), calltree, the capture library. One line per check. Expected
# values come from the hand-built tests/data/host_* files (totals known by
# construction) or from independent tools (grep -c, nm, babeltrace2, python).
set -u
. "$(dirname "$0")/lib.sh"
suite_init host
T=${T_HOST_TRC:-$TRC}
D=tests/data
records() { grep -v '^#' "$1"; }

# ---- import-ftrace on the real samples: counts per type = grep -c ----------
declare -A type=([sched_switch]=1 [irq_handler_entry]=2 [softirq_entry]=3
                 [sched_wakeup]=4 [sched_process_fork]=5 [sched_process_exit]=6)
# count_mismatches FTRACE TXT: each event type whose OS records in TXT differ
# in number from its lines in FTRACE, as " event:want/got" (nothing when all
# match)
count_mismatches() {
  local ev want got bad=""
  for ev in "${!type[@]}"; do
    want=$(grep -c " $ev: " "$1")
    got=$(awk -v t="${type[$ev]}" '$2 == "O" && $3 == t' "$2" | wc -l)
    [ "$want" = "$got" ] || bad="$bad $ev:$want/$got"
  done
  echo "$bad"
}
for s in lua_calls zlib_deflate; do
  xz -dc $D/$s.ftrace.xz > "$W/$s.ftrace"
  if ! $T import-ftrace "$W/$s.ftrace" "$W/$s.os.txt" 2>"$W/$s.log"; then
    t "ftrace_${s}_runs" false "$(cat "$W/$s.log")"; continue
  fi
  t "ftrace_${s}_counts_match_grep" test -z "$(count_mismatches "$W/$s.ftrace" "$W/$s.os.txt")"
  # every other event line is reported, none silently dropped
  events=$(grep -v '^#' "$W/$s.ftrace" | grep -c ': [a-z_]*: ')
  got=$(records "$W/$s.os.txt" | wc -l)
  other=$(sed -n 's/.*other (unmapped) events: //p' "$W/$s.log")
  t "ftrace_${s}_all_events_accounted" test "$events" = "$((got + other))"
  # deltas in 10 ns ticks add up to last - first timestamp
  first=$(grep -v '^#' "$W/$s.ftrace" | head -1 | sed 's/.* \([0-9]*\.[0-9]*\): .*/\1/')
  last=$(grep -v '^#' "$W/$s.ftrace" | tail -1 | sed 's/.* \([0-9]*\.[0-9]*\): .*/\1/')
  want=$(python3 -c "print(round(($last - $first) * 1e8))")
  got=$(records "$W/$s.os.txt" | awk '{s += $1} END {print s}')
  t "ftrace_${s}_time_span" test "$want" = "$got"
  # the .trc form holds the same records
  $T import-ftrace "$W/$s.ftrace" "$W/$s.os.trc" 2>/dev/null &&
    $T decompress "$W/$s.os.trc" "$W/$s.os.back" 2>/dev/null
  records "$W/$s.os.txt" > "$W/$s.os.rec"
  t "ftrace_${s}_trc_output" diff "$W/$s.os.rec" "$W/$s.os.back"
done

# ---- import-ftrace on the hand-built file: formats, CPU filter, cut, map ----
cat > "$W/exp_all" <<'EOF'
0 O 1 4464
100 O 2 19
100 O 3 9
100 O 4 42
100 O 5 4465
100 O 6 4465
300 O 1 0
100 O 4 5
EOF
$T import-ftrace $D/host_ftrace.txt "$W/all.txt" 2>"$W/all.log"
records "$W/all.txt" > "$W/all.rec"
t ftrace_handbuilt_default_map diff "$W/exp_all" "$W/all.rec"
t ftrace_reports_cut_values grep -q '3 values cut to 16 bits' "$W/all.log"
t ftrace_reports_other_events grep -q 'other (unmapped) events: 2' "$W/all.log"
t ftrace_reports_unparsed_lines grep -q '1 lines are not event lines' "$W/all.log"
t ftrace_timebase_line grep -qx '# trc-timebase clock=monotonic tick_ns=10 t0_ns=100000001000' "$W/all.txt"
cat > "$W/exp_cpu0" <<'EOF'
0 O 1 4464
100 O 2 19
300 O 5 4465
100 O 6 4465
200 O 8 5
100 O 1 0
100 O 4 5
EOF
$T import-ftrace $D/host_ftrace.txt - --cpu 0 --map sched_waking=8:pid 2>/dev/null | records /dev/stdin > "$W/cpu0.rec"
t ftrace_cpu_filter_and_map_option diff "$W/exp_cpu0" "$W/cpu0.rec"
$T import-ftrace $D/host_ftrace.txt - --tick 1000 --no-default-map \
  --map irq_handler_entry=2:irq 2>/dev/null | records /dev/stdin > "$W/tick.rec"
printf '0 O 2 19\n' > "$W/exp_tick"
t ftrace_tick_and_no_default_map diff "$W/exp_tick" "$W/tick.rec"
t ftrace_rejects_reserved_type bash -c "! $T import-ftrace $D/host_ftrace.txt - --map sched_switch=124:next_pid"

# ---- merge with a capture trace by absolute time ----------------------------
cat > "$W/exp_merge" <<'EOF'
50 E 0
50 O 1 4464
50 E 1
50 O 2 19
100 O 3 9
50 X 1
50 O 4 42
100 O 5 4465
100 O 6 4465
250 X 0
50 O 1 0
100 O 4 5
EOF
$T import-ftrace $D/host_ftrace.txt "$W/merge.txt" --merge $D/host_cap.txt 2>/dev/null
records "$W/merge.txt" > "$W/merge.rec"
t ftrace_merge_by_time diff "$W/exp_merge" "$W/merge.rec"
t ftrace_out_symmap_timebase grep -qx '# trc-timebase clock=monotonic tick_ns=10 t0_ns=100000000000' "$W/merge.sym"
head -10 "$W/exp_merge" > "$W/exp_clip"
$T import-ftrace $D/host_ftrace.txt - --merge $D/host_cap.txt --clip 2>/dev/null \
  | records /dev/stdin > "$W/clip.rec"
t ftrace_merge_clip diff "$W/exp_clip" "$W/clip.rec"
records $D/host_cap.txt > "$W/cap_notb.txt"
t ftrace_merge_needs_timebase bash -c "! $T import-ftrace $D/host_ftrace.txt - --merge $W/cap_notb.txt"
$T import-ftrace $D/host_ftrace.txt - --merge "$W/cap_notb.txt" --merge-t0 100000000000 \
  2>/dev/null | records /dev/stdin > "$W/mt0.rec"
t ftrace_merge_t0_option diff "$W/exp_merge" "$W/mt0.rec"

# ---- calltree on hand-built traces (totals known by construction) -----------
cat > "$W/exp_fig1" <<'EOF'
Main (3000 / 10000)
  funcA (1500 / 4000)
    funcC (1300 / 1300)
    funcD (1200 / 1200)
  funcB (1700 / 3000)
    funcE (800 / 1300)
      funcF (500 / 500)
EOF
$T calltree $D/host_fig1.txt > "$W/fig1.out" 2>/dev/null
t calltree_paper_figure1 diff "$W/exp_fig1" "$W/fig1.out"
cat > "$W/exp_m2" <<'EOF'
Main [module1] (4500 / 10000)
  funcB [module2] (2500 / 3000)
    funcF [module4] (500 / 500)
  funcC [module2] (1300 / 1300)
  funcD [module3] (1200 / 1200)
EOF
$T calltree $D/host_fig1.txt --modules $D/host_fig1.mod > "$W/m2.out" 2>/dev/null
t calltree_method2_modules diff "$W/exp_m2" "$W/m2.out"
cat > "$W/exp_m1" <<'EOF'
Main (6000 / 10000)
  funcA (2700 / 4000)
    funcC (1300 / 1300)
EOF
$T calltree $D/host_fig1.txt --min-fraction 0.3 > "$W/m1.out" 2>/dev/null
t calltree_method1_fraction diff "$W/exp_m1" "$W/m1.out"
$T calltree $D/host_fig1.txt --min-fraction 0.5 > "$W/m1b.out" 2>/dev/null
t calltree_method1_keeps_all_when_needed diff "$W/exp_fig1" "$W/m1b.out"
cat > "$W/exp_inter" <<'EOF'
Main [m1] (200 / 1050)
  B [m1] (550 / 550)
  A [m1] (200 / 300)
    G [m2] (100 / 100)
EOF
$T calltree $D/host_inter.txt --min-fraction 0.5 --modules $D/host_inter.mod --no-merge \
  > "$W/inter.out" 2>/dev/null
t calltree_method1_intermediate_first diff "$W/exp_inter" "$W/inter.out"
printf 'Main (500 / 1050)\n  B (550 / 550)\n' > "$W/exp_inter2"
$T calltree $D/host_inter.txt --min-fraction 0.5 > "$W/inter2.out" 2>/dev/null
t calltree_method1_without_modules diff "$W/exp_inter2" "$W/inter2.out"
cat > "$W/exp_lj" <<'EOF'
Main (200 / 1200)
  A (100 / 900)
    B (100 / 800)
      C (700 / 700)
  f (40 / 100)
    f (30 / 60)
      f (30 / 30)
g (0 / 0)
EOF
$T calltree $D/host_longjmp.txt > "$W/lj.out" 2>"$W/lj.log"
t calltree_longjmp_recursion_unmatched diff "$W/exp_lj" "$W/lj.out"
t calltree_reports_unmatched grep -q '1 exits without entry (ignored), 2 entries unwound' "$W/lj.log"
printf 'Main (2 / 12)\n  A (1 / 9)\n' > "$W/exp_us"
$T calltree $D/host_longjmp.txt --unit us --depth 2 2>/dev/null | head -2 | sed 's/\.000//g' > "$W/us.out"
t calltree_units_and_depth diff "$W/exp_us" "$W/us.out"

# ---- export: Perfetto JSON validity and balance, CTF through babeltrace2 ----
cat > "$W/jcheck.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
ev = [e for e in d["traceEvents"] if e["ph"] != "M"]
assert len(ev) == n, "events %d != records %d" % (len(ev), n)
stacks, last = {}, -1.0
for e in ev:
    assert e["ts"] >= last, "time goes back"
    last = e["ts"]
    s = stacks.setdefault(e["tid"], [])
    if e["ph"] == "B":
        s.append(e["name"])
    elif e["ph"] == "E":
        assert s and s[-1] == e["name"], "unbalanced E %s" % e["name"]
        s.pop()
left = sum(len(s) for s in stacks.values())
assert left == d["otherData"]["open_at_end"], "open B %d" % left
inst = sum(1 for e in ev if e.get("cat") == "unmatched")
od = d["otherData"]
assert inst == od["unmatched_exits"], "instants %d" % inst
# a frame left by longjmp is an X that ends where an exit of its thread was
ends = {(e["tid"], round(e["ts"] * 1000)) for e in ev if e["ph"] == "E"}
unw = [e for e in ev if e.get("cat") == "unwound"]
assert len(unw) == od["unwound_entries"], "unwound %d" % len(unw)
for e in unw:
    assert e["ph"] == "X", "unwound entry not a slice"
    end = (e["tid"], round((e["ts"] + e["dur"]) * 1000))
    assert end in ends, "unwound %s ends at no exit" % e["name"]
print("B/E balanced, %d unmatched as instants, %d unwound end at exits, %d open"
      % (inst, len(unw), left))
EOF
$T export $D/host_longjmp.txt --perfetto "$W/lj.json" --ctf "$W/lj.ctf" 2>/dev/null
t export_json_handbuilt_balanced python3 "$W/jcheck.py" "$W/lj.json" 16
t export_json_names_from_symmap grep -q '"name":"Main","ph":"B"' "$W/lj.json"
xz -dc $D/lua_errors_t10.txt.xz | head -300000 > "$W/le.txt"
$T export "$W/le.txt" --perfetto "$W/le.json" --ctf "$W/le.ctf" 2>"$W/le.log"
n=$(records "$W/le.txt" | wc -l)
t export_json_lua_errors_balanced python3 "$W/jcheck.py" "$W/le.json" "$n"
t export_lua_errors_has_unwound bash -c "grep -q '[1-9][0-9]* entries unwound' '$W/le.log'"
babeltrace2 "$W/le.ctf" > "$W/le.bt" 2>"$W/bt.err"
got=$(wc -l < "$W/le.bt")
t export_ctf_babeltrace2_event_count test "$got" = "$n"
e_want=$(records "$W/le.txt" | awk '$2 == "E"' | wc -l)
e_got=$(grep -c ' func_entry: ' "$W/le.bt")
t export_ctf_entry_count test "$e_want" = "$e_got"
$T export - --perfetto "$W/le_in.json" --ctf "$W/le_in.ctf" < "$W/le.txt" 2>/dev/null
t export_stdin_same_as_file bash -c "cmp <(grep -v '\"source\"\|process_name' '$W/le.json') <(grep -v '\"source\"\|process_name' '$W/le_in.json') && cmp '$W/le.ctf/stream_0' '$W/le_in.ctf/stream_0'"
babeltrace2 "$W/lj.ctf" > "$W/lj.bt" 2>&1
t export_ctf_fields_os grep -q 'os: { cpu_id = -1, tid = -1, thread = 0 }, { type = 2, value = 19, type_name = "irq_handler_entry" }' "$W/lj.bt"
t export_ctf_fields_lost grep -q 'lost: { cpu_id = -1, tid = -1, thread = 0 }, { count = 3 }' "$W/lj.bt"
t export_ctf_unmatched_flag grep -q 'func_exit: { cpu_id = -1, tid = -1, thread = 0 }, { fid = 9, matched = 0, name = "h", addr = 0 }' "$W/lj.bt"
t export_ctf_unwound_flag grep -q 'func_entry: { cpu_id = -1, tid = -1, thread = 0 }, { fid = 3, matched = 3, name = "C", addr = 0 }' "$W/lj.bt"
# time: record 7 of host_longjmp is at tick 1000 = 10 us
t export_ctf_timestamps grep -q '^\[00:00:00.000010000\] .* fid = 5, matched = 1, name = "f"' "$W/lj.bt"

# ---- capture library on the bundled workload -------------------------------
WL=build/wl/wl
if [ -x $WL ] && [ -x build/wl/wl_plain ]; then
  plain=$(build/wl/wl_plain -n 16 -e 500)
  inst=$(TRC_CAPTURE_OUT="$W/wl.txt" $WL -n 16 -e 500 2>"$W/wl.log")
  t capture_same_output test "$plain" = "$inst"
  t capture_roundtrip_through_codec bash -c "$T compress '$W/wl.txt' '$W/wl.trc' && $T decompress '$W/wl.trc' - | cmp - <(grep -v '^#' '$W/wl.txt')"
  bad=""
  for f in main wl_sort partition wl_calc primary; do
    a=$(awk -v f=$f '$2 == f {print $5}' "$W/wl.sym")
    b=$(nm build/wl/wl | awk -v f=$f '$3 == f {print "0x" $1}' | sed 's/0x0*/0x/')
    [ -n "$a" ] && [ "$a" = "$b" ] || bad="$bad $f:$a/$b"
  done
  t capture_symmap_matches_nm test -z "$bad"
  id=$(awk '$2 == "wl_calc" {print $1}' "$W/wl.sym")
  ne=$(awk -v i="$id" '$2 == "E" && $3 == i' "$W/wl.txt" | wc -l)
  nx=$(awk -v i="$id" '$2 == "X" && $3 == i' "$W/wl.txt" | wc -l)
  [ "$ne" = 500 ] && t capture_calls_counted test "$nx" = 500
  t capture_timebase_in_trace_and_symmap bash -c "grep -q '^# trc-timebase clock=monotonic tick_ns=10 t0_ns=' '$W/wl.txt' && grep -q '^# trc-timebase' '$W/wl.sym'"
  t capture_calltree_names bash -c "$T calltree '$W/wl.txt' --depth 2 2>/dev/null | grep -q '^  run ('"
  TRC_CAPTURE_OUT="$W/wl3.txt" $WL -n 8 -e 100 -t 3 >/dev/null 2>&1
  th=$(awk '$2 == "O" && $3 == 7 {print $4}' "$W/wl3.txt" | sort -u | tr '\n' ' ')
  t capture_threads_records test "$th" = "0 1 2 3 "
  nrun=$($T calltree "$W/wl3.txt" 2>/dev/null | grep -c '^run (')
  t capture_threads_calltree test "$nrun" = 3
  $T export "$W/wl3.txt" --perfetto "$W/wl3.json" 2>/dev/null
  t capture_threads_json_balanced python3 "$W/jcheck.py" "$W/wl3.json" "$(records "$W/wl3.txt" | wc -l)"
  TRC_CAPTURE_OUT="$W/wlc.trc" $WL -n 16 -e 500 >/dev/null 2>&1
  a=$($T decompress "$W/wlc.trc" - 2>/dev/null | wc -l); b=$(records "$W/wl.txt" | wc -l)
  t capture_writes_trc test "$a" = "$b"
  TRC_CAPTURE_OUT="$W/wlt.txt" TRC_CAPTURE_TICK_NS=1000 $WL -n 16 -e 500 >/dev/null 2>&1
  t capture_tick_option grep -q 'tick_ns=1000 ' "$W/wlt.txt"
  # merge a capture with OS events 1 us after its start, through its .sym
  t0=$(sed -n 's/^# trc-timebase.* t0_ns=\([0-9]*\).*/\1/p' "$W/wl.sym")
  ts=$(python3 -c "t=$t0+1000; print('%d.%09d' % (t // 10**9, t % 10**9))")
  echo "  x-1 [000] d..2. $ts: sched_switch: prev_comm=a prev_pid=1 prev_prio=1 prev_state=R ==> next_comm=b next_pid=77 next_prio=1" > "$W/one.ftrace"
  records "$W/wl.txt" > "$W/wl_bare.txt"; cp "$W/wl.sym" "$W/wl_bare.sym"
  $T import-ftrace "$W/one.ftrace" "$W/wlm.txt" --merge "$W/wl_bare.txt" 2>/dev/null
  at=$(records "$W/wlm.txt" | awk '{s += $1} $2 == "O" {print s; exit}')
  t0m=$(sed -n 's/^# trc-timebase.* t0_ns=\([0-9]*\).*/\1/p' "$W/wlm.txt")
  t capture_merge_with_ftrace_via_symmap test "$((t0m + at * 10))" = "$((t0 + 1000))"
  # the time base is absolute: a probe function prints CLOCK_MONOTONIC read in
  # its body; its entry record's absolute time must be just before it
  cat > "$W/tb.c" <<'EOF'
#include <stdio.h>
#include <time.h>
static unsigned long long mono(void) __attribute__((no_instrument_function));
static unsigned long long mono(void)
{ struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000ull + t.tv_nsec; }
__attribute__((noinline)) void probe(int i) { printf("%d %llu\n", i, mono()); }
__attribute__((noinline)) void spin(void) { volatile unsigned x = 0; for (unsigned i = 0; i < 3000000; i++) x += i; }
int main(void) { for (int i = 0; i < 9; i++) { probe(i); spin(); } return 0; }
EOF
  cat > "$W/tb.py" <<'EOF'
import sys
tr, out = sys.argv[1], sys.argv[2]
names = {int(l.split()[0]): l.split()[1] for l in open(tr[:-4] + ".sym") if not l.startswith("#")}
now, ent = 0, []
for l in open(tr):
    if l.startswith("# trc-timebase"):
        kv = dict(x.split("=") for x in l.split()[2:])
        t0, tick = int(kv["t0_ns"]), int(kv["tick_ns"])
    if l.startswith("#"):
        continue
    d, k, a = l.split()[:3]
    now += int(d)
    if k == "E" and names[int(a)] == "probe":
        ent.append(t0 + now * tick)
diff = [int(l.split()[1]) - e for l, e in zip(open(out), ent)]
print(diff)
# never after the body's own reading; the median close to it: within 50 us,
# far below any timebase error (ticks, t0), and above what a busy CI host
# adds between the hook and the body's clock read (2.2 us seen under load)
assert len(diff) == 9 and min(diff) >= -1000 and sorted(diff)[4] < 50000, "off by %s ns" % diff
EOF
  if cc -O1 -finstrument-functions "$W/tb.c" build/libtrc_capture.a -lpthread -o "$W/tb" 2>"$W/tb.err"; then
    for clk in monotonic tsc; do
      TRC_CAPTURE_CLOCK=$clk TRC_CAPTURE_OUT="$W/tb_$clk.txt" "$W/tb" > "$W/tb_$clk.out" 2>/dev/null
      t capture_timebase_absolute_$clk python3 "$W/tb.py" "$W/tb_$clk.txt" "$W/tb_$clk.out"
    done
  else
    t capture_timebase_program_builds false "$(head -c 200 "$W/tb.err")"
  fi
  TRC_CAPTURE_CLOCK=tsc TRC_CAPTURE_OUT="$W/wltsc.txt" $WL -n 16 -e 500 >/dev/null 2>&1
  t capture_tsc_same_records cmp <(awk '!/^#/ {print $2, $3}' "$W/wl.txt") <(awk '!/^#/ {print $2, $3}' "$W/wltsc.txt")
  # many short threads: no file descriptor per thread, no event lost
  cat > "$W/many.c" <<'EOF'
#include <pthread.h>
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += leaf(i); return s; }
void *body(void *a) { (void)a; work(10); return NULL; }
int main(void)
{
    for (int i = 0; i < 500; i++) { pthread_t t; pthread_create(&t, 0, body, 0); pthread_join(t, 0); }
    return 0;
}
EOF
  if cc -O1 -finstrument-functions "$W/many.c" build/libtrc_capture.a -lpthread -o "$W/many" 2>/dev/null; then
    (ulimit -n 32; TRC_CAPTURE_OUT="$W/many.txt" "$W/many" 2>"$W/many.log")
    e=$(awk '$2 == "E"' "$W/many.txt" | wc -l); x=$(awk '$2 == "X"' "$W/many.txt" | wc -l)
    th=$(awk '$2 == "O" && $3 == 7 {print $4}' "$W/many.txt" | sort -u | wc -l)
    t capture_500_short_threads test "$e $x $th" = "6001 6001 501"
  else
    t capture_500_short_threads false "does not build"
  fi
  # live: real ftrace (private instance, clock mono) around a capture, merged
  rc=0
  TRC_CAPTURE_OUT="$W/live.txt" capture/ftrace_run.sh "$W/live.ftrace" -- $WL -n 16 -e 500 \
    >/dev/null 2>"$W/live.log" || rc=$?
  if [ $rc = 3 ]; then
    echo "# skip live ftrace checks: $(tail -1 "$W/live.log")"
  elif [ $rc != 0 ]; then
    t capture_live_ftrace_run false "$(tail -2 "$W/live.log" | tr '\n' ' ')"
  else
    $T import-ftrace "$W/live.ftrace" "$W/mixed.txt" --merge "$W/live.txt" 2>/dev/null
    t capture_live_ftrace_merge_counts \
      test -z "$(count_mismatches "$W/live.ftrace" "$W/mixed.txt")"
    # every OS record sits at its ftrace time (10 ns ticks); function records unchanged
    python3 - "$W/live.ftrace" "$W/mixed.txt" "$W/live.txt" > "$W/live.chk" 2>&1 <<'EOF'
import re, sys
ft, mixed, cap = sys.argv[1:]
def recs(path):
    t0 = tick = None; now = 0; out = []
    for l in open(path):
        if l.startswith("# trc-timebase"):
            kv = dict(x.split("=") for x in l.split()[2:])
            t0, tick = int(kv["t0_ns"]), int(kv["tick_ns"])
        if l.startswith("#"): continue
        f = l.split(); now += int(f[0]); out.append((t0 // tick + now, f[1:]))
    return out
m = recs(mixed)
os_ticks = [t for t, f in m if f[0] == "O"]
mapped = set(["sched_switch", "irq_handler_entry", "softirq_entry", "sched_wakeup",
              "sched_process_fork", "sched_process_exit"])
want = sorted(int(s) * 10**8 + int((f + "000000000")[:9]) // 10
              for s, f, e in re.findall(r" (\d+)\.(\d+): ([a-z_]+): ", open(ft).read()) if e in mapped)
assert os_ticks == want, "OS record times differ"
assert [f for t, f in m if f[0] != "O"] == [f for t, f in recs(cap)], "function records differ"
assert [t for t, f in m if f[0] != "O"] == [t for t, f in recs(cap)], "function times differ"
print("ok")
EOF
    t capture_live_ftrace_merge_times grep -qx ok "$W/live.chk"
    t capture_live_mixed_has_names bash -c "$T calltree '$W/mixed.txt' --depth 1 2>/dev/null | grep -q '^main ('"
  fi
else
  t capture_workload_built false "run make build/wl/wl build/wl/wl_plain"
fi

# ---- sanitizers: the same commands under ASan/UBSan, plus seeded junk -------
A=build/asan/trc
if [ -x $A ]; then
  python3 - "$W" <<'PY'
import random, sys
w = sys.argv[1]
r = random.Random(5)
# records with random nesting, unmatched exits, threads, lost and OS records
with open(w + "/rand.txt", "w") as f:
    for _ in range(20000):
        k = r.random()
        d = r.choice([0, 1, 7, 300, 2**23 + 5])
        if k < 0.45: f.write("%d E %d\n" % (d, r.randrange(40)))
        elif k < 0.9: f.write("%d X %d\n" % (d, r.randrange(40)))
        elif k < 0.95: f.write("%d O 7 %d\n" % (d, r.randrange(4)))
        elif k < 0.98: f.write("%d O %d %d\n" % (d, r.randrange(1, 10), r.randrange(65536)))
        else: f.write("%d L %d\n" % (d, r.randrange(1, 9)))
# ftrace-like junk: cut and shuffled pieces of real-looking lines
base = ("  a-1 [000] d..2. 1.000001: sched_switch: prev_comm=a prev_pid=1 "
        "prev_prio=1 prev_state=R ==> next_comm=b next_pid=99999999999 next_prio=1")
with open(w + "/junk.ftrace", "w") as f:
    for i in range(3000):
        s = list(base)
        for _ in range(r.randrange(4)):
            p = r.randrange(len(s)); s[p] = r.choice("[]:=-. 0123456789xX\t")
        f.write("".join(s[:r.randrange(len(s) + 1)]) + "\n")
PY
  san() { local n=$1; shift; t "$n" no_sanitizer_report "$@"; }
  san asan_calltree_random $A calltree "$W/rand.txt" --calls
  printf "m1 0 1 2 3\nm2 4 5 6 7 8\n" > "$W/rand.mod"
  san asan_calltree_random_methods $A calltree "$W/rand.txt" --min-fraction 0.6 --modules "$W/rand.mod"
  san asan_calltree_bad_module_map $A calltree $D/host_fig1.txt --modules $D/host_fig1.mod --syms /dev/null
  san asan_export_random $A export "$W/rand.txt" --perfetto "$W/rand.json" --ctf "$W/rand.ctf"
  t asan_export_random_balanced python3 "$W/jcheck.py" "$W/rand.json" 20000
  n=$(babeltrace2 "$W/rand.ctf" 2>/dev/null | wc -l)
  t ctf_random_babeltrace2 test "$n" = 20000
  san asan_import_ftrace_junk $A import-ftrace "$W/junk.ftrace" "$W/junk.txt"
  san asan_import_ftrace_merge $A import-ftrace $D/host_ftrace.txt "$W/m.trc" --merge $D/host_cap.txt
  san asan_calltree_fig1 $A calltree $D/host_fig1.txt --modules $D/host_fig1.mod --min-fraction 0.5
fi
if [ -x $A ]; then
  san asan_import_ftrace_bad_merge $A import-ftrace $D/host_ftrace.txt - --merge "$W/no-such-file" --merge-t0 5
  san asan_export_missing_input $A export "$W/no-such-file" --perfetto "$W/x.json"
  san asan_calltree_missing_input $A calltree "$W/no-such-file"
fi

# ---- import-ftrace on real `trace-cmd report` output -------------------------
R=$D/host_tracecmd_report.txt
$T import-ftrace $R "$W/tc.txt" 2>"$W/tc.log"
bad=""
for ev in "${!type[@]}"; do
  want=$(grep -c " $ev: " $R)
  got=$(awk -v t="${type[$ev]}" '$2 == "O" && $3 == t' "$W/tc.txt" | wc -l)
  [ "$want" = "$got" ] || bad="$bad $ev:$want/$got"
done
t ftrace_tracecmd_counts_match_grep test -z "$bad"
sed -n 's/.* sched_switch: .* ==> [^ ]*:\([0-9]*\) .*/\1/p' $R > "$W/tc_want"
awk '$2 == "O" && $3 == 1 {print $4}' "$W/tc.txt" > "$W/tc_got"
[ -s "$W/tc_want" ] && t ftrace_tracecmd_switch_values diff "$W/tc_want" "$W/tc_got" \
  || t ftrace_tracecmd_switch_values false "no sched_switch lines found"
sed -n 's/.* sched_wakeup: *[^ ]*:\([0-9]*\) .*/\1/p' $R > "$W/tcw_want"
awk '$2 == "O" && $3 == 4 {print $4}' "$W/tc.txt" > "$W/tcw_got"
[ -s "$W/tcw_want" ] && t ftrace_tracecmd_wakeup_values diff "$W/tcw_want" "$W/tcw_got" \
  || t ftrace_tracecmd_wakeup_values false "no sched_wakeup lines found"
