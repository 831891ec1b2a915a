#!/usr/bin/env python3
"""Writes the figures that the docs state about the tree itself, so that they
cannot go stale: each is counted from the sources and written between
markers in README.md and docs/*.md (`make readme` runs it after the tables):

    <!-- fig:NAME -->VALUE<!-- /fig -->

Figures:
  rtl-assertions          `assert (` statements under `ifdef TRC_ASSERT` in
                          rtl/*.v (compiled into every simulation)
  rtl-assertions-formal   those under `ifdef FORMAL` only (the formal proofs)
  rtl-assertion-modules   how many modules hold the simulation ones
  time-NAME               "W wall, C CPU" of NAME in reports/run_times.md
                          (tools/run_times.sh measures them)
  time-machine            the machine those were measured on

usage: doc_figures.py [--check]   (--check: exit 1 when a doc is out of date)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"(<!-- fig:([a-z0-9_-]+) -->)(.*?)(<!-- /fig -->)", re.S)


def assertions():
    """(simulation, formal-only, modules with simulation ones), by following
    the `ifdef nesting of each file (the modules and their include files)."""
    sim = formal = 0
    mods = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "rtl", "*.v")) +
                       glob.glob(os.path.join(ROOT, "rtl", "*.vh"))):
        stack = []
        for line in open(path):
            s = line.strip()
            m = re.match(r"`(ifdef|ifndef)\s+(\w+)", s)
            if m:
                stack.append(m.group(2) if m.group(1) == "ifdef" else "!" + m.group(2))
                continue
            if s.startswith("`else") and stack:
                top = stack.pop()
                stack.append(top[1:] if top.startswith("!") else "!" + top)
                continue
            if s.startswith("`endif") and stack:
                stack.pop()
                continue
            if re.search(r"\bassert\s*\(", s) and not s.startswith("//"):
                if "TRC_ASSERT" in stack:
                    sim += 1
                    mods.add(os.path.basename(path))
                elif "FORMAL" in stack:
                    formal += 1
    return sim, formal, len(mods)


def span(s):
    s = int(round(float(s)))
    return "%d min %02d s" % (s // 60, s % 60) if s >= 60 else "%d s" % s


def run_times():
    """time-NAME and time-machine from reports/run_times.md."""
    path = os.path.join(ROOT, "reports", "run_times.md")
    fig = {}
    if not os.path.exists(path):
        return fig
    text = open(path).read()
    m = re.search(r"Machine: (.*?), shared", text, re.S)
    if m:
        fig["time-machine"] = " ".join(m.group(1).split())
    for line in text.splitlines():
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) == 7 and re.match(r"^[0-9.]+$", c[2]) and re.match(r"^[0-9.]+$", c[3]):
            fig["time-" + c[0]] = "%s wall, %s CPU" % (span(c[2]), span(c[3]))
    return fig


def figures():
    sim, formal, mods = assertions()
    fig = {"rtl-assertions": str(sim), "rtl-assertions-formal": str(formal),
           "rtl-assertion-modules": str(mods)}
    fig.update(run_times())
    return fig


def main(argv):
    check = "--check" in argv
    fig = figures()
    stale = []
    missing = set()
    docs = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for path in docs:
        text = open(path).read()

        def sub(m):
            if m.group(2) not in fig:  # a run time not measured yet: kept
                if not m.group(2).startswith("time-"):
                    raise SystemExit("%s: unknown figure %s" % (path, m.group(2)))
                missing.add(m.group(2))
                return m.group(0)
            return m.group(1) + fig[m.group(2)] + m.group(4)
        new = MARK.sub(sub, text)
        if new != text:
            stale.append(os.path.relpath(path, ROOT))
            if not check:
                with open(path + ".tmp", "w") as f:
                    f.write(new)
                os.replace(path + ".tmp", path)
    for name, value in sorted(fig.items()):
        print("doc_figures: %s = %s" % (name, value))
    for name in sorted(missing):
        print("doc_figures: %s: not in reports/run_times.md (tools/run_times.sh)" % name)
    if stale:
        print("doc_figures: %s %s" % ("out of date:" if check else "updated",
                                      " ".join(stale)))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
