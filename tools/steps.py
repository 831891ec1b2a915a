#!/usr/bin/env python3
"""Per-step timings and one summary line for the long make targets.

  steps.py lines LABEL      filters a suite's output (stdin): each "ok NAME" /
                            "not ok NAME" line gets the seconds since the
                            line before it (the checks run one after the
                            other), and the end is a summary line
  steps.py json LABEL DIR   the step results that fpga/flow.py wrote under DIR
                            (*.json with "ok" and "seconds"): the slowest
                            steps, then the summary line
  --wall S                  (json) the run's wall time, for the summary
  --since T                 (json) only results written since T (epoch s)
                            are this run's; the others are counted as
                            up to date
  --in A,B,...              (json) only the results under DIR/A, DIR/B, ...
                            (folders or files): DIR may hold other targets'
                            results (make test's build/fpga/quick)
A result file is a *.json that is not a netlist or a report beside one
(*.net.json, *.rep.json) and holds "ok" and "seconds".

The summary line: "LABEL: N passed, N failed in T (slowest: NAME S s)".
"""
import glob
import json
import os
import sys
import time


def span(s):
    s = int(round(s))
    return "%d min %02d s" % (s // 60, s % 60) if s >= 60 else "%d s" % s


def lines(label):
    t0 = last = time.monotonic()
    npass = nfail = 0
    slow = ("", 0.0)
    for line in sys.stdin:
        line = line.rstrip("\n")
        now = time.monotonic()
        for head in ("ok ", "not ok "):
            if line.startswith(head):
                name = line[len(head):].strip() or "?"
                secs = now - last
                last = now
                if head == "ok ":
                    npass += 1
                else:
                    nfail += 1
                if secs > slow[1]:
                    slow = (name, secs)
                line = "%s  (%.1f s)" % (line, secs)
                break
        print(line, flush=True)
    print("%s: %d passed, %d failed in %s (slowest: %s, %.1f s)"
          % (label, npass, nfail, span(time.monotonic() - t0), slow[0], slow[1]),
          flush=True)
    return 1 if nfail else 0


def result_files(top, only):
    """The result files under top (under top/X for each X of only)."""
    roots = [os.path.join(top, x) for x in only] if only else [top]
    paths = set()
    for root in roots:
        if os.path.isfile(root):
            paths.add(root)
        else:
            paths.update(glob.glob(os.path.join(root, "**", "*.json"), recursive=True))
    return sorted(p for p in paths
                  if not p.endswith(".net.json") and not p.endswith(".rep.json"))


def results(label, top, wall, since, only=None):
    steps = []
    kept = 0
    for path in result_files(top, only):
        try:
            with open(path) as f:
                r = json.load(f)
        except (OSError, ValueError):
            continue
        if not (isinstance(r, dict) and "seconds" in r and "ok" in r):
            continue
        if since is not None and os.path.getmtime(path) < since:
            kept += 1
            continue
        steps.append((float(r["seconds"]), bool(r["ok"]),
                      os.path.relpath(path, top)[:-5]))
    steps.sort(reverse=True)
    for secs, ok, name in steps[:10]:
        print("  %-44s %s  %s" % (name, "ok    " if ok else "FAILED", span(secs)))
    npass = sum(1 for s in steps if s[1])
    total = sum(s[0] for s in steps)
    print("%s: %d passed, %d failed, %s of tool time%s%s%s" % (
        label, npass, len(steps) - npass, span(total),
        " in %s wall" % span(wall) if wall is not None else "",
        ", %d results up to date" % kept if kept else "",
        " (slowest: %s %s)" % (steps[0][2], span(steps[0][0])) if steps else ""))
    return 0 if npass == len(steps) else 1


def main(argv):
    if len(argv) < 2 or argv[0] not in ("lines", "json"):
        raise SystemExit(__doc__)
    if argv[0] == "lines":
        return lines(argv[1])
    opt = {"--wall": None, "--since": None, "--in": None}
    for o in opt:
        if o in argv:
            k = argv.index(o)
            if k + 1 >= len(argv):
                raise SystemExit("steps.py: %s needs a value" % o)
            opt[o] = argv[k + 1] if o == "--in" else float(argv[k + 1])
            del argv[k:k + 2]
    if len(argv) != 3:
        raise SystemExit(__doc__)
    only = [x for x in opt["--in"].split(",") if x] if opt["--in"] else None
    return results(argv[1], argv[2], opt["--wall"], opt["--since"], only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
