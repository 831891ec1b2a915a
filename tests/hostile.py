#!/usr/bin/env python3
"""Crafted inputs for tests/t_hostile.sh (seeded, written from the format
rules in docs/format.md, not by trc):

  hostile.py frames OUT.trc RECORDS_BEFORE INDEX TIME_BEFORE
      a framed container of one valid frame 0 (paper mode, 'E 0' with delta 0,
      then END), then a frame whose header says RECORDS_BEFORE, INDEX and
      TIME_BEFORE, with valid CRCs, then a trailer after it
  hostile.py patch IN.trc OUT.trc FRAME FIELD VALUE
      a copy of a framed file with one header field of frame FRAME changed
      (index, records_before or time_before) and its header CRC recomputed
  hostile.py worst DIR
      the worst-case inputs of the limits test, each at most 1 MB
"""
import os
import random
import struct
import sys
import zlib

MAGIC = b"\x89TRC\x01\x00\x17\x0f\x07\x10\x03\x03\x03\x01\x00\x00"  # framed, version 1
FMAGIC = b"\xf7TRF"


def fheader(index, before, time, payload, records):
    h = FMAGIC + struct.pack(">IQQIII", index, before, time, len(payload),
                             records, zlib.crc32(payload) & 0xffffffff)
    return h + struct.pack(">I", zlib.crc32(h) & 0xffffffff) + payload


# Paper mode from the reset state (format.md 4.6): "0 E 0" is 10111 0 000,
# END is 10111 1 111 1111110 000 and padding. Together: 28 bits.
def bits(s):
    s = s.replace(" ", "")
    s += "0" * (-len(s) % 8)
    return bytes(int(s[i:i + 8], 2) for i in range(0, len(s), 8))


E0_END = bits("10111 0 000" + "10111 1 111 1111110 000")


def frames(out, before, index, time):
    data = MAGIC + fheader(0, 0, 0, E0_END, 1)
    data += fheader(index, before, time, E0_END, 1)
    data += fheader(index + 1, before + 1, time, b"", 0)
    open(out, "wb").write(data)


def patch(src, out, frame, field, value):
    d = bytearray(open(src, "rb").read())
    at, k = 16, 0
    while at + 40 <= len(d):
        index, before, time, plen, recs = struct.unpack(">IQQII", d[at + 4:at + 32])
        if k == frame:
            off = {"index": (4, ">I"), "records_before": (8, ">Q"),
                   "time_before": (16, ">Q")}[field]
            struct.pack_into(off[1], d, at + off[0], value)
            struct.pack_into(">I", d, at + 36, zlib.crc32(bytes(d[at:at + 36])) & 0xffffffff)
            break
        at += 40 + plen
        k += 1
    open(out, "wb").write(bytes(d))


def worst(dirname):
    r = random.Random(25)
    w = lambda name, data: open(os.path.join(dirname, name), "wb").write(data)
    # text: every line a 2^64 - 1 delta (the most TIME_EXT per byte)
    w("huge_deltas.txt", b"18446744073709551615 E 1\n" * 40000)
    # text: the shortest lines, deep recursion (calltree/export stacks)
    w("deep.txt", b"0 E 1\n" * 166000)
    # text: many distinct call paths (calltree nodes)
    lines = []
    for i in range(80000):
        lines.append("1 E %d\n" % r.randrange(32768))
        if r.random() < 0.3:
            lines.append("1 X %d\n" % r.randrange(32768))
    w("paths.txt", "".join(lines).encode()[:1000000])
    # text: thread switches between many threads
    w("threads.txt", b"".join(b"0 O 7 %d\n0 E 3\n" % (i % 65536) for i in range(56000)))
    # ftrace: distinct event names, huge and backwards stamps
    fl = []
    for i in range(9000):
        fl.append("  t-1 [%03d] d..2. %d.%06d: ev_%d: pid=%d\n" % (
            i % 4, r.choice([1, 18446744073, 5, 99999999999]), r.randrange(10**6),
            i, i))
        fl.append("  t-1 [000] d..2. %d: sched_switch: prev_pid=1 ==> next_comm=b next_pid=%d\n"
                  % (r.choice([0, 18446744073709551615, 12345]), i))
    w("events.ftrace", "".join(fl).encode()[:1000000])
    # random bytes: as a .trc, as a framed .trc and as text
    w("random.bin", bytes(r.randrange(256) for _ in range(1000000)))
    w("random_trc.trc", MAGIC[:13] + b"\x00\x00\x00" +
      bytes(r.randrange(256) for _ in range(999984)))
    # framed: many valid small headers claiming lost records and big payloads
    hdrs = b"".join(fheader(i + 1, 2**63 + i, 2**64 - 1 - i, b"", 0)[:40]
                    for i in range(19998))
    big = FMAGIC + struct.pack(">IQQIII", 1, 1, 0, 0xFFFFFFF0, 1, 0)
    big += struct.pack(">I", zlib.crc32(big) & 0xffffffff)
    w("framed_claims.trc", MAGIC + fheader(0, 0, 0, E0_END, 1) + big * 5000 + hdrs)


def main():
    cmd = sys.argv[1]
    if cmd == "frames":
        frames(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif cmd == "patch":
        patch(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], int(sys.argv[6]))
    elif cmd == "worst":
        worst(sys.argv[2])
    else:
        sys.exit(__doc__)


main()
