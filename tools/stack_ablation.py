#!/usr/bin/env python3
"""Stack mode ablation: bits/record with each predictor of docs/format.md 4.7
switched off in turn (docs/stack-mode.md, reports/stack.md).

  stack_ablation.py TRACE.txt [VARIANT ...]     prints "variant bits/record"

A second, independent implementation of the stack mode's bit count, written
from the format text; with every switch on it must give the C model's stream
size exactly (tests/stack_report.sh checks that). Paper widths: NT 23, FID_W
15, TYPE_W 7, VAL_W 16, ND 3. Variants (default: all):
  paper      the paper's per-field coding (kind bit, time code, dictionaries)
  +stack     paper + the shadow stack's exit-of-top class (0 / 10 / 11)
  +event     + the context table's event prediction: a 1-bit predicted flag
             before the paper time code
  full       + the delta prediction (ranked symbols): stack mode, SK 9, SD 16
  -stack     full without the shadow stack (top is always 0: no exit-of-top
             class, the context is the previous event alone)
  -event     full without event prediction (every record has its class)
  -mode      full without the near/noisy delta modes (always the near order)
  -hit       full without the last-hit bit (NP always at rank 1)
  sk6 sk8 sk12  full with a 64-, 256- or 4096-entry table
  sd1 sd4 sd64  full with another stack depth
  noflip     full with a function dictionary that does not flip the exit
             flag (a proposed change: in stack mode exits of the top bypass
             the dictionary, so the flipped entries are rarely looked up)
"""
import lzma
import sys

NT, FID_W, TYPE_W, VAL_W, ND = 23, 15, 7, 16, 3
NZ = NT.bit_length()
M = (1 << NT) - 1
T_TEXT, T_END, T_LOST = (1 << TYPE_W) - 1, (1 << TYPE_W) - 2, (1 << TYPE_W) - 4
FLAG = 1 << FID_W
PD_MAX = 4095
EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4, NP, ESC = range(12)
SYM_J = {L0: 0, LP1: 1, LM1: -1, LP2: 2, LM2: -2, LP3: 3, LM3: -3, LP4: 4}
J_SYM = {j: s for s, j in SYM_J.items()}
ORDER = ([EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4],
         [L0, LP1, LM1, LP2, LM2, LP3, EQ, NEAR, LM3, LP4])

VARIANTS = {
    "paper": dict(stack=0, event=0, delta=0),
    "+stack": dict(event=0, delta=0),
    "+event": dict(delta=0),
    "full": {},
    "-stack": dict(stack=0),
    "-event": dict(event=0),
    "-mode": dict(mode=0),
    "-hit": dict(hit=0),
    "sk6": dict(sk=6), "sk8": dict(sk=8), "sk12": dict(sk=12),
    "sd1": dict(sd=1), "sd4": dict(sd=4), "sd64": dict(sd=64),
    "noflip": dict(flip=0),
}


def raw_records(path):
    """Trace text v1 lowered to raw records (format.md 4.2), then END."""
    op = lzma.open if path.endswith(".xz") else open
    with op(path, "rt") as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            d, k, a = int(t[0], 0), t[1], int(t[2], 0)
            while d > M:
                yield (M, "O", T_TEXT, 0)
                d -= M
            if k == "L":
                yield (d, "O", T_LOST, a)
            else:
                yield (d, k, a, int(t[3], 0) if k == "O" else 0)
    yield (0, "O", T_END, 0)


class Dict:
    """The 7-entry dictionary of format.md 4.4: returns the code length."""

    def __init__(self, width, flip):
        self.e = list(range((1 << ND) - 1))
        self.wp, self.width, self.flip = 0, width, flip

    def code(self, key):
        e = self.e
        if key in e:
            e[e.index(key)] ^= self.flip
            return ND
        e[self.wp] = key ^ self.flip
        self.wp = (self.wp + 1) % len(e)
        return ND + self.width


def time_bits(d):
    return NZ + max(d.bit_length() - 1, 0)


def rank_bits(alpha, sym):
    i = alpha.index(sym)
    return i if i == len(alpha) - 1 else i + 1


def alphabet(m, h, with_np, hit_on):
    a = list(ORDER[m])
    if with_np:
        a.insert(1 if not (h and hit_on) else (8 if m else 3), NP)
    return a + [ESC]


def bits_per_record(path, stack=1, event=1, delta=1, mode=1, hit=1, sk=9, sd=16,
                    flip=1):
    fd, td, vd = Dict(1 + FID_W, FLAG if flip else 0), Dict(TYPE_W, 0), Dict(VAL_W, 0)
    tab = {}  # idx -> [key, pd, kb, m, h]; absent = all zero
    stk, prev = [], 0
    mask = (1 << sk) - 1
    bits = records = 0
    for d, k, a, b in raw_records(path):
        if not (k == "O" and a in (T_TEXT, T_END)):
            records += 1
        fn = k != "O"
        key = (FLAG if k == "X" else 0) | a if fn else None
        top = stk[-1] if stk and stack else 0
        pf, pi = prev >> FID_W, prev & (FLAG - 1)
        v = (top << 1 | pf) ^ (pi << 3) ^ (pi << (sk - 2))
        idx = 0
        while v:
            idx ^= v & mask
            v >>= sk
        e = tab.get(idx) or [0, 0, 0, 0, 0]
        epd, ekb, em, eh = e[1], e[2], e[3] if mode else 0, e[4]
        pred = event and fn and key == e[0]
        # delta
        if delta:
            near = d + 1 == epd or d == epd + 1
            j = d.bit_length() - ekb
            sym = EQ if d == epd else NEAR if near else \
                J_SYM[j] if d and -3 <= j <= 4 else ESC
            if event:
                al = alphabet(em, eh, 1, hit)
                if not pred:
                    bits += rank_bits(al, NP)
                    al = alphabet(em, eh, 0, hit)
            else:
                al = alphabet(em, eh, 0, hit)
            bits += rank_bits(al, sym)
            bits += {EQ: 0, NEAR: 1, ESC: time_bits(d)}.get(sym, max(d.bit_length() - 1, 0))
        else:
            bits += time_bits(d) + (1 if event else 0)
        # event class
        if not pred:
            if not stack:
                bits += 1
            elif k == "X" and a == (stk[-1] if stk else 0):
                bits += 1
                key = FLAG | a
            else:
                bits += 2
            if fn and not (stack and k == "X" and a == (stk[-1] if stk else 0)):
                bits += fd.code(key)
            elif not fn:
                bits += td.code(a) + vd.code(b)
        if not fn:
            continue
        # update (format.md 4.7)
        ln = d.bit_length()
        near = d == e[1] or d + 1 == e[1] or d == e[1] + 1
        tab[idx] = [key, min(d, PD_MAX), e[2] + (ln > e[2]) - (ln < e[2]), int(not near),
                    int(bool(pred))]
        if k == "E":
            stk.append(a)
            if len(stk) > sd:
                del stk[0]
        elif stk and stk[-1] == a:
            stk.pop()
        prev = key
    bits = (bits + 7) // 8 * 8  # END pads to the byte
    return bits, records


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    names = argv[2:] or list(VARIANTS)
    for n in names:
        if n not in VARIANTS:
            sys.stderr.write("stack_ablation: unknown variant %s\n" % n)
            return 2
    for n in names:
        bits, recs = bits_per_record(argv[1], **VARIANTS[n])
        print("%s %.4f %d" % (n, bits / recs, bits // 8))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
