#!/usr/bin/env python3
"""Stack mode ablation: bits/record of stack mode (docs/format.md 4.7) and
stack mode 2 (4.8) with each piece switched on or off in turn
(docs/stack-mode.md, reports/stack.md).

  stack_ablation.py TRACE.txt [VARIANT ...]    prints "variant bits/record bytes"
  stack_ablation.py TRACE.txt --long N [VARIANT ...]   adds the count of raw
      records whose code is longer than N bits (the RTL cuts a record longer
      than its packer's piece, 58 bits in stack mode 2, in two clocks)

A second, independent implementation of the two modes' bit counts, written
from the format text; with every switch of a mode on it gives the C model's
stream size exactly (`stack` and `stack2`; tests/stack_report.sh checks both
on every trace). Paper widths: NT 23, FID_W 15, TYPE_W 7, VAL_W 16.

Variants (default: all). Stack mode (SK 9, SD 16, ND 3) and what each of its
pieces buys:
  paper      the paper's per-field coding (kind bit, time code, dictionaries)
  +stack     paper + the shadow stack's exit-of-top class (0 / 10 / 11)
  +event     + the context table's event prediction: a 1-bit predicted flag
             before the paper time code
  stack      + the delta prediction (ranked symbols): stack mode
  -stack -event -mode -hit   stack without the shadow stack, the event
             prediction, the near/noisy delta modes, the last-hit bit
  sk6 sk8 sk12 sd1 sd4 sd64  stack with another table size or stack depth
Stack mode 2 (SK 12, SD 16, SO 9, ND 4,3,4), built up from stack mode:
  +sk12      stack with 4096 contexts
  +noflip    + a function dictionary without the exit flip
  +nd4       + 15-entry function and value dictionaries
  +phase     + the NEAR phase (NEARp / NEARo)
  +os        + the OS context table (class bit after its NP)
  stack2     + NPX instead of that class bit: stack mode 2
and stack mode 2 without one piece, or with another size:
  -phase2 -os2 -nd4 (7 entries) -noflip2 (flip back on) s2sk11 s2so8
  s2nd5      31-entry function and value dictionaries
Measured proposals, not in the format:
  +match     stack2 + a match model: a history of the last 2^10 records in a
             ring, a table of 2^10 positions indexed by a rolling hash of the
             last 3 records, a match pointer that steps on after each record
             and restarts from the table 3 records after a miss, and runs of
             matched records coded as one flag bit and an Elias-gamma length,
             offered only while the previous candidate matched
  +match1    the same restarting on the record after a miss (a one-clock loop
             through the history RAM in hardware)
Stack mode 2's time quantum (format.md 4.8, in the format; the C model's
`--quantum N` streams):
  tq10 tq100 tq1000   stack2 with TQ = 10, 100, 1000 ticks
Measured for the OS records' deltas, not in the format:
  +dd        stack2 + a 15-entry dictionary of recent OS deltas (4.4's FIFO
             rules): a symbol DH first in the OS entry's alphabets, 4 address
             bits, taken when shorter than the delta's own symbol
  +mtf       the same with a 31-entry move-to-front list, its position coded
             Elias-gamma
  +osown     an OS record that o predicts takes its delta from an entry of
             its own (type, value), others from o (tables without collisions:
             an upper bound)
  +ospair    the same with an entry per (previous, own) pair: second order
  +oslz      o's delta fields split by the previous OS delta's bit-length
             class (bit length // 3)
"""
import lzma
import sys

NT, FID_W, TYPE_W, VAL_W = 23, 15, 7, 16
NZ = NT.bit_length()
M = (1 << NT) - 1
T_TEXT, T_END, T_SYNC, T_LOST = (1 << TYPE_W) - 1, (1 << TYPE_W) - 2, (1 << TYPE_W) - 3, (1 << TYPE_W) - 4
FLAG = 1 << FID_W
PD_MAX = 4095
EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4, NP, ESC, NEARO, NPX, DH = range(15)
SYM_J = {L0: 0, LP1: 1, LM1: -1, LP2: 2, LM2: -2, LP3: 3, LM3: -3, LP4: 4}
J_SYM = {j: s for s, j in SYM_J.items()}
ORDER = ([EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4],
         [L0, LP1, LM1, LP2, LM2, LP3, EQ, NEAR, LM3, LP4])

S1 = dict(sk=9, sd=16, nd=(3, 3, 3))
S2 = dict(v2=1, sk=12, so=9, nd=(4, 3, 4), flip=0, phase=1, os=1, npx=1)
VARIANTS = {
    "paper": dict(S1, stack=0, event=0, delta=0),
    "+stack": dict(S1, event=0, delta=0),
    "+event": dict(S1, delta=0),
    "stack": S1,
    "-stack": dict(S1, stack=0),
    "-event": dict(S1, event=0),
    "-mode": dict(S1, mode=0),
    "-hit": dict(S1, hit=0),
    "sk6": dict(S1, sk=6), "sk8": dict(S1, sk=8), "sk12": dict(S1, sk=12),
    "sd1": dict(S1, sd=1), "sd4": dict(S1, sd=4), "sd64": dict(S1, sd=64),
    "+sk12": dict(S1, sk=12),
    "+noflip": dict(S1, sk=12, v2=1, flip=0, phase=0, os=0, npx=0),
    "+nd4": dict(S1, sk=12, v2=1, flip=0, phase=0, os=0, npx=0, nd=(4, 3, 4)),
    "+phase": dict(S1, sk=12, v2=1, flip=0, phase=1, os=0, npx=0, nd=(4, 3, 4)),
    "+os": dict(S2, npx=0),
    "stack2": S2,
    "-phase2": dict(S2, phase=0),
    "-os2": dict(S2, os=0),
    "-nd4": dict(S2, nd=(3, 3, 3)),
    "-noflip2": dict(S2, flip=1),
    "s2sk11": dict(S2, sk=11), "s2so8": dict(S2, so=8),
    "s2nd5": dict(S2, nd=(5, 3, 5)),
    "+match": dict(S2, match=3),
    "+match1": dict(S2, match=1),
}
_DH0 = {(0, 0): 0, (1, 0): 0, (0, 1): 0, (1, 1): 0}  # DH first in every alphabet
VARIANTS.update({
    "tq10": dict(S2, tq=10), "tq100": dict(S2, tq=100), "tq1000": dict(S2, tq=1000),
    "+dd": dict(S2, dd=4, dd_pos=_DH0),
    "+mtf": dict(S2, dd=5, dd_pos=_DH0, dd_mtf=31),
    "+osown": dict(S2, osk=lambda o, r, p, t, v, ld: (r[2], r[3]) if p else ("o", id(o))),
    "+ospair": dict(S2, osk=lambda o, r, p, t, v, ld: (t, v, r[2], r[3]) if p else ("o", id(o))),
    "+oslz": dict(S2, osk=lambda o, r, p, t, v, ld: (id(o), ld.bit_length() // 3)),
})


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
    """A dictionary of format.md 4.4 with 2^nd - 1 entries: code length."""

    def __init__(self, nd, width, flip):
        self.e = list(range((1 << nd) - 1))
        self.nd, self.wp, self.width, self.flip = nd, 0, width, flip

    def code(self, key):
        e = self.e
        if key in e:
            e[e.index(key)] ^= self.flip
            return self.nd
        e[self.wp] = key ^ self.flip
        self.wp = (self.wp + 1) % len(e)
        return self.nd + self.width


def time_bits(d):
    return NZ + max(d.bit_length() - 1, 0)


def rank_bits(alpha, sym):
    i = alpha.index(sym)
    return i if i == len(alpha) - 1 else i + 1


def alphabet(m, np_rank, split=False, npx=False, dh=None):
    """The order of mode m; NP in front of element np_rank (None: no NP);
    DH in front of element dh (None: no DH), before NP when both are there;
    NEARO after NEAR when split; ESC, then NPX when npx."""
    a = []
    for i, s in enumerate(ORDER[m]):
        if i == dh:
            a.append(DH)
        if i == np_rank:
            a.append(NP)
        a.append(s)
        if split and s == NEAR:
            a.append(NEARO)
    if dh == len(ORDER[m]):
        a.append(DH)
    return a + [ESC] + ([NPX] if npx else [])


def fold(v, bits):
    h, mask = 0, (1 << bits) - 1
    while v:
        h ^= v & mask
        v >>= bits
    return h


class Entry:
    __slots__ = ("key", "val", "pd", "kb", "m", "h")

    def __init__(self):
        self.key = self.val = self.pd = self.kb = self.m = self.h = 0


def delta_symbol(e, d, ld, split, raw=None):
    """The encoder's delta symbol and its payload bits (format.md 4.7, 4.8);
    raw: a delta that is not a multiple of the quantum, coded as ESC with the
    z of all ones and then its own timestamp code."""
    if raw is not None:
        return ESC, NZ + time_bits(raw)
    if d == e.pd:
        return EQ, 0
    if d + 1 == e.pd or d == e.pd + 1:
        if not split:
            return NEAR, 1
        return (NEAR if (d > e.pd) == (ld == "down") else NEARO), 0
    j = d.bit_length() - e.kb
    if d and -3 <= j <= 4:
        return J_SYM[j], d.bit_length() - 1
    return ESC, time_bits(d)


def delta_update(e, d):
    ln = d.bit_length()
    near = d == e.pd or d + 1 == e.pd or d == e.pd + 1
    e.kb += (ln > e.kb) - (ln < e.kb)
    e.m = int(not near)
    e.pd = min(d, PD_MAX)


class Match:
    """The match model of +match: predicts the record after the previous
    occurrence of the last 3 records and codes runs of hits."""

    def __init__(self, restart):
        self.hw, self.tb, self.restart = 10, 10, restart
        self.hist = [None] * (1 << self.hw)
        self.pos = {}
        self.h = 0
        self.q = None
        self.miss = [0] * 4
        self.gate = 0
        self.run = 0
        self.bits = 0
        self.i = 0

    def step(self, rec):
        """Returns True when rec is coded by the run (no record code)."""
        i, hs = self.i, 1 << self.hw
        st = self.pos.get(self.h)
        if (self.q is None or self.miss[self.restart - 1]) and st is not None and i - st < hs:
            self.q = st
        cand = self.hist[self.q % hs] if self.q is not None and self.q < i and i - self.q < hs else None
        special = rec[1] == "O" and rec[2] in (T_END, T_SYNC)
        same = cand == rec and rec[0] <= PD_MAX and not special
        offer = cand is not None and self.gate
        self.miss = [int(cand is not None and not same)] + self.miss[:3]
        if cand is not None:
            self.gate = int(same)
        if self.q is not None:
            self.q += 1
        self.hist[i % hs] = rec
        self.pos[self.h] = i
        d, k, a, b = rec
        g = (d * 0x27d4eb2f ^ "EXO".index(k) << 20 ^ a * 0x9e3779b1 ^ b * 0x85ebca6b) >> 12
        self.h = ((self.h << 4) ^ (g & 0xfff)) & ((1 << self.tb) - 1)
        self.i += 1
        if offer and same:
            if self.run == 0:
                self.bits += 1
            self.run += 1
            return True
        self.flush()
        if offer:
            self.bits += 1
        return False

    def flush(self):
        if self.run:
            self.bits += 2 * (self.run.bit_length() - 1) + 1
            self.run = 0


def bits_per_record(path, stack=1, event=1, delta=1, mode=1, hit=1, sk=9, sd=16,
                    nd=(3, 3, 3), flip=1, v2=0, so=0, phase=0, os=0, npx=0, match=0,
                    dd=0, dd_pos=None, dd_mtf=0, osk=None, tq=1,
                    long_bits=99999):
    rawd = [None]
    dtab, last_od = {}, [0]
    fd = Dict(nd[0], 1 + FID_W, FLAG if flip else 0)
    ddict = (list(range(dd_mtf)) if dd_mtf else Dict(dd, NT, 0)) if dd else None
    dd_last = [0]
    td, vd = Dict(nd[1], TYPE_W, 0), Dict(nd[2], VAL_W, 0)
    tab, otab = {}, {}
    stk, prev = [], 0
    ptype = pval = pk = nc = 0
    ld = None
    mm = Match(match) if match else None
    bits = records = longer = 0

    def ent(e):
        return (e.m if mode else 0), (1 if not (e.h and hit) else (8 if e.m and mode else 3))

    def code_os(o, rec, first):
        """An OS record through OS entry o (step 1 when first, else class
        11's code); returns its bits and updates o."""
        nonlocal pk, nc, ptype, pval
        d, _, a, b = rec
        m_o = o.m if mode else 0
        pred = a == o.key and b == o.val
        c = 0
        dh = dd_pos[(m_o, dd_last[0])] if dd else None
        with_np = alphabet(m_o, 1, npx=first and npx, dh=dh)
        if not pred:
            if first and npx:
                c += rank_bits(with_np, NP if nc == 0 else NPX)
                nc = 0
            else:
                c += rank_bits(with_np, NP) + (1 if first else 0)
            al = alphabet(m_o, None, dh=dh)
        else:
            al = with_np
        od = o
        if osk:
            od = dtab.setdefault(osk(o, rec, pred, ptype, pval, last_od[0]), Entry())
            last_od[0] = d
            m_o = od.m if mode else 0
            with_np = alphabet(m_o, 1, npx=first and npx, dh=dh)
            al = with_np if pred else alphabet(m_o, None, dh=dh)
        sym, pay = delta_symbol(od, d, None, False, rawd[0])
        if dd:
            if dd_mtf:
                dpay = (2 * (ddict.index(d) + 1).bit_length() - 1) if d in ddict else 99
            else:
                dpay = ddict.nd if d in ddict.e else 99
            if dpay < 99 and rank_bits(al, DH) + dpay < rank_bits(al, sym) + pay:
                sym, pay = DH, dpay
            dd_last[0] = int(sym == DH)
            if dd_mtf:
                if d in ddict:
                    ddict.remove(d)
                ddict.insert(0, d)
                del ddict[dd_mtf:]
            else:
                ddict.code(d)
        c += rank_bits(al, sym) + pay
        if not pred:
            c += td.code(a) + vd.code(b)
        delta_update(od, d)
        if od is not o:
            delta_update(o, d)
        o.key, o.val = a, b
        ptype, pval, pk = a, b, 1
        return c

    for rec in raw_records(path):
        d, k, a, b = rec
        rawd[0] = d if d % tq else None
        d //= tq
        rec = (d, k, a, b)
        if not (k == "O" and a in (T_TEXT, T_END, T_SYNC)):
            records += 1
        fn = k != "O"
        skip = mm.step(rec) if mm else False
        c = 0
        if v2 and os and pk:
            o = otab.setdefault(fold(ptype << VAL_W | pval, so), Entry())
            if not fn:
                c = code_os(o, rec, True)
                bits += 0 if skip else c
                longer += c > long_bits and not skip
                continue
            al = alphabet(o.m if mode else 0, 1, npx=npx)
            if npx:
                c += rank_bits(al, NP if nc == 1 else NPX)
                nc = 1
            else:
                c += rank_bits(al, NP) + 1
        key = (FLAG if k == "X" else 0) | a if fn else None
        top = stk[-1] if stk and stack else 0
        pf, pi = prev >> FID_W, prev & (FLAG - 1)
        idx = fold((top << 1 | pf) ^ (pi << 3) ^ (pi << (sk - 2)), sk)
        e = tab.setdefault(idx, Entry())
        m_e, np_rank = ent(e)
        pred = event and fn and key == e.key
        split = bool(v2 and phase and ld)
        is_top = k == "X" and stack and a == (stk[-1] if stk else 0)
        if not delta:
            c += time_bits(d) + (1 if event else 0)
            if not pred:
                c += (1 if is_top else 2) if stack else 1
                if fn and not is_top:
                    c += fd.code(key)
                elif not fn:
                    c += td.code(a) + vd.code(b)
        elif v2:
            al = alphabet(m_e, np_rank, split)
            if not pred:
                c += rank_bits(al, NP)
                if not fn and os:
                    c += 2 + code_os(otab.setdefault(fold(ptype << VAL_W | pval, so), Entry()), rec, False)
                    bits += 0 if skip else c
                    longer += c > long_bits and not skip
                    continue
                c += 1 if is_top else 2
                al = alphabet(m_e, None, split)
            sym, pay = delta_symbol(e, d, ld, split, rawd[0])
            c += rank_bits(al, sym) + pay
            if not pred and fn and not is_top:
                c += fd.code(key)
            elif not fn:
                c += td.code(a) + vd.code(b)
        else:
            al = alphabet(m_e, np_rank if event else None)
            if event and not pred:
                c += rank_bits(al, NP)
                al = alphabet(m_e, None)
            sym, pay = delta_symbol(e, d, None, False)
            c += rank_bits(al, sym) + pay
            if not pred:
                c += (1 if is_top else 2) if stack else 1
                if fn and not is_top:
                    c += fd.code(key)
                elif not fn:
                    c += td.code(a) + vd.code(b)
        bits += 0 if skip else c
        longer += c > long_bits and not skip
        if v2:
            pk = 0 if fn or not os else pk
        if not fn:
            continue
        # update (format.md 4.7, and 4.8's NEAR phase)
        if v2 and phase:
            ld = (ld if d == e.pd else "up" if d == e.pd + 1 else
                  "down" if d + 1 == e.pd else None)
        delta_update(e, d)
        e.h, e.key = int(bool(pred)), key
        if k == "E":
            stk.append(a)
            if len(stk) > sd:
                del stk[0]
        elif stk and stk[-1] == a:
            stk.pop()
        prev = key
    if mm:
        mm.flush()
        bits += mm.bits
    bits = (bits + 7) // 8 * 8  # END pads to the byte
    return (bits, records, longer) if long_bits < 99999 else (bits, records)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    names, long_bits = argv[2:], None
    if names[:1] == ["--long"] and len(names) > 1 and names[1].isdigit():
        long_bits, names = int(names[1]), names[2:]
    names = names or list(VARIANTS)
    for n in names:
        if n not in VARIANTS:
            sys.stderr.write("stack_ablation: unknown variant %s\n" % n)
            return 2
    for n in names:
        if long_bits is None:
            bits, recs = bits_per_record(argv[1], **VARIANTS[n])
            print("%s %.4f %d" % (n, bits / recs, bits // 8))
        else:
            bits, recs, longer = bits_per_record(argv[1], long_bits=long_bits, **VARIANTS[n])
            print("%s %.4f %d %d" % (n, bits / recs, bits // 8, longer))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
