#!/usr/bin/env python3
"""Structural clock-domain-crossing check of a trc top, on Yosys's netlist.

  cdc_check.py TOP [--json NETLIST.json] [-v]

TOP: trc_evcdc (the dual-clock front end; trc_core_dc adds only trc_core,
on one clock), trc_core_dc, trc_afifo, or trc_cdc_bad (sim/trc_cdc_bad.v,
made to fail).

Yosys reads trc.core's rtl file set, elaborates TOP (proc, flatten, memory
-nomap: no optimisation that would rename or merge flops) and writes its
netlist as JSON; this script then follows every flop's and RAM port's inputs
back through the combinational logic to the flops, RAM ports and top inputs
that drive them, and so finds each signal that crosses from one clock to
another. The rules:

  - a crossing may only enter the first flop of a synchronizer: a bit of a
    wire named sync_q (rtl/trc_sync.v), driven straight from one flop of
    the other clock, with no logic between (logic there could glitch, and
    bits through separate logic could be sampled apart);
  - a RAM may be written on one clock and read on another only inside
    trc_afifo (its pointer protocol keeps a read away from the words being
    written);
  - every input of TOP belongs to the clock listed for it below.

Prints each crossing and what it is, then "cdc_check: N crossings, K
violations"; exits 1 on any violation, or when TOP has no crossing at all
(the check would then be checking nothing). This is a structural check: that
a synchronized multi-bit value is Gray-coded (one bit changes per clock) is
checked by the RTL's assertions in simulation (tests/t_cdc.sh).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import corefiles  # noqa: E402

# top -> {clock input: [inputs sampled on it]}
TOPS = {
    "trc_core_dc": {
        "ev_clk": ["ev_valid", "ev_os", "ev_info", "flush"],
        "clk": ["rst", "m_axis_tready"],
    },
    "trc_evcdc": {
        "ev_clk": ["ev_valid", "ev_os", "ev_info", "ev_flush"],
        "clk": ["rst", "o_drop"],
    },
    # sim/trc_cdc_bad.v: crossings done wrong, which the check must find
    "trc_cdc_bad": {
        "a_clk": ["a_d"],
        "b_clk": [],
    },
    "trc_afifo": {
        "s_clk": ["s_axis_tdata", "s_axis_tvalid"],
        "m_clk": ["m_rst", "m_axis_tready"],
    },
}

FLOP_PREFIX = ("$dff", "$sdff", "$adff", "$aldff", "$dffe", "$sdffe", "$sdffce",
               "$adffe", "$dffsr", "$dffsre", "$aldffe")


def netlist(top, path):
    core = corefiles.load()
    files = corefiles.files(core, ["rtl"] + (["cdc_bad"] if top == "trc_cdc_bad" else []))
    inc = corefiles.incdirs(core, ["rtl"])
    script = ("read_verilog -defer %s %s; hierarchy -top %s; proc; flatten; opt_clean; "
              "memory -nomap; opt_clean; write_json %s"
              % (" ".join("-I" + d for d in inc), " ".join(files), top, path))
    subprocess.run(["yosys", "-q", "-p", script], cwd=ROOT, check=True)
    with open(path) as f:
        return json.load(f)["modules"][top]


def check(top, mod, verbose=False):
    names = {}                          # bit -> a wire name (shortest)
    for name, nn in mod["netnames"].items():
        for i, b in enumerate(nn["bits"]):
            if isinstance(b, int):
                label = "%s[%d]" % (name, i) if len(nn["bits"]) > 1 else name
                if b not in names or len(label) < len(names[b]):
                    names[b] = label
    wire_of = {}                        # bit -> every wire name it is part of
    for name, nn in mod["netnames"].items():
        for b in nn["bits"]:
            if isinstance(b, int):
                wire_of.setdefault(b, []).append(name)

    ports = mod["ports"]
    clock_of_input = {}
    for clk, ins in TOPS[top].items():
        for p in ins:
            for b in ports[p]["bits"]:
                clock_of_input[b] = clk
    clock_name = {ports[c]["bits"][0]: c for c in TOPS[top]}

    driver = {}                         # bit -> (kind, cell name, clock or None)
    comb_inputs = {}                    # comb cell -> its input bits
    sinks = []                          # (what, cell, port, bits, clock)
    for cname, cell in mod["cells"].items():
        t = cell["type"]
        conn = cell["connections"]
        dirs = cell.get("port_directions", {})
        if t.startswith(FLOP_PREFIX):
            clk = clock_name.get(conn["CLK"][0], "net %s" % conn["CLK"][0])
            for b in conn["Q"]:
                driver[b] = ("flop", cname, clk)
            for port, bits in conn.items():
                if port not in ("CLK", "Q"):
                    sinks.append(("flop", cname, port, bits, clk))
        elif t == "$mem_v2":
            prm = cell["parameters"]
            nw, nr = int(prm["WR_PORTS"], 2), int(prm["RD_PORTS"], 2)
            wclk = [clock_name.get(b, "net %s" % b) for b in conn["WR_CLK"]]
            rclk = [clock_name.get(b, "net %s" % b) for b in conn["RD_CLK"]]
            rclocked = prm["RD_CLK_ENABLE"]
            width = int(prm["WIDTH"], 2)
            abits = int(prm["ABITS"], 2)
            for port in ("WR_DATA", "WR_ADDR", "WR_EN"):
                per = len(conn[port]) // nw
                for k in range(nw):
                    sinks.append(("ram write", cname, port, conn[port][k * per:(k + 1) * per],
                                  wclk[k]))
            for k in range(nr):
                clocked = rclocked[-1 - k] == "1"
                addr = conn["RD_ADDR"][k * abits:(k + 1) * abits]
                data = conn["RD_DATA"][k * width:(k + 1) * width]
                if clocked:
                    sinks.append(("ram read", cname, "RD_ADDR", addr, rclk[k]))
                for b in data:
                    driver[b] = ("ram", cname, rclk[k] if clocked else None)
                if not clocked:     # asynchronous read: data follow the address
                    for b in data:
                        comb_inputs.setdefault(("ramrd", cname, k), addr)
                        driver[b] = ("comb", ("ramrd", cname, k), None)
            rams = set(wclk) | set(rclk[k] for k in range(nr) if rclocked[-1 - k] == "1")
            if len(rams) > 1:
                sinks.append(("ram contents", cname, "", [], tuple(sorted(rams))))
        else:
            ins = [b for p, bits in conn.items() if dirs.get(p) == "input" for b in bits]
            for p, bits in conn.items():
                if dirs.get(p) == "output":
                    for b in bits:
                        driver[b] = ("comb", cname, None)
            comb_inputs[cname] = ins

    memo = {}

    def sources(bit):
        """{(kind, name, clock)} of the flops, RAMs and inputs behind bit."""
        if not isinstance(bit, int):
            return frozenset()
        if bit in memo:
            return memo[bit]
        memo[bit] = frozenset()         # (no combinational loops in the RTL)
        d = driver.get(bit)
        if d is None:
            clk = clock_of_input.get(bit)
            res = frozenset([("input", names.get(bit, str(bit)), clk)]) if bit not in clock_name \
                else frozenset()
        elif d[0] == "comb":
            res = frozenset()
            for b in comb_inputs[d[1]]:
                res |= sources(b)
        else:
            res = frozenset([(d[0], d[1], d[2])])
        memo[bit] = res
        return res

    crossings, bad = [], []
    for what, cname, port, bits, clk in sinks:
        if what == "ram contents":
            label = "RAM %s written and read on %s" % (cname, " and ".join(clk))
            inside_afifo = "u_fifo" in cname or top == "trc_afifo"
            if "trc_afifo" in mod["cells"][cname]["attributes"].get("src", "") or inside_afifo:
                crossings.append(label + ": inside trc_afifo, covered by its pointers")
            else:
                bad.append(label + ": outside trc_afifo")
            continue
        for i, b in enumerate(bits):
            src = sources(b)
            foreign = [s for s in src if s[2] != clk]
            if not foreign:
                continue
            q = names.get(b, str(b))
            dest = "%s %s.%s[%d] (%s)" % (what, cname, port, i, clk)
            sync_flop = what == "flop" and port == "D" and any(
                w.split(".")[-1] == "sync_q" for w in wire_of.get(
                    mod["cells"][cname]["connections"]["Q"][i], []))
            direct = driver.get(b, ("",))[0] == "flop" and len(src) == 1
            if any(s[2] is None for s in foreign):
                bad.append("%s: from %s, which no clock list names" % (dest, sorted(foreign)))
            elif sync_flop and direct:
                crossings.append("%s <- %s (%s): into a synchronizer" % (
                    names.get(mod["cells"][cname]["connections"]["Q"][i], dest), q,
                    foreign[0][2]))
            elif sync_flop:
                bad.append("%s: logic between %s and the synchronizer" % (dest, sorted(foreign)))
            else:
                bad.append("%s: from %s without a synchronizer" % (
                    dest, sorted("%s %s (%s)" % s for s in foreign)))
    for c in crossings if verbose else []:
        print("  ok   " + c)
    n = len(crossings)
    if n == 0:
        bad.append("no crossing found")
    for c in bad:
        print("  BAD  " + c, file=sys.stderr)
    print("cdc_check: %s: %d crossings (synchronizer bits and RAMs), %d violations"
          % (top, n, len(bad)), file=sys.stderr if bad else sys.stdout)
    return 1 if bad else 0


def main(argv):
    if not argv or argv[0] not in TOPS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    top = argv[0]
    verbose = "-v" in argv
    path = None
    if "--json" in argv:
        path = argv[argv.index("--json") + 1]
    with tempfile.TemporaryDirectory() as tmp:
        mod = netlist(top, path or os.path.join(tmp, "net.json"))
    return check(top, mod, verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
