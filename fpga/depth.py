#!/usr/bin/env python3
"""Logic depth in front of every flop and RAM input of an ECP5 netlist.

  depth.py NET.json [N [FILTER [-v]]]

NET.json: the flat netlist that `flow.py wrap DESIGN ecp5 OUT.json` writes
beside OUT.json (OUT.net.json). Prints a histogram of the endpoints' depths
(in half levels) and the N deepest endpoints (40), each with the flop or RAM
output its deepest path starts at; FILTER keeps the endpoints whose name or
start contains it; -v lists the nets along the path. A depth counts LUT4s,
carry cells (CCU2C: 1 on entry, 0.1 along the chain), LUT RAM reads (1) and
the slice's wide muxes (PFUMX, L6MUX21: 0.15, as they add no net). It
ignores placement: it is a guide to where the routed critical paths may come
from (their nets cost 0.3 to 2 ns each on ECP5-8, their LUTs 0.18 ns), not a
timing figure; nextpnr's report is that. Paths from the top's ports are left
out (nextpnr times them as another domain).
"""
import collections
import json
import sys

WEIGHT = {"LUT4": 1.0, "PFUMX": 0.15, "L6MUX21": 0.15, "CCU2C": 1.0,
          "TRELLIS_DPR16X4": 1.0}
RAD = ("RAD0", "RAD1", "RAD2", "RAD3")


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[1]) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("depth.py: %s: %s\n" % (argv[1], e))
        return 1
    n = int(argv[2]) if len(argv) > 2 else 40
    flt = argv[3] if len(argv) > 3 else ""
    verbose = len(argv) > 4 and argv[4] == "-v"
    tops = [m for m in d.get("modules", {}).values()
            if m.get("attributes", {}).get("top")]
    if len(tops) != 1:
        sys.stderr.write("depth.py: %s: no single top module\n" % argv[1])
        return 1
    cells = tops[0]["cells"]
    names = {}
    for nm, net in tops[0]["netnames"].items():
        for b in net["bits"]:
            if isinstance(b, int) and (b not in names or len(nm) < len(names[b])):
                names[b] = nm
    drv = {}
    for cn, c in cells.items():
        for p, dirn in c["port_directions"].items():
            if dirn == "output":
                for b in c["connections"][p]:
                    drv[b] = cn
    memo = {}
    none = (-99.0, None, [])

    def dep(bit):
        # (depth, start, nets) of the deepest path ending at bit
        if not isinstance(bit, int) or bit not in drv:
            return none                      # a port or a constant
        if bit in memo:
            return memo[bit]
        c = cells[drv[bit]]
        t = c["type"]
        if t not in WEIGHT:                  # a flop, a block RAM, a kept module
            r = (0.0, names.get(bit, drv[bit]), [])
        else:
            memo[bit] = none                 # (no combinational loops)
            r = none
            for q, dd in c["port_directions"].items():
                if dd != "input" or t == "TRELLIS_DPR16X4" and q not in RAD:
                    continue
                w = 0.1 if t == "CCU2C" and q == "CIN" else WEIGHT[t]
                for b in c["connections"][q]:
                    x = dep(b)
                    if x[0] + w > r[0]:
                        r = (x[0] + w, x[1], x[2] + [names.get(bit, drv[bit])])
        memo[bit] = r
        return r

    sys.setrecursionlimit(100000)
    ends = []
    for cn, c in cells.items():
        if c["type"] in WEIGHT and c["type"] != "TRELLIS_DPR16X4":
            continue
        for q, dd in c["port_directions"].items():
            if dd != "input" or q.startswith("CLK"):
                continue
            for b in c["connections"][q]:
                x = dep(b)
                if x[1] is not None:
                    ends.append((x[0], cn + "." + q, x[1], x[2]))
    ends.sort(key=lambda e: -e[0])
    hist = collections.Counter(int(e[0] * 2) / 2 for e in ends)
    print("depth: endpoints " + ", ".join("%.1f: %d" % kv for kv in
                                          sorted(hist.items(), reverse=True)[:8]))
    k = 0
    for e in ends:
        if flt and flt not in e[1] and flt not in e[2]:
            continue
        if k >= n:
            break
        print("%.2f %s <- %s" % (e[0], e[1], e[2]))
        for s in e[3] if verbose else ():
            print("       " + s)
        k += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
