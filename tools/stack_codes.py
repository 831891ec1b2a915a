"""The coding pieces of stack mode (docs/format.md 4.7) and stack mode 2
(4.8), written from the format text for tools/stack_ablation.py: the paper
widths, trace text lowered to raw records, the dictionaries, the time and
rank code lengths, the ranked delta symbols and the match model. Each gives
a code length in bits, never a stream.
"""
import lzma

NT, FID_W, TYPE_W, VAL_W = 23, 15, 7, 16
NZ = NT.bit_length()
M = (1 << NT) - 1
T_TEXT, T_END, T_SYNC, T_LOST = ((1 << TYPE_W) - 1, (1 << TYPE_W) - 2, (1 << TYPE_W) - 3,
                                  (1 << TYPE_W) - 4)
FLAG = 1 << FID_W
PD_MAX = 4095
EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4, NP, ESC, NEARO, NPX, DH = range(15)
SYM_J = {L0: 0, LP1: 1, LM1: -1, LP2: 2, LM2: -2, LP3: 3, LM3: -3, LP4: 4}
J_SYM = {j: s for s, j in SYM_J.items()}
ORDER = ([EQ, NEAR, L0, LP1, LM1, LP2, LM2, LP3, LM3, LP4],
         [L0, LP1, LM1, LP2, LM2, LP3, EQ, NEAR, LM3, LP4])


def raw_records(path, sync=0):
    """Trace text v1 lowered to raw records (format.md 4.2), then END; with
    sync, a SYNC (delta 0) before every record after the first sync records
    of a frame, as `trc compress --sync-every` writes it."""
    op = lzma.open if path.endswith(".xz") else open
    since = 0
    with op(path, "rt") as f:
        for line in f:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            if sync and since == sync:
                yield (0, "O", T_SYNC, 0)
                since = 0
            since += 1
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
    __slots__ = ("key", "val", "pd", "kb", "m", "h", "w")

    def __init__(self):
        self.key = self.val = self.pd = self.kb = self.m = self.h = self.w = 0


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
