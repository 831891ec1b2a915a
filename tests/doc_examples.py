#!/usr/bin/env python3
"""Runs the `$ COMMAND` examples of a Markdown file as a user would, and
compares what they print with what the file shows under them.

usage: doc_examples.py FILE.md ROOT WORKDIR

Each indented code block's lines that start with "$ " are run one after the
other with bash in WORKDIR (which sees ROOT's top-level entries through
links, so `build/trc`, `tests/data/...` and `make` work as they do at the
top of the repository), stderr merged into stdout. The lines shown under a
command are its expected output: "..." in one matches anything, and the
lines may come in another order (stdout and stderr interleave as they
will). A command shown without output must succeed. Prints one
"ok NAME" / "not ok NAME" line per command, NAME from the file's line.
"""
import os
import re
import subprocess
import sys


def examples(path):
    """(line number, command, expected lines) for every "$ " line."""
    out, cur, indent = [], None, None
    for n, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        m = re.match(r"^( {4,})\$ (.*)$", line)
        if m:
            cur = (n, m.group(2), [])
            out.append(cur)
            indent = len(m.group(1))
            continue
        if cur is not None and line.startswith(" " * indent) and line.strip():
            cur[2].append(line[indent:])
            continue
        cur = None
    return out


def matches(want, got):
    rx = [re.compile("^" + ".*".join(map(re.escape, w.split("..."))) + "$") for w in want]
    if len(rx) == len(got) and all(r.match(g) for r, g in zip(rx, got)):
        return True
    left = list(got)  # the same lines in another order
    for r in rx:
        hit = next((g for g in left if r.match(g)), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def main(argv):
    md, root, work = argv
    os.makedirs(work, exist_ok=True)
    for e in os.listdir(root):
        if e.startswith(".") or os.path.exists(os.path.join(work, e)):
            continue
        os.symlink(os.path.join(os.path.abspath(root), e), os.path.join(work, e))
    env = dict(os.environ)
    env.pop("TRC_PROGRESS", None)
    bad = 0
    name = os.path.basename(md).replace(".md", "").lower()
    for n, cmd, want in examples(md):
        try:
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, timeout=900,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, text=True, errors="replace")
            got, rc = p.stdout.splitlines(), p.returncode
        except subprocess.TimeoutExpired:
            got, rc = ["(timed out)"], -1
        ok = matches(want, got) if want else rc == 0
        print("%s %s_line_%d" % ("ok" if ok else "not ok", name, n))
        if not ok:
            bad += 1
            print("  command: $ %s (exit %d)" % (cmd, rc))
            for w in want[:6]:
                print("  want: " + w)
            for g in got[:6]:
                print("  got:  " + g)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
