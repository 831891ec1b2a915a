#!/usr/bin/env python3
"""Stack mode ablation: bits/record of stack mode (docs/format.md 4.7) and
stack mode 2 (4.8) with each piece switched on or off in turn
(docs/stack-mode.md, reports/stack.md).

  stack_ablation.py TRACE.txt [VARIANT ...]    prints "variant bits/record bytes"
  stack_ablation.py TRACE.txt --long N [VARIANT ...]   adds the count of raw
      records whose code is longer than N bits (the RTL cuts a record longer
      than its packer's piece, 58 bits in stack mode 2, in two clocks)
  stack_ablation.py TRACE.txt --sync N [VARIANT ...]   a SYNC every N records,
      as `trc compress --sync-every N` writes the stream

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
Stack mode 2's fresh entries (format.md 4.8, FE; the C model's default,
`--no-fresh` turns them off):
  +fresh     stack2 where an entry not updated since the reset predicts
             nothing and codes without NP and delta ranks; its first update
             sets kb to the delta's bit length
  tq10fe tq100fe tq1000fe   +fresh with TQ = 10, 100, 1000 ticks
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
import sys

from stack_codes import (alphabet, NZ, PD_MAX, delta_symbol, delta_update, DH, Dict, Entry, FID_W, FLAG,
                         fold, Match, NP, NPX, NT, rank_bits, raw_records, T_END,
                         T_SYNC, T_TEXT, time_bits, TYPE_W, VAL_W)

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
    "+fresh": dict(S2, fresh=1),
}
_DH0 = {(0, 0): 0, (1, 0): 0, (0, 1): 0, (1, 1): 0}  # DH first in every alphabet
VARIANTS.update({
    "tq10": dict(S2, tq=10), "tq100": dict(S2, tq=100), "tq1000": dict(S2, tq=1000),
    "tq10fe": dict(S2, tq=10, fresh=1), "tq100fe": dict(S2, tq=100, fresh=1),
    "tq1000fe": dict(S2, tq=1000, fresh=1),
    "+dd": dict(S2, dd=4, dd_pos=_DH0),
    "+mtf": dict(S2, dd=5, dd_pos=_DH0, dd_mtf=31),
    "+osown": dict(S2, osk=lambda o, r, p, t, v, ld: (r[2], r[3]) if p else ("o", id(o))),
    "+ospair": dict(S2, osk=lambda o, r, p, t, v, ld: (t, v, r[2], r[3]) if p else ("o", id(o))),
    "+oslz": dict(S2, osk=lambda o, r, p, t, v, ld: (id(o), ld.bit_length() // 3)),
})


def bits_per_record(path, sync=0, long_bits=99999, **kw):
    """Bits (padded to bytes after every SYNC and the END) and records of the
    trace at path, with a SYNC every sync records; each SYNC returns the
    coder to its reset state."""
    recs = raw_records(path, sync)
    bits = records = longer = 0
    more = [True]

    def frame():
        for r in recs:
            yield r
            if r[1] == "O" and r[2] == T_SYNC:
                return
        more[0] = False

    while more[0]:
        b, n, ln = frame_bits(frame(), long_bits=long_bits, **kw)
        bits, records, longer = bits + b, records + n, longer + ln
    return (bits, records, longer) if long_bits < 99999 else (bits, records)


def frame_bits(recs, stack=1, event=1, delta=1, mode=1, hit=1, sk=9, sd=16,
                    nd=(3, 3, 3), flip=1, v2=0, so=0, phase=0, os=0, npx=0, match=0,
                    dd=0, dd_pos=None, dd_mtf=0, osk=None, tq=1, fresh=0,
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

    def fields(fn, is_top, key, a, b):
        """Bits of a record whose event was not predicted, after its time: the
        class (exit of the stack's top or not; one bit without the stack) and
        the dictionary fields (none for an exit of the top)."""
        c = (1 if is_top else 2) if stack else 1
        if fn and not is_top:
            return c + fd.code(key)
        return c + (0 if fn else td.code(a) + vd.code(b))

    def esc_pay(d):
        return NZ + time_bits(rawd[0]) if rawd[0] is not None else time_bits(d)

    def update(e, d):
        if fresh and not e.w:
            e.kb, e.m, e.pd = d.bit_length(), 1, min(d, PD_MAX)
        else:
            delta_update(e, d)
        e.w = 1

    def ent(e):
        return (e.m if mode else 0), (1 if not (e.h and hit) else (8 if e.m and mode else 3))

    def code_os(o, rec, first):
        """An OS record through OS entry o (step 1 when first, else class
        11's code); returns its bits and updates o."""
        nonlocal pk, nc, ptype, pval
        d, _, a, b = rec
        if fresh and not o.w:
            c = (1 if first else 0) + esc_pay(d) + td.code(a) + vd.code(b)
            nc = 0 if first else nc
            update(o, d)
            o.key, o.val = a, b
            ptype, pval, pk = a, b, 1
            return c
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
        update(od, d)
        if od is not o:
            update(o, d)
        o.key, o.val = a, b
        ptype, pval, pk = a, b, 1
        return c

    for rec in recs:
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
            if fresh and not o.w:
                c += 1
                nc = 1
            elif npx:
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
                c += fields(fn, is_top, key, a, b)
        elif v2 and fresh and not e.w:
            pred = False
            if not fn:
                c += 2 + code_os(otab.setdefault(fold(ptype << VAL_W | pval, so), Entry()), rec, False)
                bits += 0 if skip else c
                longer += c > long_bits and not skip
                continue
            c += (1 if is_top else 2) + esc_pay(d)
            if not is_top:
                c += fd.code(key)
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
                c += fields(fn, is_top, key, a, b)
        bits += 0 if skip else c
        longer += c > long_bits and not skip
        if v2:
            pk = 0 if fn or not os else pk
        if not fn:
            continue
        # update (format.md 4.7, and 4.8's NEAR phase)
        if v2 and phase and fresh and not e.w:
            ld = None
        elif v2 and phase:
            ld = (ld if d == e.pd else "up" if d == e.pd + 1 else
                  "down" if d + 1 == e.pd else None)
        update(e, d)
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
    bits = (bits + 7) // 8 * 8  # END and SYNC pad to the byte
    return bits, records, longer


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    names, opts = argv[2:], {}
    while names[:1] in (["--long"], ["--sync"]):
        if len(names) < 2 or not names[1].isdigit():
            sys.stderr.write("stack_ablation: %s needs a number\n" % names[0])
            return 2
        opts[names[0][2:]] = int(names[1])
        names = names[2:]
    names = names or list(VARIANTS)
    for n in names:
        if n not in VARIANTS:
            sys.stderr.write("stack_ablation: unknown variant %s\n" % n)
            return 2
    long_bits = opts.get("long")
    for n in names:
        kw = dict(VARIANTS[n], sync=opts.get("sync", 0))
        if long_bits is None:
            bits, recs = bits_per_record(argv[1], **kw)
            print("%s %.4f %d" % (n, bits / recs, bits // 8))
        else:
            bits, recs, longer = bits_per_record(argv[1], long_bits=long_bits, **kw)
            print("%s %.4f %d %d" % (n, bits / recs, bits // 8, longer))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
