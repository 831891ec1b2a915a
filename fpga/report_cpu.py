"""The FPGA report's sections about processors: trc beside PicoRV32 (the
tracer's cost as a share of the CPU it traces) and trc_mpcore for several
CPUs beside as many separate trc_cores; and the chart of the first.

A tracer's cost is the traced system minus the CPU alone, both synthesized
with the same CPU parameters and ports (trc_soc_cpu with TRACE 1 and 0).
"""
from designs import CPU_OF, DEV_ORDER, DESIGNS, label


def _fmt(v, nd=0):
    if v is None:
        return "-"
    return ("%%.%df" % nd) % v if nd else "%d" % round(v)


def _synth(byk, d, dev):
    return (byk.get((d, dev)) or {}).get("core_synth") or {}


def tracer_rows(rep):
    """(system, cpu, device, cpu synth, system synth, tracer LUT4, % of the
    CPU's LUT4, Fmax of the CPU, Fmax of the system) for every measured pair."""
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    out = []
    for sysd, cpu in CPU_OF.items():
        for dev in DEV_ORDER:
            c, s = _synth(byk, cpu, dev), _synth(byk, sysd, dev)
            if not c.get("lut4") or not s.get("lut4"):
                continue
            t = s["lut4"] - c["lut4"]
            out.append((sysd, cpu, dev, c, s, t, 100.0 * t / c["lut4"],
                        (byk.get((cpu, dev)) or {}).get("fmax_median"),
                        (byk.get((sysd, dev)) or {}).get("fmax_median")))
    return out


def cpu_section(rep):
    """Markdown lines: the tracer beside PicoRV32, and several CPUs."""
    L = []
    A = L.append
    A("## Beside a CPU: the tracer's cost as a share of PicoRV32")
    A("")
    A("PicoRV32 alone (`picorv32`: trc_soc_cpu with TRACE 0, rv32im with IRQ) and with "
      "its tracer (trc_rvfi + trc_core, TRACE 1): the tracer is the difference. "
      "Logic and block RAM side by side; Virtex-4 in logic slices and RAMB16.")
    A("")
    A("| system | device / flow | CPU LUT4 / FF / BRAM | system LUT4 / FF / BRAM | "
      "tracer LUT4 | tracer FF | tracer BRAM | tracer LUT4 as % of the CPU's | "
      "Fmax median MHz, CPU / system |")
    A("|---|---|---|---|---:|---:|---:|---:|---|")
    rows = tracer_rows(rep)
    for sysd, _cpu, dev, c, s, t, pct, fc, fs in rows:
        A("| %s | %s | %s / %s / %s | %s / %s / %s | %d | %s | %s | **%.0f%%** | %s / %s |" % (
            sysd, label(dev), c["lut4"], _fmt(c.get("ff")), _fmt(c.get("bram")),
            s["lut4"], _fmt(s.get("ff")), _fmt(s.get("bram")), t,
            _fmt(s.get("ff", 0) - c.get("ff", 0)), _fmt(s.get("bram", 0) - c.get("bram", 0)),
            pct, _fmt(fc, 1), _fmt(fs, 1)))
    if not rows:
        A("| (no CPU and system pair measured) | | | | | | | | |")
    A("")
    A("Goal: the paper mode tracer at <= 50% of PicoRV32's LUT4 on iCE40 (moonshot "
      "<= 25%). reports/fpga_cpu.svg draws the percentages.")
    A("")
    byk = {(r["design"], r["dev"]): r for r in rep["rows"]}
    mp = [d for d in DESIGNS if DESIGNS[d].kind == "mp"]
    if any(byk.get((d, dev)) for d in mp for dev in DEV_ORDER):
        A("## Several CPUs: trc_mpcore beside N separate trc_cores")
        A("")
        A("trc_mpcore takes N event ports into one stream (dictionaries banked by CPU, "
          "one time base, one packer); N separate trc_cores would give N streams. "
          "Per added port: (area at N - area at 2) / (N - 2). The LUT4 ratio counts "
          "logic LUTs, with LUT RAM and block RAM in columns of their own; the "
          "Virtex-4 estimate's logic slices count LUT RAM in LUT sites, as a "
          "slice count would.")
        A("")
        A("| core | device / flow | LUT4 | LUT RAM | FF | BRAM | LUT4 per added port | "
          "N x trc_core LUT4 / BRAM | LUT4 ratio to one trc_core | "
          "logic slices ratio (Virtex-4) | Fmax median MHz |")
        A("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
        for d in mp:
            n = DESIGNS[d].params["NCPU"]
            for dev in DEV_ORDER:
                s = _synth(byk, d, dev)
                one = _synth(byk, "trc_core", dev)
                two = _synth(byk, "trc_mp2", dev)
                if not s:
                    continue
                per = ((s["lut4"] - two["lut4"]) / (n - 2.0)
                       if n > 2 and two.get("lut4") else None)
                sl = (s["slices_logic"] / one["slices_logic"]
                      if s.get("slices_logic") and one.get("slices_logic") else None)
                A("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    d, label(dev), s["lut4"], _fmt(s.get("lutram")), _fmt(s.get("ff")),
                    _fmt(s.get("bram")),
                    _fmt(per), ("%d / %d" % (n * one["lut4"], n * one.get("bram", 0)))
                    if one.get("lut4") else "-",
                    _fmt(s["lut4"] / one["lut4"], 2) if one.get("lut4") else "-",
                    _fmt(sl, 2),
                    _fmt((byk.get((d, dev)) or {}).get("fmax_median"), 1)))
        A("")
        A("Goal: the 4-CPU core at <= 2x one trc_core's area (moonshot 1.5x), one record "
          "per clock in total at full load (measured by tests/t_mp.sh's saturation runs).")
        A("")
    return L


def cpu_chart(rep):
    """SVG: the tracer's LUT4 as a share of PicoRV32's, per system and device."""
    rows = tracer_rows(rep)
    W, top, rh, lab = 760, 56, 20, 300
    pw = W - lab - 80
    H = top + rh * max(len(rows), 1) + 40
    pmax = max([r[6] for r in rows] + [100.0])
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="18" font-size="14">trc beside PicoRV32: the tracer\'s LUT4 as a '
         'share of the CPU\'s (%s)</text>' % rep["date"],
         '<text x="%d" y="44">tracer LUT4 / PicoRV32 LUT4 (the dashed line: 50%%)</text>'
         % lab]
    x50 = lab + 50.0 * pw / pmax
    for i, (sysd, _c, dev, _cs, _ss, t, pct, _f1, _f2) in enumerate(rows):
        y = top + i * rh
        w = pct * pw / pmax
        col = DESIGNS[sysd].color if DESIGNS[sysd].color != "#888888" else "#4eb3d3"
        o.append('<text x="10" y="%d">%s, %s</text>' % (y + 12, sysd, label(dev)))
        o.append('<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>' % (lab, y, w, col))
        o.append('<text x="%.1f" y="%d">%.0f%% (%d LUT4)</text>' % (lab + w + 3, y + 12,
                                                                    pct, t))
    o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" '
             'stroke-dasharray="4 3"/>' % (x50, top - 4, x50, top + rh * max(len(rows), 1)))
    o.append("</svg>")
    return "\n".join(o) + "\n"
