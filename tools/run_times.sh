#!/usr/bin/env bash
# Measures how long the project's long commands take on this machine and
# writes reports/run_times.md: wall and CPU (user + sys, summed over every
# process) time, exit status, the load average around each run, and the
# machine. tools/doc_figures.py (make readme) copies the figures into the
# docs. usage: tools/run_times.sh [NAME...] (default: all of the list below)
set -u
cd "$(dirname "$0")/.."
declare -A cmd=(
  [lint]="make lint"
  [fpga-quick]="make fpga-quick"
  [check]="make check"
  [verilator-build]="rm -rf build/sim/enc_nd2 && make build/sim/enc_nd2/Vtrc_sim_enc"
  [t_context]="tests/run.sh tests/t_context.sh"
  [t_docs]="tests/run.sh tests/t_docs.sh"
  [fpga]="make fpga"
  [stack-report]="make stack-report"
  [test]="make test"
)
order=(lint fpga-quick check verilator-build t_context t_docs)  # fpga, test, stack-report: by name
[ $# -gt 0 ] && order=("$@")
out=reports/run_times.md
mkdir -p build/tmp
log=build/tmp/run_times
mkdir -p $log
for n in "${order[@]}"; do
  [ -n "${cmd[$n]:-}" ] || { echo "run_times: unknown $n" >&2; exit 2; }
  l0=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o $log/$n.time bash -c "${cmd[$n]}" > $log/$n.log 2>&1
  rc=$?
  l1=$(cut -d' ' -f1 /proc/loadavg)
  read -r wall user sys < <(tail -1 $log/$n.time)
  echo "$n|${cmd[$n]}|$wall|$(python3 -c "print(round($user + $sys, 1))")|$rc|$l0 / $l1|$(date -u +%Y-%m-%d)" >> $log/rows
  echo "run_times: $n: ${wall} s wall, $(python3 -c "print(round($user + $sys, 1))") s CPU, exit $rc"
done
# the table keeps the last measurement of each name
python3 - "$log/rows" "$out" <<'EOF'
import os, subprocess, sys
rows = {}
if os.path.exists(sys.argv[2]):
    for line in open(sys.argv[2]):
        if line.startswith("| ") and not line.startswith("| name") :
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if len(c) == 7 and c[0] and not set(c[0]) <= {"-"}:
                rows[c[0]] = [c[1].strip("`")] + c[2:]
for line in open(sys.argv[1]):
    c = line.rstrip("\n").split("|")
    rows[c[0]] = c[1:]
cpu = subprocess.run(["sh", "-c", "lscpu | sed -n 's/^Model name: *//p'"],
                     capture_output=True, text=True).stdout.strip()
ncpu = os.cpu_count()
mem = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write("# Run times of the long commands\n\n"
            "Made by `tools/run_times.sh` (one run each, after the builds they need\n"
            "were made, except `verilator-build`, which is one Verilator harness\n"
            "built from nothing). Machine: %s, %d CPUs, %d GiB, shared with other\n"
            "jobs: the load average before / after each run says how much. CPU time\n"
            "is user + sys of every process (`/usr/bin/time`), the figure that the\n"
            "load changes least; wall time is what a user waits. `tools/doc_figures.py`\n"
            "(`make readme`) copies these figures into the docs.\n\n"
            "| name | command | wall s | CPU s | exit | load before / after | date |\n"
            "|---|---|---:|---:|---:|---|---|\n" % (cpu, ncpu, mem))
    for n, c in rows.items():
        f.write("| %s | `%s` | %s |\n" % (n, c[0], " | ".join(c[1:])))
os.replace(sys.argv[2] + ".tmp", sys.argv[2])
EOF
rm -f $log/rows
echo "run_times: $out"
