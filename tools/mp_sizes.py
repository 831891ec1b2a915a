#!/usr/bin/env python3
"""mp_sizes.py [--trc build/trc] TRACE.txt... -- stream sizes of a trace of
several CPUs under three ways to keep the coder state (reports/mp.md):

  banked    the format of docs/format.md 4.9 (trc_mpcore): each CPU its own
            dictionaries, a switch code between CPUs (`trc compress --cpus`);
  shared    one set of dictionaries for all CPUs: the same records in the
            same order through one coder (`trc compress` of the text without
            the CPU column), plus the same switch codes (their bits from
            `trc stats --json`), which a shared-state stream needs as much;
  separate  one stream per CPU (N trc_cores side by side): each CPU's
            records alone (`trc compress` of its lines).

A TRACE.txt is trace text with the CPU column (`trc decompress` of a stream
of several CPUs, e.g. soc/mp_run.sh's trace.txt), or "mix:N:A.txt.xz,B.txt.xz,..."
to make one: the sample traces as N CPUs' records, interleaved in bursts as
trc_mpcore's arbiter serves them (1..16 records of one CPU in a row, seeded).
Prints a markdown table: bytes and bits per record of each way.
"""
import json
import lzma
import os
import random
import subprocess
import sys
import tempfile


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, **kw)


def mix(spec, out, seed=1):
    """mix:N:A,B,...: N CPUs, CPU k replays file k mod len; bursts of 1..16."""
    _, n, files = spec.split(":", 2)
    n = int(n)
    names = files.split(",")
    src = []
    for k in range(n):
        f = names[k % len(names)]
        op = lzma.open if f.endswith(".xz") else open
        with op(f, "rt") as fh:
            src.append([l.rstrip("\n") for l in fh if l.strip() and not l.startswith("#")])
    rng = random.Random(seed)
    pos = [0] * n
    with open(out, "w") as o:
        while any(pos[k] < len(src[k]) for k in range(n)):
            k = rng.randrange(n)
            for _ in range(rng.randint(1, 16)):
                if pos[k] >= len(src[k]):
                    break
                o.write("%s @%d\n" % (src[k][pos[k]], k))
                pos[k] += 1
    return n


def sizes(trc, path, tmp):
    lines = [l.rstrip("\n") for l in open(path) if l.strip() and not l.startswith("#")]
    n = 1 + max(int(l.rsplit("@", 1)[1]) for l in lines)
    recs = len(lines)
    banked = os.path.join(tmp, "b.bin")
    run([trc, "compress", "--raw", "--cpus", str(n), path, banked])
    st = json.loads(run([trc, "stats", "--raw", "--cpus", str(n), "--json", banked]).stdout)
    sw_bits = st["switches"]["bits"]
    plain = os.path.join(tmp, "p.txt")
    with open(plain, "w") as o:
        o.writelines(l.rsplit(" @", 1)[0] + "\n" for l in lines)
    shared = os.path.join(tmp, "s.bin")
    run([trc, "compress", "--raw", plain, shared])
    sep = 0
    for k in range(n):
        one = os.path.join(tmp, "c%d.txt" % k)
        with open(one, "w") as o:
            o.writelines(l.rsplit(" @", 1)[0] + "\n" for l in lines
                         if l.endswith(" @%d" % k))
        run([trc, "compress", "--raw", one, one + ".bin"])
        sep += os.path.getsize(one + ".bin")
    b = os.path.getsize(banked)
    s = os.path.getsize(shared) + (sw_bits + 7) // 8
    return n, recs, st["switches"]["codes"], b, s, sep


def main(argv):
    trc = "build/trc"
    args = argv[1:]
    if args[:1] == ["--trc"]:
        trc, args = args[1], args[2:]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    print("| trace | CPUs | records | switches | banked bytes (bits/rec) | shared | separate |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for a in args:
            path, label = a, os.path.basename(os.path.dirname(a)) or a
            if a.startswith("mix:"):
                path = os.path.join(tmp, "mix.txt")
                mix(a, path)
                label = "mix of " + ",".join(os.path.basename(f).split(".")[0]
                                            for f in a.split(":", 2)[2].split(","))
            n, recs, sw, b, s, sep = sizes(trc, path, tmp)
            f = lambda x: "%d (%.2f)" % (x, 8.0 * x / recs)
            print("| %s | %d | %d | %d | %s | %s | %s |" % (label, n, recs, sw, f(b), f(s), f(sep)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
