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

usage: doc_figures.py [--check]   (--check: exit 1 when a doc is out of date)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"(<!-- fig:([a-z0-9-]+) -->)(.*?)(<!-- /fig -->)", re.S)


def assertions():
    """(simulation, formal-only, modules with simulation ones), by following
    the `ifdef nesting of each file."""
    sim = formal = 0
    mods = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "rtl", "*.v"))):
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


def figures():
    sim, formal, mods = assertions()
    return {"rtl-assertions": str(sim), "rtl-assertions-formal": str(formal),
            "rtl-assertion-modules": str(mods)}


def main(argv):
    check = "--check" in argv
    fig = figures()
    stale = []
    docs = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for path in docs:
        text = open(path).read()

        def sub(m):
            if m.group(2) not in fig:
                raise SystemExit("%s: unknown figure %s" % (path, m.group(2)))
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
    if stale:
        print("doc_figures: %s %s" % ("out of date:" if check else "updated",
                                      " ".join(stale)))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
