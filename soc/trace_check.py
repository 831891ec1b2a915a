#!/usr/bin/env python3
"""trace_check.py TRACE.txt SYMS.sym UART.log [--open NAMES] [--type-bits 7] [--fid-bits 15]

The independent check of a trc_soc run (docs/soc.md). TRACE.txt is the
decoded trace (trace text v1, `trc decompress`), SYMS.sym the firmware's
symbol map (soc/elf_symmap.py), UART.log what the firmware printed. For every
"count NAME N" line of the firmware, the trace must hold exactly N entries of
function NAME, or for "count os:irq N" / "os:iret" / "os:T" exactly N OS
records of trc_rvfi's IRQ / IRET type or of type T. The call tree must be
balanced: every exit leaves the function on top of the replayed call stack,
no exit carries the reserved id, no GAP record, and the entries still open
at the end are exactly NAMES (comma-separated; default main,exit,_exit: the
firmware ends inside _exit). Prints one line per check; exit status 1 on
any failure, 2 on bad usage or unreadable input."""
import sys


def main(argv):
    args = argv[1:]
    opt = {"--open": "main,exit,_exit", "--type-bits": "7", "--fid-bits": "15"}
    pos = []
    while args:
        a = args.pop(0)
        if a in opt and args:
            opt[a] = args.pop(0)
        else:
            pos.append(a)
    if len(pos) != 3:
        sys.stderr.write(__doc__)
        return 2
    tpath, spath, upath = pos
    tw, fw = int(opt["--type-bits"]), int(opt["--fid-bits"])
    t_irq, t_iret, t_trap, t_gap = (1 << tw) - 5, (1 << tw) - 6, (1 << tw) - 7, (1 << tw) - 8
    unknown = (1 << fw) - 1
    try:
        names = {}
        for ln, line in enumerate(open(spath), 1):
            f = line.split()
            if f and not f[0].startswith("#"):
                names[int(f[0])] = f[1]
        want = []
        for line in open(upath, errors="replace"):
            f = line.split()
            if len(f) == 3 and f[0] == "count":
                want.append((f[1], int(f[2])))
        entries, os_n = {}, {}
        stack, bad, n_unknown, n_rec = [], [], 0, 0
        for ln, line in enumerate(open(tpath), 1):
            f = line.split()
            if not f or f[0].startswith("#"):
                continue
            n_rec += 1
            kind = f[1]
            if kind == "E":
                fid = int(f[2])
                entries[fid] = entries.get(fid, 0) + 1
                stack.append(fid)
            elif kind == "X":
                fid = int(f[2])
                if fid == unknown:
                    n_unknown += 1
                elif not stack or stack[-1] != fid:
                    bad.append("%s:%d: exit of %s, the top is %s" % (
                        tpath, ln, names.get(fid, fid),
                        names.get(stack[-1], stack[-1]) if stack else "nothing"))
                else:
                    stack.pop()
            elif kind == "O":
                ty = int(f[2])
                os_n[ty] = os_n.get(ty, 0) + 1
            elif kind == "L":
                bad.append("%s:%d: LOST record (%s records)" % (tpath, ln, f[2]))
    except (OSError, ValueError, IndexError) as e:
        sys.stderr.write("trace_check: %s\n" % e)
        return 2
    by_name = {}
    for fid, n in entries.items():
        by_name[names.get(fid, "fn_%d" % fid)] = n
    fails = 0
    if not want:
        print("not ok firmware printed no counts (%s)" % upath)
        fails += 1
    for name, n in want:
        if name.startswith("os:"):
            t = name[3:]
            ty = {"irq": t_irq, "iret": t_iret, "trap": t_trap}.get(t)
            got = os_n.get(ty if ty is not None else int(t), 0)
        else:
            got = by_name.get(name, 0)
        ok = got == n
        fails += not ok
        print("%s count %s: firmware %d, trace %d" % ("ok" if ok else "not ok", name, n, got))
    for b in bad[:5]:
        print("not ok balance: " + b)
    fails += len(bad)
    if n_unknown:
        print("not ok %d exits with the reserved id (shadow stack overflow or unknown)"
              % n_unknown)
        fails += 1
    if os_n.get(t_gap):
        print("not ok %d GAP records (trc_rvfi lost events)" % os_n[t_gap])
        fails += 1
    left = [names.get(x, str(x)) for x in stack]
    ok = left == opt["--open"].split(",")
    fails += not ok
    print("%s open at the end: %s (expected %s)" % ("ok" if ok else "not ok",
                                                    ",".join(left) or "-", opt["--open"]))
    print("%s %d records, %d entries, %d exits balanced, %d OS records" % (
        "ok" if not fails else "not ok", n_rec, sum(entries.values()),
        sum(entries.values()) - len(stack), sum(os_n.values())))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
