#!/usr/bin/env python3
"""Load times of the trc Python package: a 1 M record trace into a pandas
DataFrame (and a numpy array), per input form. Writes reports/python.md.

  python3 python/bench.py [--repeat N] [--out reports/python.md]

Needs the package installed (pip install ./python) and build/trc (make
build/trc), which writes the .trc forms of the sample trace. Each figure is
the median of N runs (default 7) of the read alone, in one process after a
warm-up read (pandas and numpy already imported; their import time is
measured apart, in a fresh interpreter).
"""
import argparse
import lzma
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import trc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "tests", "data", "lua_calls_t10.txt.xz")
CLI = os.path.join(ROOT, "build", "trc")


def timed(fn, repeat):
    fn()  # warm-up: page cache, first-call costs
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(ROOT, "reports", "python.md"))
    args = ap.parse_args()
    import pandas as pd

    tmp = tempfile.mkdtemp(prefix="trc_bench_")
    text = os.path.join(tmp, "t.txt")
    with lzma.open(SAMPLE) as f, open(text, "wb") as g:
        g.write(f.read())
    forms = [("trace text v1 .txt.xz (the sample)", SAMPLE),
             ("trace text v1 .txt", text)]
    for label, name, opts in (("`.trc`, paper mode", "p.trc", []),
                              ("`.trc`, stack mode", "s.trc", ["--mode", "stack"]),
                              ("`.trc`, framed (4096 records a frame)", "f.trc",
                               ["--frame", "4096"])):
        path = os.path.join(tmp, name)
        subprocess.run([CLI, "compress", text, path] + opts, check=True)
        forms.append((label, path))

    rows = []
    for label, path in forms:
        df_med, df_min, df = timed(lambda: trc.read_dataframe(path), args.repeat)
        ar_med, ar_min, arr = timed(lambda: trc.read_array(path), args.repeat)
        assert len(df) == len(arr) == 1_000_000
        assert int(arr["tick"][-1]) == int(df["tick"].iloc[-1])
        rows.append((label, os.path.getsize(path), len(df), df_med, df_min, ar_med, ar_min))
        if path.startswith(tmp) and path != text:
            os.unlink(path)

    imp = subprocess.run([sys.executable, "-c",
                          "import time; t=time.perf_counter(); import pandas, trc; "
                          "print(time.perf_counter()-t)"],
                         capture_output=True, text=True, check=True)
    it_med, _, n = timed(lambda: sum(1 for _ in trc.records(text)), 1)
    os.unlink(text)
    os.rmdir(tmp)

    cmd = "python3 python/bench.py --repeat %d" % args.repeat
    worst = max(r[3] for r in rows)
    lines = [
        "# The Python package: load times",
        "",
        "Made by `%s` (after `pip install ./python` and `make build/trc`)." % cmd,
        "A 1 M record trace (`tests/data/lua_calls_t10.txt.xz`, 1000000 records)",
        "read whole into a pandas DataFrame (`trc.read_dataframe`) and into a",
        "numpy structured array (`trc.read_array`); median and best of %d runs"
        % args.repeat,
        "after a warm-up read, in one process (imports not counted: see below).",
        "",
        "Machine: %s, %s, Python %s, numpy %s, pandas %s; load average %s at the"
        % (platform.machine(), platform.platform(), platform.python_version(),
           np.__version__, pd.__version__, " ".join("%.1f" % x for x in os.getloadavg())),
        "end of the run (the machine is shared: figures are wall-clock).",
        "",
        "| input | bytes | records | DataFrame median s | best s | array median s | best s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, size, n_rec, dm, dn, am, an in rows:
        lines.append("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f |"
                     % (label, size, n_rec, dm, dn, am, an))
    lines += [
        "",
        "Slowest median DataFrame load: %.3f s (%s the goal of 1 s);"
        % (worst, "within" if worst < 1.0 else "OVER"),
        "`import pandas, trc` in a fresh interpreter took %.2f s more."
        % float(imp.stdout),
        "",
        "Streaming, one `Record` tuple at a time (`trc.records`, the text file):",
        "%.2f s for the 1 M records (%.2f M records/s)." % (it_med, 1.0 / it_med),
        "",
    ]
    with open(args.out + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(args.out + ".tmp", args.out)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
