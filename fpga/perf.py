"""flow.py perf and flow.py harnesses: the throughput side of the FPGA
figures. Units per clock come from the Verilator and LZ4 harnesses on the
sample traces (tests/data/*_t10.txt.xz), stream sizes from `trc stats` and
`lz4 -1`; the design table (fpga/designs.py) says which harness and which
options measure each design.
"""
import glob
import json
import os
import re
import subprocess

from designs import DESIGNS
import runner
from runner import ROOT


def sh(cmd):
    return subprocess.run(cmd, cwd=ROOT, shell=True, capture_output=True, text=True,
                          check=True).stdout


def harness_rate(cmd, pattern):
    """The figure a harness prints (records/cycle, clocks_per_byte)."""
    out = sh(cmd)
    m = re.search(pattern, out)
    if not m:
        raise ValueError("`%s` printed no %s" % (cmd, pattern))
    return float(m.group(1))


def harnesses():
    """The harness builds flow.py perf runs, as make targets."""
    out = []
    for d in DESIGNS.values():
        p = d.perf
        h = ("build/sim/%s/Vtrc_sim_enc" % p.sim if p.stats is not None
             else "build/lz4/%s/trc_lz4_sim" % p.sim) if p else None
        if h and h not in out:
            out.append(h)
    return out


def perf(out, seeds):
    """flow.py perf: units per clock (the harnesses, full sample traces) and
    stream sizes of every design of the table."""
    traces = sorted(os.path.basename(f)[:-7] for f in glob.glob(os.path.join(
        ROOT, "tests/data/*_t10.txt.xz")))
    res = {"seeds": [int(x) for x in seeds.split(",")], "traces": {}, "designs": {},
           "command": "`fpga/flow.py perf`: per sample trace (tests/data/*_t10.txt.xz) "
           "`build/sim/enc_SET/Vtrc_sim_enc T.txt --out-w W` (records/cycle; SET paper, "
           "lpaper (the lean encoder), stack, stack8), `build/trc stats T.txt --json "
           "[--mode stack [--table-bits 8]]` (trc size), "
           "`build/lz4/sim_wN/trc_lz4_sim --in T.bin` (clocks/byte; the bytes equal the "
           "model's), `lz4 -1` on the same trace bin v1 bytes."}
    tmp = os.path.join(ROOT, "build/fpga/perf")
    os.makedirs(tmp, exist_ok=True)
    rates = {}
    for t in traces:
        txt = os.path.join(tmp, t + ".txt")
        sh("xz -dc tests/data/%s.txt.xz > %s" % (t, txt))
        binf = "build/lz4/data/%s.bin" % t
        v = {"bin_bytes": os.path.getsize(os.path.join(ROOT, binf))}
        done = set()
        for d in DESIGNS.values():
            p = d.perf
            if not p or p.rate_key in done:
                continue
            done.add(p.rate_key)
            if p.stats is not None:
                st = json.loads(sh("build/trc stats %s --json %s" % (txt, p.stats)))
                v["records"] = st["records"]["trace"]
                v[p.size] = st["stream_bytes"]
                r = harness_rate("build/sim/%s/Vtrc_sim_enc %s --out-w %d" %
                                 (p.sim, txt, p.out_w), r"records/cycle ([0-9.]+)")
            else:
                o = "%s/%s.lz4" % (tmp, p.sim)
                r = harness_rate("build/lz4/%s/trc_lz4_sim --in %s --out %s" %
                                 (p.sim, binf, o), r"clocks_per_byte ([0-9.]+)")
                sh("lz4 -dc %s | cmp - %s" % (o, binf))
                v[p.size] = os.path.getsize(o)
            v[p.rate_key] = r
            rates.setdefault(p.rate_key, []).append(r)
        v["lz4_1_bytes"] = int(sh("lz4 -1 -c %s | wc -c" % binf))
        for k in [k for k in v if k.endswith("_bytes") and k != "bin_bytes"]:
            v[k[:-6] + "_bpr"] = 8.0 * v[k] / v["records"]
        os.remove(txt)
        res["traces"][t] = v
    for d in DESIGNS.values():  # the slowest trace sets the rate
        p = d.perf
        if not p:
            continue
        upc = (min(rates[p.rate_key]) if p.unit == "record"
               else round(1 / max(rates[p.rate_key]), 4))
        res["designs"][d.name] = {"units_per_clock": upc, "bits_per_unit": p.bits_per_unit,
                                  "unit": p.unit}
        if p.note:
            res["designs"][d.name]["note"] = p.note
    runner.write_result(res, out)
    return 0
