#!/usr/bin/env python3
"""mp_check.py TRACE.txt UART_PREFIX NCPU [--markers] [--type-bits 7]

The independent check of a trc_mpsoc run (docs/soc.md, "Several CPUs"), from
the decoded trace alone: TRACE.txt is `trc decompress` of the stream (trace
text v1 with the CPU column: each line's delta counts from the previous
record of the same CPU, all on one time base), UART_PREFIX + k + ".log" what
CPU k printed.

  lock:    each CPU brackets its hold of the shared lock with the OS records
           LOCK (type 4) and FREE (type 5); the intervals [LOCK, FREE] of all
           CPUs, in absolute time, never overlap, every LOCK has its FREE,
           and each CPU took the lock as often as its firmware counted.
  markers: the marker records (type 2^TYPE_W - 9, trc_mpcore's) are the same
           list in every CPU's trace: the k-th has one time and one value on
           all of them, so each appears once per CPU at one time; their
           number is the sum of the "mp cpu K ... marks N" lines.

With --markers the marker table is printed (time, value, who raised it).
Prints one "ok ..." / "not ok ..." line per check; exit status 1 on any
failure, 2 on bad usage or unreadable input."""
import sys

T_LOCK, T_FREE = 4, 5


def main(argv):
    args = argv[1:]
    show = "--markers" in args
    args = [a for a in args if a != "--markers"]
    tw = 7
    if "--type-bits" in args:
        i = args.index("--type-bits")
        tw = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.stderr.write(__doc__)
        return 2
    tpath, uprefix, ncpu = args[0], args[1], int(args[2])
    t_mark = (1 << tw) - 9
    try:
        now = [0] * ncpu
        held, marks = [], [[] for _ in range(ncpu)]
        open_at = [None] * ncpu
        bad = []
        for ln, line in enumerate(open(tpath), 1):
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            cpu = int(f[-1][1:]) if f[-1].startswith("@") else 0
            if cpu >= ncpu:
                bad.append("%s:%d: CPU %d of %d" % (tpath, ln, cpu, ncpu))
                continue
            now[cpu] += int(f[0])
            if f[1] != "O":
                continue
            ty, val = int(f[2]), int(f[3])
            if ty == T_LOCK:
                if open_at[cpu] is not None:
                    bad.append("%s:%d: CPU %d takes the lock it holds" % (tpath, ln, cpu))
                open_at[cpu] = now[cpu]
            elif ty == T_FREE:
                if open_at[cpu] is None:
                    bad.append("%s:%d: CPU %d frees a lock it does not hold" % (tpath, ln, cpu))
                else:
                    held.append((open_at[cpu], now[cpu], cpu))
                    open_at[cpu] = None
            elif ty == t_mark:
                marks[cpu].append((now[cpu], val))
        want_takes, want_marks = {}, 0
        for k in range(ncpu):
            for line in open("%s%d.log" % (uprefix, k), errors="replace"):
                f = line.split()
                if len(f) == 3 and f[:2] == ["count", "lock_take"]:
                    want_takes[k] = int(f[2])
                if len(f) >= 7 and f[:2] == ["mp", "cpu"] and f[5] == "marks":
                    want_marks += int(f[6])
    except (OSError, ValueError, IndexError) as e:
        sys.stderr.write("mp_check: %s\n" % e)
        return 2
    fails = 0
    for b in bad[:5]:
        print("not ok " + b)
    fails += len(bad)
    still = [k for k in range(ncpu) if open_at[k] is not None]
    if still:
        print("not ok lock still held at the end by CPU %s" % ",".join(map(str, still)))
        fails += 1
    held.sort()
    overlaps = [(a, b) for a, b in zip(held, held[1:]) if b[0] <= a[1]]
    for a, b in overlaps[:5]:
        print("not ok lock held by CPU %d (%d..%d) and CPU %d (%d..%d) at once"
              % (a[2], a[0], a[1], b[2], b[0], b[1]))
    fails += len(overlaps)
    takes = [sum(1 for h in held if h[2] == k) for k in range(ncpu)]
    for k in range(ncpu):
        ok = takes[k] == want_takes.get(k, -1)
        fails += not ok
        print("%s lock: CPU %d took it %d times (firmware %s)" % (
            "ok" if ok else "not ok", k, takes[k], want_takes.get(k, "-")))
    if not overlaps:
        gap = min((b[0] - a[1] for a, b in zip(held, held[1:])), default=0)
        print("ok lock: %d holds by %d CPUs, never two at once (closest: %d ticks apart)"
              % (len(held), ncpu, gap))
    same = all(m == marks[0] for m in marks)
    ok = same and len(marks[0]) == want_marks and want_marks > 0
    fails += not ok
    if not same:
        k = next(k for k in range(ncpu) if marks[k] != marks[0])
        i = next((i for i, (a, b) in enumerate(zip(marks[0], marks[k])) if a != b),
                 min(len(marks[0]), len(marks[k])))
        print("not ok markers: CPU %d's differ from CPU 0's at marker %d (%s vs %s)" % (
            k, i, marks[0][i] if i < len(marks[0]) else "none",
            marks[k][i] if i < len(marks[k]) else "none"))
    else:
        print("%s markers: %d in every CPU's trace, each at one time (firmware raised %d)"
              % ("ok" if ok else "not ok", len(marks[0]), want_marks))
    if show and same:
        print("marker  time (ticks)  value   raised by")
        for i, (t, v) in enumerate(marks[0]):
            who = "pin" if v >= 0xf000 else "CPU %d" % (v >> 12)
            print("%6d  %12d  0x%04x  %s" % (i, t, v, who))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
