#!/usr/bin/env bash
# Runs a command while the kernel's ftrace records the OS events that
# `trc import-ftrace` maps (scheduler switches and wakeups, process fork and
# exit, hard and soft interrupts) on CLOCK_MONOTONIC ("mono"), the clock of
# the capture library, and writes the raw tracefs `trace` text.
# It uses a private ftrace instance (instances/trc_PID), so the global trace
# buffer and its settings are left alone; the instance is removed at the end.
# Needs root and tracefs (mounted on /sys/kernel/tracing if it is not).
# Exit status: the command's; 3 when ftrace cannot be used here.
#
# usage: capture/ftrace_run.sh OUT.ftrace [--cpu N] -- COMMAND [ARGS...]
#   --cpu N  pins the command to CPU N (taskset) and keeps the trace of all CPUs
#            (import with `trc import-ftrace --cpu N` to keep that CPU only)
set -uo pipefail
out=${1:?usage: ftrace_run.sh OUT.ftrace [--cpu N] -- COMMAND...}
shift
cpu=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --cpu) cpu=$2; shift 2 ;;
    *) echo "ftrace_run: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "ftrace_run: no command" >&2; exit 2; }

T=/sys/kernel/tracing
if [ ! -e $T/instances ]; then
  if [ "$(id -u)" = 0 ] && [ -d $T ]; then
    mount -t tracefs nodev $T 2>/dev/null
  fi
fi
if [ ! -w $T/instances ]; then
  echo "ftrace_run: tracefs is not usable here (needs root and $T)" >&2
  exit 3
fi
I=$T/instances/trc_$$
if ! mkdir "$I" 2>/dev/null; then
  echo "ftrace_run: cannot create an ftrace instance in $T/instances" >&2
  exit 3
fi
cleanup() { echo 0 > "$I/tracing_on" 2>/dev/null; rmdir "$I" 2>/dev/null; }
trap cleanup EXIT

echo mono > "$I/trace_clock"
echo 8192 > "$I/buffer_size_kb" 2>/dev/null || true
# the exits give the irq and softirq slices of `trc export` their length
for ev in sched/sched_switch sched/sched_wakeup sched/sched_process_fork \
          sched/sched_process_exit irq/irq_handler_entry irq/softirq_entry \
          irq/irq_handler_exit irq/softirq_exit; do
  [ -e "$I/events/$ev/enable" ] && echo 1 > "$I/events/$ev/enable"
done
echo "ftrace_run: recording sched/irq events (clock mono) while running: $*" >&2
echo 1 > "$I/tracing_on"
if [ -n "$cpu" ]; then
  taskset -c "$cpu" "$@"
else
  "$@"
fi
rc=$?
echo 0 > "$I/tracing_on"
cat "$I/trace" > "$out"
n=$(grep -vc '^#' "$out")
lost=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\2 - \1/p' "$out")
echo "ftrace_run: $n events -> $out${lost:+ (written - kept: $((lost)))}" >&2
exit $rc
