"""The markdown of reports/fpga.md (fpga/report.py collects its data).

Area is given in two units everywhere, logic and block RAM side by side,
then one total with block RAM weighted: Virtex-4 slices + 562 per RAMB16
(the paper's rule), iCE40 and ECP5 max(LUT4, FF) + block RAM bits / 16.
"""
from designs import CPU_OF, DESIGNS, DEV_ORDER, FULL, LEAN, LZ4, label
from report_cpu import cpu_section


def fmt(v, nd=0):
    if v is None:
        return "-"
    return ("%." + str(nd) + "f") % v if isinstance(v, float) else str(v)


def ratio(x, y):
    return x / y if x is not None and y else None


def placed(r):
    if r.get("no_fit"):
        return "does not fit: " + r["no_fit"]
    u = r.get("utilization") or {}
    n = lambda k: u.get(k, {}).get("used", 0)
    if r["dev"] in ("hx8k", "up5k"):
        return "%d LC, %d RAM" % (n("ICESTORM_LC"), n("ICESTORM_RAM"))
    if u:
        c, f = n("TRELLIS_COMB"), n("TRELLIS_FF")
        return "%d COMB, %d FF, %d slices est., %d EBR" % (c, f, (max(c, f) + 1) // 2,
                                                          n("DP16KD"))
    return "-"


def bits_per_record(rep, design):
    tr = rep["perf"]["traces"]
    if not DESIGNS[design].perf:
        return None
    key = DESIGNS[design].perf.size
    n = sum(v["records"] for v in tr.values())
    if not all(key in v for v in tr.values()) or not n:
        return None
    return 8.0 * sum(v[key] for v in tr.values()) / n


def summary_table(rep):
    """The short table for the README: one line per core."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    tr = rep["perf"]["traces"]
    n = sum(v["records"] for v in tr.values())
    L = ["| core | Virtex-4 logic slices (est.) | RAMB16 | slices incl. BRAM x 562 | "
         "iCE40 HX8K LUT4 | iCE40 BRAM | HX8K Fmax median | ECP5-8 Fmax median | "
         "ECP5-8 throughput Gbps | bits/record (3 sample traces) |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for d in DESIGNS:
        if d in CPU_OF or d in CPU_OF.values() or DESIGNS[d].kind == "mp":
            continue  # the CPU and several-CPU rows: their own sections
        v4 = (byk.get((d, "xc4v")) or {}).get("core_synth") or {}
        hx = byk.get((d, "hx8k")) or {}
        hs = hx.get("core_synth") or {}
        e8 = byk.get((d, "ecp5-8")) or {}
        if not v4 and not hx and not e8:
            continue
        L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            d, fmt(v4.get("slices_logic")), fmt(v4.get("bram")), fmt(v4.get("slices_est")),
            fmt(hs.get("lut4")), fmt(hs.get("bram")),
            fmt(hx.get("fmax_median"), 1), fmt(e8.get("fmax_median"), 1),
            fmt(e8.get("throughput_gbps_median"), 2), fmt(bits_per_record(rep, d), 2)))
    L.append("")
    L.append("(`lz4 -1` on the same trace bin v1 bytes: %.2f bits/record.) Caveat: "
             "measured with open tools on these devices and traces; Virtex-4 is a "
             "synthesis estimate, not a place and route." %
             (8.0 * sum(v["lz4_1_bytes"] for v in tr.values()) / n))
    return "\n".join(L)


def area_cols(r, area_units, logic_units):
    """logic | BRAM | weighted total, in the row's own units."""
    s = r.get("core_synth") or {}
    return "%s | %s | %s" % (fmt(logic_units(r)), fmt(s.get("bram")), fmt(area_units(r)))


def equal_throughput(rep, area_units, logic_units):
    """The lean encoder beside the LZ4 core (both about 1 Gbps) and the area
    per Gbps of the lean, the full and the LZ4 core."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = ["| device | core | logic | BRAM | weighted total | Fmax median MHz | "
         "Gbps (median) | weighted total / Gbps | lean / LZ4 weighted area |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for dev in [v for v in DEV_ORDER if v != "xc4v"]:
        z = byk.get((LZ4, dev))
        for d in (LEAN, LZ4):
            r = byk.get((d, dev))
            if not r:
                continue
            gb = r.get("throughput_gbps_median")
            L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                label(dev), d, area_cols(r, area_units, logic_units),
                fmt(r.get("fmax_median"), 1), fmt(gb, 2),
                fmt(ratio(area_units(r), gb), 0),
                fmt(ratio(area_units(r), area_units(z)) if d == LEAN and z else None, 3)))
    L += ["", "Area per Gbps, side by side (weighted total / Gbps at the median Fmax; "
          "logic alone in brackets):", "",
          "| device | %s | %s | %s |" % (LEAN, FULL, LZ4), "|---|---:|---:|---:|"]
    for dev in [v for v in DEV_ORDER if v != "xc4v"]:
        cells = []
        for d in (LEAN, FULL, LZ4):
            r = byk.get((d, dev)) or {}
            gb = r.get("throughput_gbps_median")
            a = ratio(area_units(r), gb) if r else None
            lg = ratio(logic_units(r), gb) if r else None
            cells.append("%s (%s)" % (fmt(a, 0), fmt(lg, 0)) if a is not None else "-")
        L.append("| %s | %s |" % (label(dev), " | ".join(cells)))
    L += ["", "Virtex-4 has no place and route here: its area per Gbps uses the ECP5-8 "
          "throughput (same rate per clock, an Fmax of another device):", "",
          "| core | slices incl. BRAM x 562 | logic slices | ECP5-8 Gbps | slices per Gbps "
          "(logic) |", "|---|---:|---:|---:|---:|"]
    for d in (LEAN, FULL, LZ4):
        v4, e8 = byk.get((d, "xc4v")), byk.get((d, "ecp5-8")) or {}
        if v4:
            gb = e8.get("throughput_gbps_median")
            L.append("| %s | %s | %s | %s | %s (%s) |" % (
                d, fmt(area_units(v4)), fmt(logic_units(v4)), fmt(gb, 2),
                fmt(ratio(area_units(v4), gb), 0), fmt(ratio(logic_units(v4), gb), 0)))
    return L


def met(ok):
    return "met" if ok else "missed"


def targets(rep, area_units):
    """The paper mode encoder at one record per clock; each miss by how much."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = []
    v4 = (byk.get((FULL, "xc4v")) or {}).get("core_synth") or {}
    if v4:
        sl, br = v4.get("slices_est"), v4.get("bram")
        L.append("- trc_enc (paper params, OUT_W=64) Virtex-4 estimate <= 242 slices, 0 block "
                 "RAM: %d slices, %d RAMB16: %s" % (sl, br, "met" if sl <= 242 and br == 0
                 else "missed by %d slices (%.1fx)" % (sl - 242, sl / 242.0)))
    for dev, goal in (("ecp5-8", 250), ("hx8k", 150)):
        r = byk.get((FULL, dev))
        if r and r.get("fmax_median"):
            m = r["fmax_median"]
            L.append("- trc_enc (OUT_W=64) Fmax >= %d MHz on %s: median %.1f, best %.1f MHz: %s"
                     % (goal, r["device"], m, r["fmax_best"], "met" if m >= goal else
                        "missed by %.1f MHz" % (goal - m)))
    r = byk.get((FULL, "ecp5-8"))
    if r and r.get("throughput_gbps_median"):
        t = r["throughput_gbps_median"]
        L.append("- input throughput >= 10 Gbps on ECP5 (8x the paper's 1.16 Gbps): %.2f Gbps "
                 "(%.1fx the paper): %s" % (t, t / 1.16, "met" if t >= 10 else
                                            "missed by %.2f Gbps" % (10 - t)))
    for d in (FULL, "trc_enc_w32", "trc_core"):
        for dev in DEV_ORDER:
            a, b = byk.get((d, dev)), byk.get((LZ4, dev))
            ar = ratio(area_units(a), area_units(b)) if a and b else None
            if ar is not None:
                L.append("- %s area <= 1/3 of LZ4 (4 KB) on %s: ratio %.3f: %s" % (
                    d, label(dev), ar, "met" if ar <= 1 / 3.0 else
                    "missed (%.2fx the allowed area)" % (ar * 3)))
    return L


def stack_targets(rep, area_units):
    """Stack mode: area <= 1/3 of LZ4 (Virtex-4), Fmax within 15% of paper mode."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = []
    for d, sk in (("trc_stack_w64", 9), ("trc_stack8_w64", 8)):
        a, b = byk.get((d, "xc4v")), byk.get((LZ4, "xc4v"))
        ar = ratio(area_units(a), area_units(b)) if a and b else None
        if ar is not None:
            L.append("- stack mode SK %d Virtex-4 estimate <= 1/3 of LZ4 (4 KB): %s vs %s "
                     "slices, ratio %.3f: %s" % (sk, a["core_synth"]["slices_est"],
                                                 b["core_synth"]["slices_est"], ar,
                                                 "met" if ar <= 1 / 3.0 else
                                                 "missed (%.2fx the allowed area)" % (ar * 3)))
        for dev in ("ecp5-6", "ecp5-8"):
            s, p = byk.get((d, dev)), byk.get((FULL, dev))
            if s and p and s.get("fmax_median") and p.get("fmax_median"):
                f, g = s["fmax_median"], p["fmax_median"]
                L.append("- stack mode SK %d Fmax within 15%% of paper mode on %s: median "
                         "%.1f vs %.1f MHz (%+.1f%%): %s" % (
                             sk, label(dev), f, g, 100.0 * (f / g - 1), met(f >= 0.85 * g)))
    return L


def lean_targets(rep):
    """The lean encoder: the paper's area at the paper's throughput."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    L = []
    v4 = (byk.get((LEAN, "xc4v")) or {}).get("core_synth") or {}
    e8 = byk.get((LEAN, "ecp5-8")) or {}
    if v4:
        sl, br = v4["slices_est"], v4["bram"]
        L.append("- %s Virtex-4 estimate <= 242 slices, 0 block RAM: %d slices, %d RAMB16: "
                 "%s (moonshot <= 180: %s)" % (LEAN, sl, br, met(sl <= 242 and br == 0),
                                               met(sl <= 180 and br == 0)))
    if e8.get("throughput_gbps_median") is not None:
        t = e8["throughput_gbps_median"]
        L.append("- %s input throughput >= 1.16 Gbps on ECP5-8 (records/clock x 40 x Fmax "
                 "median): %.2f Gbps: %s" % (LEAN, t, met(t >= 1.16)))
    up = (byk.get((LEAN, "up5k")) or {}).get("core_synth") or {}
    if up:
        L.append("- %s iCE40 UP5K <= 600 LUT4: %d LUT4, %d block RAM: %s" % (
            LEAN, up["lut4"], up["bram"], met(up["lut4"] <= 600)))
    hx = byk.get((LEAN, "hx8k")) or {}
    if hx.get("throughput_gbps_median") is not None:
        t = hx["throughput_gbps_median"]
        L.append("- %s >= 1 Gbps on the HX8K: %.2f Gbps at %.1f MHz (median): %s" % (
            LEAN, t, hx["fmax_median"], met(t >= 1.0)))
    return L


def markdown(rep, area_units, logic_units):
    L = []
    A = L.append
    p = rep["perf"]
    A("# FPGA results: trc cores and the LZ4 baseline")
    A("")
    A("Generated by `make fpga` (fpga/flow.py) on %s. Measured numbers only; each row"
      " names the command that made it (reports/fpga.json has every seed's command)."
      % rep["date"])
    A("")
    A("- sources: commit %s" % rep["source"])
    carried = {}
    for r in rep["rows"]:
        if r.get("carried_from"):
            carried.setdefault((r["design"], r["carried_from"]), []).append(r["device"])
    for (dsg, frm), devs in sorted(carried.items(), key=lambda c: list(DESIGNS).index(c[0][0])):
        A("- %s on %s: not run this time; carried from the report of %s"
          % (dsg, ", ".join(devs), frm))
    for k, v in rep["tools"].items():
        A("- %s: `%s`" % (k, v))
    A("")
    A("Core area is synthesis of the core alone (its ports are the top's ports; "
      "nothing is optimized away). Fmax is nextpnr's figure for the core clock with the "
      "pin wrapper `fpga/trc_fpga.v` (4 pins: every input from a serial-in shift "
      "register, the parity of every registered output on one pin), over placer seeds "
      "%s; the wrapper's own cost is the difference between the wrapped and the bare "
      "synthesis (column *wrapper*)." % ", ".join(str(s) for s in p["seeds"]))
    A("")
    A("Area is given in two units, logic and block RAM side by side, then one total "
      "with block RAM weighted: Virtex-4 rule: %s. iCE40 and ECP5: max(LUT4, FF) + "
      "block RAM bits / 16 (a block RAM counted as the LUT4s that would hold its bits "
      "as 16x1 LUT RAM: iCE40 SB_RAM40_4K = 4 Kbit = 256, ECP5 DP16KD = 18 Kbit = "
      "1152)." % rep["v4_rule"])
    A("")
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
    A("| core | device / flow | LUT4 | FF | carry | BRAM | weighted total | placed with "
      "wrapper | wrapper LUT/FF | Fmax median MHz | Fmax best MHz | all seeds | "
      "throughput median (best) Gbps |")
    A("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|")
    for r in rep["rows"]:
        s = r.get("core_synth") or {}
        w = r.get("wrapper_cost") or {}
        if r["dev"] == "xc4v":
            A("| %s | %s | %s | %s | %s | %s RAMB16 | %s slices est. | - | - | - | - | - | - |"
              % (r["design"], r["device"], fmt(s.get("lut4")), fmt(s.get("ff")),
                 fmt(s.get("carry")), fmt(s.get("bram")), fmt(s.get("slices_est"))))
            continue
        A("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s (%s) |" % (
            r["design"], r["device"], fmt(s.get("lut4")), fmt(s.get("ff")),
            fmt(s.get("carry")), fmt(s.get("bram")), fmt(area_units(r)), placed(r),
            fmt(w.get("lut4")), fmt(w.get("ff")),
            fmt(r.get("fmax_median"), 1), fmt(r.get("fmax_best"), 1),
            " ".join(fmt(x, 1) for x in r.get("fmax_all", [])) +
            (" (failed: %s)" % r["failed"] if r.get("failed") else ""),
            fmt(r.get("throughput_gbps_median"), 2), fmt(r.get("throughput_gbps_best"), 2)))
    A("")
    A("The wrapper's cost is a difference of two syntheses; where it is negative, ABC "
      "mapped the core differently inside the wrapper, and the bare synthesis is the "
      "better area figure.")
    A("")
    A("## Virtex-4 estimate (the paper's units)")
    A("")
    A("| core | LUT (incl. INV) | LUT-RAM/SRL | FF | MUXF5 / MUXF6-8 | RAMB16 | logic slices | "
      "slices incl. BRAM x 562 | same, counting 1 MUXF5 + 1 MUXF6-8 per slice |")
    A("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rep["rows"]:
        s = r.get("core_synth")
        if r["dev"] != "xc4v" or not s:
            continue
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
      "stack mode 2 | LZ4 4 KB bits/record | LZ4 64 KB bits/record | lz4 -1 bits/record | "
      "trc / LZ4 4 KB size | stack SK 9 / LZ4 4 KB size |")
    A("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t, v in p["traces"].items():
        A("| %s | %d | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            t, v["records"], v["trc_bpr"], v["trc_stack_bpr"], v["trc_stack8_bpr"],
            fmt(v.get("trc_stack2_bpr"), 2),
            v["lz4_w12_bpr"], v["lz4_w16_bpr"], v["lz4_1_bpr"],
            v["trc_bpr"] / v["lz4_w12_bpr"], v["trc_stack_bpr"] / v["lz4_w12_bpr"]))
    A("")
    A("The lean encoder writes the same stream as trc_enc (the trc column).")
    A("")
    A("## trc / LZ4 ratios (per device; LZ4 = the 4 KB window core)")
    A("")
    A("| trc core | device | logic ratio | BRAM trc / LZ4 | area ratio (weighted) | "
      "throughput ratio (median Fmax) |")
    A("|---|---|---:|---:|---:|---:|")
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    for d in [d for d in DESIGNS if DESIGNS[d].kind in ("trc", "stack")]:
        for dev in DEV_ORDER:
            a, b = byk.get((d, dev)), byk.get((LZ4, dev))
            if not a or not b:
                continue
            tr = ratio(a.get("throughput_gbps_median"), b.get("throughput_gbps_median"))
            A("| %s | %s | %s | %s / %s | %s | %s |" % (
                d, label(dev), fmt(ratio(logic_units(a), logic_units(b)), 3),
                fmt((a.get("core_synth") or {}).get("bram")),
                fmt((b.get("core_synth") or {}).get("bram")),
                fmt(ratio(area_units(a), area_units(b)), 3), fmt(tr, 2)))
    A("")
    A("Logic ratio: Virtex-4 logic slices, iCE40 and ECP5 max(LUT4, FF), block RAM left "
      "out. Area ratio (weighted): Virtex-4 slices incl. block RAM x 562 (the paper's "
      "rule); iCE40 and ECP5 max(LUT4, FF) + block RAM bits / 16. Without block RAM on "
      "both sides the two ratios are the same.")
    A("")
    A("## At equal throughput: the lean encoder and the LZ4 core, both about 1 Gbps")
    A("")
    L.extend(equal_throughput(rep, area_units, logic_units))
    A("")
    if rep["notes"] or rep["failures"]:
        A("## Notes and failed runs")
        A("")
        for n in rep["notes"] + rep["failures"]:
            A("- " + n)
        A("")
    A("## Targets: the paper mode encoder at one record per clock")
    A("")
    L.extend(targets(rep, area_units))
    A("")
    A("## Targets: the lean encoder")
    A("")
    L.extend(lean_targets(rep))
    A("")
    A("## Targets: stack mode")
    A("")
    L.extend(stack_targets(rep, area_units))
    A("")
    L.extend(cpu_section(rep))
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
