#!/usr/bin/env python3
"""Damage in a checked stream (docs/format.md 4.10, "Damage"), seeded: single
bits, bursts of 2..32 bits and dropped byte ranges in a checked .trc. For
each, `trc decompress` must exit 1 naming the file and a byte, and its output
must be the original records with each run of lost ones replaced by L
records of the same total (so decoded + reported lost = emitted); a damage
with no unit after it may end the output early ("lost at the end").
Expectations come from the original text, parsed here, never from the tool.
Usage: checked_damage.py TRC ORIG.txt CHECKED.trc SEED N
Prints one "ok"/"not ok" line per case."""
import random
import re
import subprocess
import sys

trc, orig, ck, seed, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
want = [l for l in open(orig).read().splitlines() if l and not l.startswith("#")]
data = open(ck, "rb").read()
rng = random.Random(seed)
tmp = ck + ".dmg%d" % seed


def check(lines, err, rc):
    if rc != 1:
        return "rc %d" % rc
    if not re.search(re.escape(tmp) + r": byte \d+: ", err):
        return "no message naming the file and a byte: %r" % err[:200]
    i = 0
    for line in lines:
        f = line.split()
        if f[1] == "L" and (i >= len(want) or line != want[i]):
            i += int(f[2])  # lost records, in place of the originals
            continue
        if i >= len(want) or line != want[i]:
            return "line %r differs from original record %d" % (line, i)
        i += 1
    if i != len(want) and "lost at the end" not in err:
        return "%d of %d records accounted for" % (i, len(want))
    return None


for k in range(n):
    d = bytearray(data)
    kind = k % 3
    if kind == 0:  # one bit in the stream (after the 16-byte header)
        b = rng.randrange(16 * 8, len(d) * 8)
        d[b // 8] ^= 0x80 >> (b % 8)
        what = "bit %d" % b
    elif kind == 1:  # a burst: first and last bit flipped, random between
        ln = rng.randrange(2, 33)
        b = rng.randrange(16 * 8, len(d) * 8 - ln)
        for j in range(ln):
            if j in (0, ln - 1) or rng.random() < 0.5:
                d[(b + j) // 8] ^= 0x80 >> ((b + j) % 8)
        what = "burst of %d at bit %d" % (ln, b)
    else:  # a dropped byte range
        a = rng.randrange(16, len(d) - 1)
        ln = rng.randrange(1, min(3000, len(d) - a))
        del d[a:a + ln]
        what = "%d bytes dropped at %d" % (ln, a)
    open(tmp, "wb").write(d)
    r = subprocess.run([trc, "decompress", tmp, "-"], capture_output=True, text=True)
    bad = check(r.stdout.splitlines(), r.stderr, r.returncode)
    name = "checked_damage_s%d_%d" % (seed, k)
    print("ok %s" % name if bad is None else "not ok %s (%s: %s)" % (name, what, bad))
