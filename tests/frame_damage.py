#!/usr/bin/env python3
"""Damages a framed .trc file and checks what `trc decompress` makes of it.

Usage: frame_damage.py TRC ORIGINAL_TEXT FRAMED_TRC SEED FLIPS DROPS

Flips FLIPS random bits and drops DROPS random byte ranges (1..3000 bytes)
anywhere but in the container header and the trailer, then decompresses and
checks, from an independent parse of the frame layout (docs/format.md 5.1):
  - records decoded + records reported lost (L) == records in the input;
  - every record of a frame that was not hit decodes exactly, at its exact
    absolute time;
  - the frames reported lost are exactly the frames that were hit.
Prints "ok NAME" / "not ok NAME" lines.
"""
import random
import re
import struct
import subprocess
import sys

trc, orig_txt, framed, seed, flips, drops = sys.argv[1:7]
seed, flips, drops = int(seed), int(flips), int(drops)
name = f"frames_seed{seed}_flips{flips}_drops{drops}"
rng = random.Random(seed)

data = bytearray(open(framed, "rb").read())
frames = []  # (index, start, end) byte ranges, header included
pos = 16
while pos < len(data):
    assert data[pos:pos + 4] == b"\xf7TRF", "layout parse"
    idx, rb, tb, plen, nrec, pcrc, hcrc = struct.unpack(">IQQIIII", data[pos + 4:pos + 40])
    frames.append((idx, pos, pos + 40 + plen, rb, nrec))
    pos += 40 + plen
trailer_start = frames[-1][1]
body = frames[:-1]

# records of the original, with absolute times
recs = []
t = 0
for line in open(orig_txt):
    if line.startswith("#") or not line.strip():
        continue
    f = line.split()
    t += int(f[0])
    recs.append((t, f[1], f[2:]))

hit = set()
def frames_at(a, b):  # frames overlapping byte range [a, b)
    return {i for i, s, e, _, _ in body if s < b and a < e}

# damage positions in original coordinates; apply drops from the back
for _ in range(flips):
    p = rng.randrange(16, trailer_start)
    data[p] ^= 1 << rng.randrange(8)
    hit |= frames_at(p, p + 1)
ranges = []
for _ in range(drops):
    a = rng.randrange(16, trailer_start - 1)
    b = min(a + rng.randint(1, 3000), trailer_start)
    ranges.append((a, b))
    hit |= frames_at(a, b)
for a, b in sorted(ranges, reverse=True):
    del data[a:b]   # overlapping ranges just drop a bit more
open(framed + ".damaged", "wb").write(data)

p = subprocess.run([trc, "decompress", framed + ".damaged", "-"],
                   capture_output=True, text=True)
out = p.stdout.splitlines()
reported = set()
for m in re.finditer(r"frames (\d+)\.\.(\d+) lost", p.stderr):
    reported |= set(range(int(m.group(1)), int(m.group(2)) + 1))

ok = True
def fail(msg):
    global ok
    if ok:
        print(f"  {msg}")
    ok = False

# walk the output: L records stand for that many input records
i = 0
t = 0
good_frames_ok = True
for line in out:
    f = line.split()
    t += int(f[0])
    if f[1] == "L":
        i += int(f[2])
        continue
    if i >= len(recs):
        fail("more records than the input")
        break
    want = recs[i]
    if (t, f[1], f[2:]) != want:
        frame = next(x[0] for x in body if x[3] <= i < x[3] + x[4])
        if frame not in hit:
            fail(f"record {i} (frame {frame}, not hit): got {line!r}, want {want}")
    i += 1
if i != len(recs):
    fail(f"decoded + lost = {i}, input has {len(recs)}")
if reported != hit:
    fail(f"frames hit {sorted(hit)}, reported lost {sorted(reported)}")
if hit and p.returncode != 1:
    fail(f"exit status {p.returncode} with damage")
print(f"{'ok' if ok else 'not ok'} {name} ({len(hit)} of {len(body)} frames hit,"
      f" {len(recs)} records)")
