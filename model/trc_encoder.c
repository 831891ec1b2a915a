/*
 * trc_encoder.c - the encoder: per-field coders (timestamp, function and OS
 * dictionaries) writing MSB-first bits into a byte stream.
 */
#include <stddef.h>
#include <string.h>

#include "trc.h"
#include "trc_dict.h"
#include "trc_paper.h"
#include "trc_stack.h"

/* The coders of a record are inlined into trc_encode()'s loop, so that the
 * bit writer's state stays in registers there rather than going through
 * memory at every put. */
#if defined(__GNUC__)
#define TRC_HOT_INLINE inline __attribute__((always_inline))
#define TRC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TRC_HOT_INLINE inline
#define TRC_UNLIKELY(x) (x)
#endif

/* Bit writer over the caller's buffer. Between flushes acc holds n valid
 * bits (right-aligned); flush() stores 8 bytes at once, whatever n, and
 * keeps the < 8 bits of a partial byte, so one put may carry up to 56 bits.
 * The 8-byte store runs past the last whole byte: callers keep
 * TRC_MAX_RECORD_BYTES of room. */
typedef struct {
    uint8_t *dst;
    size_t pos;
    uint64_t acc;
    unsigned n;
    size_t crcd; /* checked streams: bytes of dst already in the unit's CRC */
} bitw;

static inline void put(bitw *w, uint64_t v, unsigned bits)
{
    w->acc = (w->acc << bits) | v;
    w->n += bits;
}

/* The n bits of acc, MSB-first, as the 8 bytes at o (n <= 63, so the
 * two-step shift is defined for n = 0 too). */
static inline void store_bits(uint8_t *o, uint64_t acc, unsigned n)
{
    uint64_t x = (acc << (63u - n)) << 1;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    x = __builtin_bswap64(x);
    memcpy(o, &x, 8);
#else
    for (int i = 0; i < 8; i++)
        o[i] = (uint8_t)(x >> (56 - 8 * i));
#endif
}

/* No branch on n: the bits go to dst + pos, and pos moves by whole bytes. */
static inline void flush(bitw *w)
{
    store_bits(w->dst + w->pos, w->acc, w->n);
    w->pos += w->n >> 3;
    w->n &= 7u;
}

static void pad_to_byte(bitw *w)
{
    if (w->n & 7u)
        put(w, 0, 8u - (w->n & 7u));
    flush(w);
}

static void reset_dicts(trc_encoder *e)
{
    trc_dicts_reset(&e->p, &e->fdict, &e->tdict, &e->vdict);
    if (e->p.mode != TRC_MODE_PAPER)
        trc_stk_reset(&e->p, &e->stk);
}

trc_error trc_encoder_init(trc_encoder *e, const trc_params *p)
{
    if (trc_params_check(p) != TRC_OK || p->cpus > 1) /* several: trc_mp.c */
        return TRC_ERR_PARAM;
    e->p = *p;
    e->nz = trc_nz_bits(p->nt);
    reset_dicts(e);
    e->acc = 0;
    e->nacc = 0;
    e->pending = 0;
    e->in_record = 0;
    e->check = 0;
    e->ucrc = 0;
    e->ubytes = 0;
    e->count = 0;
    e->ureset = 1;
    return TRC_OK;
}

/* Timestamp code: z in NZ bits, then the bits below the leading one. Returns
 * the code, *bits its length (at most 6 + 31). */
static inline uint64_t time_code(const trc_params *p, unsigned nz,
                                 uint32_t d, unsigned *bits)
{
    if (d == 0) {
        *bits = nz;
        return p->nt;
    }
    unsigned top = 31u - (unsigned)__builtin_clz(d); /* leading one */
    *bits = nz + top;
    return ((uint64_t)(p->nt - 1u - top) << top) |
           (d & ((UINT32_C(1) << top) - 1u));
}

/* Timestamp code and the kind bit, as one put of at most 6 + 31 + 1 bits. */
static inline void put_time_kind(const trc_encoder *e, bitw *w, uint32_t d,
                                 unsigned kind)
{
    unsigned bits;
    uint64_t code = time_code(&e->p, e->nz, d, &bits);
    put(w, (code << 1) | kind, bits + 1u);
    flush(w);
}

/* Dictionary coder: hit writes the address, miss the escape and raw key. */
static inline void put_dict(bitw *w, trc_dict *d, unsigned nd, uint32_t key,
                     unsigned key_w, uint32_t flip)
{
    unsigned a = trc_dict_find(d, key);
    if (a < d->size) {
        put(w, a, nd);
        d->entry[a] ^= flip;
    } else {
        put(w, ((uint64_t)d->size << key_w) | key, nd + key_w);
        trc_dict_push(d, key ^ flip);
    }
    flush(w);
}

/* Ranked unary code: rank i of an n-symbol alphabet is i ones and a zero,
 * the last rank only its n - 1 ones. The alphabet is trc_stk_alphabet()'s
 * for entry en (npx: trc_stk_oalphabet()'s). */
static inline void put_sym(bitw *w, const trc_pentry *en, int with_np,
                           int split, int npx, unsigned sym)
{
    unsigned n = 11u + (unsigned)with_np + (unsigned)split + (unsigned)npx;
    unsigned i = trc_stk_rank(en, with_np, split, sym);
    unsigned last = i + 1u == n;
    put(w, ((UINT64_C(1) << i) - 1u) << (1u - last), i + 1u - last);
    flush(w);
}

/* A delta symbol's payload: NEAR's direction bit (no phase), the bits
 * below the leading one for a bit length, the paper code for ESC. d is in
 * time quanta (stack mode 2); raw, when not 0, is a delta that is not a
 * multiple of the quantum: ESC's payload is then z = 2^NZ - 1 and raw's
 * paper code. */
static inline void put_payload(const trc_params *p, unsigned nz, bitw *w,
                               const trc_pentry *en, unsigned ld, unsigned sym,
                               uint32_t d, uint32_t raw)
{
    unsigned bits;
    if (sym == SYM_NEAR && ld == TRC_LD_NONE) {
        put(w, d < en->pd, 1);
    } else if (sym == SYM_ESC) {
        if (raw)
            put(w, (UINT64_C(1) << nz) - 1u, nz);
        uint64_t code = time_code(p, nz, raw ? raw : d, &bits);
        put(w, code, bits);
    } else if (sym != SYM_EQ && sym != SYM_NEAR && sym != SYM_NEARO) {
        bits = trc_bitlen(d) - 1u;
        put(w, d & ((UINT32_C(1) << bits) - 1u), bits);
    }
    flush(w);
}

/* Stack mode (docs/format.md 4.7): a predicted function record is only its
 * delta symbol and payload; anything else is NP, the delta symbol (NP left
 * out of the alphabet) and payload, then the event class and its fields. */
static TRC_HOT_INLINE void put_stack(trc_encoder *e, const trc_params *p,
                                     unsigned nz, bitw *w, const trc_record *r)
{
    trc_stk *s = &e->stk;
    unsigned idx = trc_stk_index(p, s);
    const trc_pentry en = s->tab[idx];
    uint32_t d = (uint32_t)r->delta;
    int fn = r->kind != TRC_OS;
    uint32_t key = ((uint32_t)(r->kind == TRC_EXIT) << p->fid_w) | r->a;
    int pred = fn && key == en.key;
    if (!pred)
        put_sym(w, &en, 1, 0, 0, SYM_NP);
    unsigned sym = trc_stk_symbol(&en, d, TRC_LD_NONE);
    put_sym(w, &en, pred, 0, 0, sym);
    put_payload(p, nz, w, &en, TRC_LD_NONE, sym, d, 0);
    if (!pred) {
        if (r->kind == TRC_EXIT && r->a == trc_stk_top(s)) {
            put(w, 0, 1);
        } else if (fn) {
            put(w, 2, 2);
            put_dict(w, &e->fdict, p->nd_f, key, p->fid_w + 1u,
                     UINT32_C(1) << p->fid_w);
        } else {
            put(w, 3, 2);
            put_dict(w, &e->tdict, p->nd_t, r->a, p->type_w, 0);
            put_dict(w, &e->vdict, p->nd_v, r->b, p->val_w, 0);
        }
        flush(w);
    }
    if (fn)
        trc_stk_update(p, s, idx, key, d, pred);
}

/* Stack mode 2's time quantum: d in quanta; *raw = d when d is not a
 * multiple of the quantum (coded raw), else 0. */
static inline uint32_t quantize(const trc_params *p, uint32_t d, uint32_t *raw)
{
    uint32_t tq = TRC_TQ(p);
    *raw = tq > 1u && d % tq ? d : 0u;
    return tq > 1u ? d / tq : d;
}

/* Stack mode 2, an OS record through the OS context entry: predicted, its
 * delta symbol alone; else NP (after an OS record, the NP of class OS), the
 * delta symbol without NP, the type and value codes. A fresh entry predicts
 * nothing and has no ranks: after an OS record one bit for NP or NPX, then
 * ESC's payload alone. */
static TRC_HOT_INLINE void put_stack2_os(trc_encoder *e, const trc_params *p,
                                         unsigned nz, bitw *w,
                                         const trc_record *r)
{
    trc_stk *s = &e->stk;
    unsigned oidx = trc_stk_oindex(p, s);
    const trc_pentry oe = s->otab[oidx];
    uint32_t raw, d = quantize(p, (uint32_t)r->delta, &raw);
    int fresh = trc_stk_fresh(p, &oe);
    int pred = !fresh && r->a == oe.key && r->b == oe.val;
    if (fresh && s->pk)
        put(w, s->nc != 0, 1);
    else if (!pred && !fresh)
        put_sym(w, &oe, 1, 0, s->pk != 0,
                !s->pk || s->nc == 0 ? SYM_NP : SYM_NPX);
    s->nc = s->pk && !pred ? 0 : s->nc;
    unsigned sym = raw || fresh ? (unsigned)SYM_ESC
                                : trc_stk_symbol(&oe, d, TRC_LD_NONE);
    if (!fresh)
        put_sym(w, &oe, pred, 0, pred && s->pk, sym);
    put_payload(p, nz, w, &oe, TRC_LD_NONE, sym, d, raw);
    if (!pred) {
        put_dict(w, &e->tdict, p->nd_t, r->a, p->type_w, 0);
        put_dict(w, &e->vdict, p->nd_v, r->b, p->val_w, 0);
    }
    trc_stk_oupdate(p, s, oidx, r->a, r->b, d);
}

/* Stack mode 2 (docs/format.md 4.8). After an OS record the OS context
 * entry codes first: a function record is its NP of class function (NP when
 * the last such NP was of that class, else NPX), then the function context
 * entry codes as in stack mode, with the NEAR phase, a dictionary without
 * the exit flip, and the class before the delta symbol; class 11 hands the
 * record to the OS context entry. */
static TRC_HOT_INLINE void put_stack2(trc_encoder *e, const trc_params *p,
                                      unsigned nz, bitw *w,
                                      const trc_record *r)
{
    trc_stk *s = &e->stk;
    int fn = r->kind != TRC_OS;
    if (s->pk) {
        if (!fn) {
            put_stack2_os(e, p, nz, w, r);
            return;
        }
        unsigned oidx = trc_stk_oindex(p, s);
        if (trc_stk_fresh(p, &s->otab[oidx]))
            put(w, s->nc != 1, 1);
        else
            put_sym(w, &s->otab[oidx], 1, 0, 1, s->nc == 1 ? SYM_NP : SYM_NPX);
        s->nc = 1;
    }
    unsigned idx = trc_stk_index(p, s);
    const trc_pentry en = s->tab[idx];
    uint32_t raw, d = quantize(p, (uint32_t)r->delta, &raw);
    uint32_t key = ((uint32_t)(r->kind == TRC_EXIT) << p->fid_w) | r->a;
    int fresh = trc_stk_fresh(p, &en);
    int pred = !fresh && fn && key == en.key;
    int split = s->ld != TRC_LD_NONE;
    if (!pred) {
        if (!fresh)
            put_sym(w, &en, 1, split, 0, SYM_NP);
        if (!fn) {
            put(w, 3, 2);
            put_stack2_os(e, p, nz, w, r);
            return;
        }
        int top = r->kind == TRC_EXIT && r->a == trc_stk_top(s);
        put(w, top ? 0u : 2u, top ? 1u : 2u);
        unsigned sym = raw || fresh ? (unsigned)SYM_ESC : trc_stk_symbol(&en, d, s->ld);
        if (!fresh)
            put_sym(w, &en, 0, split, 0, sym);
        put_payload(p, nz, w, &en, s->ld, sym, d, raw);
        if (!top)
            put_dict(w, &e->fdict, p->nd_f, key, p->fid_w + 1u, 0);
    } else {
        unsigned sym = raw ? (unsigned)SYM_ESC : trc_stk_symbol(&en, d, s->ld);
        put_sym(w, &en, 1, split, 0, sym);
        put_payload(p, nz, w, &en, s->ld, sym, d, raw);
    }
    trc_stk_update(p, s, idx, key, d, pred);
}

/* ---- Checked streams (docs/format.md 4.10) ------------------------------ */

/* Adds the bytes written since the last call to the unit's CRC. */
static void unit_crc(trc_encoder *e, bitw *w)
{
    if (w->pos > w->crcd) {
        e->ucrc = trc_crc32(e->ucrc, w->dst + w->crcd, w->pos - w->crcd);
        e->ubytes += w->pos - w->crcd;
        w->crcd = w->pos;
    }
}

/* After an END or SYNC and its padding: zero bytes up to a multiple of 8
 * bytes of the unit, the count word (bit 31: the unit began in the reset
 * state; bits 30..0: the trace records so far, mod 2^31), then the unit's
 * CRC-32, each least significant byte first. */
static void close_unit(trc_encoder *e, bitw *w)
{
    unit_crc(e, w);
    size_t z = (size_t)((8u - e->ubytes % 8u) % 8u);
    memset(w->dst + w->pos, 0, z);
    w->pos += z;
    uint32_t cw = (uint32_t)e->ureset << 31 | (e->count & 0x7FFFFFFFu);
    for (int i = 0; i < 4; i++)
        w->dst[w->pos++] = (uint8_t)(cw >> (8 * i));
    unit_crc(e, w);
    for (int i = 0; i < 4; i++)
        w->dst[w->pos++] = (uint8_t)(e->ucrc >> (8 * i));
    w->crcd = w->pos;
    e->ucrc = 0;
    e->ubytes = 0;
}

/* After an END's unit: two closing units, each the unit's count word and
 * the CRC-32 of those 4 bytes alone, so that a reader that loses the unit
 * still learns how many records it held (format.md 4.10). */
static void close_end(trc_encoder *e, bitw *w)
{
    uint32_t cw = (uint32_t)e->ureset << 31 | (e->count & 0x7FFFFFFFu);
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(cw >> (8 * i));
    uint32_t crc = trc_crc32(0, b, 4);
    for (int k = 0; k < 2; k++) {
        memcpy(w->dst + w->pos, b, 4);
        for (int i = 0; i < 4; i++)
            w->dst[w->pos + 4 + i] = (uint8_t)(crc >> (8 * i));
        w->pos += 8;
    }
    w->crcd = w->pos;
}

/* Codes one raw record already checked by trc_raw_check(). p holds e's
 * parameters (or a constant copy of them: see run_kind()), nz e->nz. */
static TRC_HOT_INLINE void put_raw(trc_encoder *e, const trc_params *p,
                                   unsigned nz, bitw *w, const trc_record *r)
{
    if (p->mode == TRC_MODE_STACK) {
        put_stack(e, p, nz, w, r);
    } else if (p->mode == TRC_MODE_STACK2) {
        put_stack2(e, p, nz, w, r);
    } else if (r->kind != TRC_OS) {
        e->count++;
        put_time_kind(e, w, (uint32_t)r->delta, 0);
        uint32_t key = ((uint32_t)(r->kind == TRC_EXIT) << p->fid_w) | r->a;
        put_dict(w, &e->fdict, p->nd_f, key, p->fid_w + 1u,
                 UINT32_C(1) << p->fid_w);
        return;
    } else {
        put_time_kind(e, w, (uint32_t)r->delta, 1);
        put_dict(w, &e->tdict, p->nd_t, r->a, p->type_w, 0);
        put_dict(w, &e->vdict, p->nd_v, r->b, p->val_w, 0);
    }
    if (r->kind != TRC_OS || r->a < TRC_TYPE_SYNC(p)) {
        e->count++; /* a trace record (stack modes; OS and LOST in all) */
        return;
    }
    if (r->a == TRC_TYPE_END(p) || r->a == TRC_TYPE_SYNC(p)) {
        pad_to_byte(w);
        if (e->check) {
            close_unit(e, w);
            if (r->a == TRC_TYPE_END(p))
                close_end(e, w);
        }
        e->ureset = r->a == TRC_TYPE_SYNC(p);
    }
    if (r->a == TRC_TYPE_SYNC(p))
        reset_dicts(e);
}

/* put_raw() out of line, for the rare paths (TIME_EXT, lowered records,
 * markers), which take the writer's address. */
static void put_raw_rare(trc_encoder *e, bitw *w, const trc_record *r)
{
    put_raw(e, &e->p, e->nz, w, r);
}

static bitw writer(const trc_encoder *e, uint8_t *dst)
{
    bitw w = {dst, 0, e->acc, e->nacc, 0};
    return w;
}

static void writer_done(trc_encoder *e, bitw *w, size_t *dst_len)
{
    flush(w);
    if (e->check)
        unit_crc(e, w);
    e->acc = w->acc & 0xffu;
    e->nacc = w->n;
    *dst_len = w->pos;
}

/* Paper mode's common records, coded in a run: valid function records and
 * OS records of a type below LOST, whose delta needs no TIME_EXT. A
 * function record is one put (time code, kind bit, dictionary code) and
 * one flush; an OS record two (the caller makes sure each put fits 56
 * bits). The run stops at the first other record, or when dst has fewer
 * than TRC_MAX_RECORD_BYTES left past limit, and returns the records it
 * took. Needs !e->in_record. The field widths come in as arguments so that
 * the call with the paper's constants compiles to shifts by constants. */
static TRC_HOT_INLINE size_t paper_run(trc_encoder *e, bitw *wp,
                                       const trc_record *src, size_t n,
                                       size_t limit, unsigned nt, unsigned nz,
                                       unsigned fw, unsigned tw, unsigned vw,
                                       unsigned ndf, unsigned ndt,
                                       unsigned ndv)
{
    const uint64_t dmax = (UINT64_C(1) << nt) - 1u;
    const uint32_t flip = UINT32_C(1) << fw;
    const uint64_t vmax = (UINT64_C(1) << vw) - 1u;
    const uint32_t lost = (UINT32_C(1) << tw) - 4u;
    const unsigned fsize = (1u << ndf) - 1u, tsize = (1u << ndt) - 1u,
                   vsize = (1u << ndv) - 1u;
    trc_dict *fd = &e->fdict, *td = &e->tdict, *vd = &e->vdict;
    bitw lw = *wp, *w = &lw; /* a copy the compiler keeps in registers */
    trc_dict8r fr = trc_dict8r_load(fd); /* used when fsize < 8 */
    size_t i = 0;
    for (; i < n && w->pos <= limit; i++) {
        const trc_record *r = &src[i];
        uint32_t d = (uint32_t)r->delta;
        if (r->delta > dmax)
            break;
        /* time code without a branch: for d > 0, d's bits below the
         * leading one plus z << top is d + (nt - 2 - top) << top (modulo
         * 2^64 when top = nt - 1); d = 0 takes top = 0 and adds 2 */
        unsigned top = 31u - (unsigned)__builtin_clz(d | 1u);
        unsigned tb = nz + top;
        uint64_t tc = (uint64_t)d + ((uint64_t)(nt - 2u - top) << top) +
                      2u * (uint64_t)(d == 0);
        if (r->kind <= TRC_EXIT) {
            if (r->a >= flip || r->b != 0)
                break;
            uint32_t key = ((uint32_t)r->kind << fw) | r->a;
            unsigned a = fsize < 8u ? trc_dict8r_find(&fr, key, fsize)
                                   : trc_dict_find(fd, key);
            if (a < fsize)
                put(w, (tc << (1u + ndf)) | a, tb + 1u + ndf);
            else
                put(w, (tc << (1u + ndf + fw + 1u)) |
                           ((uint64_t)fsize << (fw + 1u)) | key,
                    tb + 1u + ndf + fw + 1u);
            if (fsize < 8u) {
                /* a hit flips entry a, which held key; a miss writes
                 * key ^ flip at the write pointer */
                trc_dict8r_set(&fr, a < fsize ? a : fd->wp, key ^ flip);
                if (a == fsize)
                    fd->wp = fd->wp + 1u == fsize ? 0u : fd->wp + 1u;
            } else if (a < fsize) {
                fd->entry[a] ^= flip;
            } else {
                trc_dict_push(fd, key ^ flip);
            }
        } else {
            if (r->kind != TRC_OS || r->a >= lost || r->b > vmax)
                break;
            unsigned a = tsize < 8u ? trc_dict_find8(td, r->a, tsize)
                                   : trc_dict_find(td, r->a);
            if (a < tsize) {
                put(w, (((tc << 1) | 1u) << ndt) | a, tb + 1u + ndt);
            } else {
                put(w, (((tc << 1) | 1u) << (ndt + tw)) |
                           ((uint64_t)tsize << tw) | r->a,
                    tb + 1u + ndt + tw);
                trc_dict_push(td, r->a);
            }
            flush(w);
            a = vsize < 8u ? trc_dict_find8(vd, r->b, vsize)
                            : trc_dict_find(vd, r->b);
            if (a < vsize) {
                put(w, a, ndv);
            } else {
                put(w, ((uint64_t)vsize << vw) | r->b, ndv + vw);
                trc_dict_push(vd, r->b);
            }
        }
        flush(w);
    }
    *wp = lw;
    if (fsize < 8u)
        trc_dict8r_store(&fr, fd);
    return i;
}

/* 0: no run; 1: paper_run() with the paper's widths as constants; 2: with
 * e's widths (paper mode, each of its puts within 56 bits); 3, 4 and 5:
 * the stack modes' coders with trc_stk_consts[0], [1] or [2] (stack mode 2
 * with fresh entries) for e's parameters. */
static int run_kind(const trc_encoder *e)
{
    const trc_params *p = &e->p;
    if (p->mode != TRC_MODE_PAPER) {
        int k = trc_stk_consts_of(p);
        return k && e->nz == TRC_PAPER_NZ ? 2 + k : 0;
    }
    if (trc_paper_widths(p) && e->nz == TRC_PAPER_NZ)
        return 1;
    unsigned t = e->nz + p->nt; /* time code and kind bit, at most */
    return t + p->nd_f + p->fid_w + 1u <= 56u &&
                   t + p->nd_t + p->type_w <= 56u
               ? 2
               : 0;
}

/* The two compiled copies of paper_run(), out of line so that the
 * other modes' loop in trc_encode() keeps its registers. */
static size_t paper_runs(trc_encoder *e, bitw *w, const trc_record *src,
                         size_t n, size_t limit, int run)
{
    const trc_params *p = &e->p;
    size_t k;
    if (run == 1)
        k = paper_run(e, w, src, n, limit, TRC_PAPER_NT, TRC_PAPER_NZ,
                      TRC_PAPER_FID_W, TRC_PAPER_TYPE_W, TRC_PAPER_VAL_W,
                      TRC_PAPER_ND, TRC_PAPER_ND, TRC_PAPER_ND);
    else
        k = paper_run(e, w, src, n, limit, p->nt, e->nz, p->fid_w, p->type_w,
                      p->val_w, p->nd_f, p->nd_t, p->nd_v);
    e->count += k; /* every record of a run is a trace record */
    return k;
}

/* A record's a and b as one word, b above a: ab >> w is 0 when a < 2^w
 * and b = 0 (w < 32), one load and one shift in the runs' record test. */
typedef char trc_ab_adjacent[offsetof(trc_record, b) ==
                                     offsetof(trc_record, a) + 4u
                                 ? 1
                                 : -1];
static inline uint64_t rec_ab(const trc_record *r)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t ab;
    memcpy(&ab, (const unsigned char *)r + offsetof(trc_record, a), 8);
    return ab;
#else
    return (uint64_t)r->b << 32 | r->a;
#endif
}

/* The stack runs' bit writer: bitw with the output pointer o = dst + pos
 * in place of dst and pos, one register fewer in their record loops. */
typedef struct {
    uint8_t *o;
    uint64_t acc;
    unsigned n;
} runw;

static inline void rput(runw *w, uint64_t v, unsigned bits)
{
    w->acc = (w->acc << bits) | v;
    w->n += bits;
}

/* flush() on a runw */
static inline void rflush(runw *w)
{
    store_bits(w->o, w->acc, w->n);
    w->o += w->n >> 3;
    w->n &= 7u;
}

static inline runw run_writer(const bitw *w)
{
    runw r = {w->dst + w->pos, w->acc, w->n};
    return r;
}

static inline void run_writer_done(bitw *w, const runw *r)
{
    w->pos = (size_t)(r->o - w->dst);
    w->acc = r->acc;
    w->n = r->n;
}

/* put_dict() on a runw: the rare records' dictionary codes */
static void rput_dict(runw *rw, uint8_t *dst, trc_dict *d, unsigned nd,
                      uint32_t key, unsigned key_w)
{
    bitw w = {dst, 0, 0, 0, 0};
    run_writer_done(&w, rw);
    put_dict(&w, d, nd, key, key_w, 0);
    *rw = run_writer(&w);
}

/* The stack runs' next block of records from r, with the writer at pos:
 * 0 when the run stops here (r = end, or pos past limit), else 1 and
 * *bend, the block's end. A record of a run moves pos by at most
 * RUN_REC_BYTES (stack mode at most 77 bits with its OS record, stack
 * mode 2 73, plus the < 8 bits a flush keeps), so the block's records
 * begin at pos + RUN_REC_BYTES * j <= limit. The runs test limit once a
 * block rather than once a record, and stop at the same record as a test
 * per record would. */
enum { RUN_REC_BYTES = 16 };
static inline int run_block(const trc_record **bend, const trc_record *r,
                            const trc_record *end, size_t pos, size_t limit)
{
    if (r == end || pos > limit)
        return 0;
    size_t m = (limit - pos) / RUN_REC_BYTES + 1u;
    *bend = m < (size_t)(end - r) ? r + m : end;
    return 1;
}

/* The payload that put_payload() writes after each delta symbol, for the
 * runs: none (EQ, and NEAR or NEARO under a NEAR phase: row 1), NEAR's
 * direction bit, a bit length's bits below the leading one, or ESC's
 * paper code. */
enum { RUN_NONE, RUN_NEAR, RUN_LEN, RUN_ESC };
static const uint8_t run_sym_kind[2][16] = {
    {RUN_NONE, RUN_NEAR, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN,
     RUN_LEN, RUN_LEN, RUN_NONE, RUN_ESC, RUN_NONE, RUN_NONE, RUN_NONE,
     RUN_NONE},
    {RUN_NONE, RUN_NONE, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN, RUN_LEN,
     RUN_LEN, RUN_LEN, RUN_NONE, RUN_ESC, RUN_NONE, RUN_NONE, RUN_NONE,
     RUN_NONE},
};

/* The codes of stack mode's first put of a record, by entry and symbol: a
 * predicted record's delta symbol in the alphabet with NP (index 1 << 6 |
 * h << 5 | m << 4 | sym), and for any other record NP's code followed by
 * the delta symbol in the alphabet without NP (index 0 << 6 | ...). Each
 * as code << 5 | length, the ranked unary code of put_sym(). */
static void stack_codes(uint32_t tab[128])
{
    for (unsigned k = 0; k < 128u; k++) {
        unsigned np = !(k >> 6), sym = k & 15u;
        trc_pentry en = {0, 0, 0, 0, (uint8_t)(k >> 4 & 1u), (uint8_t)(k >> 5 & 1u), 0};
        if (sym > SYM_ESC || sym == SYM_NP) {
            tab[k] = 0; /* never looked up */
            continue;
        }
        uint64_t code = 0;
        unsigned len = 0;
        for (int part = np ? 0 : 1; part < 2; part++) {
            unsigned s = part ? sym : (unsigned)SYM_NP;
            int with_np = part ? !np : 1;
            unsigned n = 11u + (unsigned)with_np;
            unsigned i = trc_stk_rank(&en, with_np, 0, s);
            unsigned last = i + 1u == n;
            code = code << (i + 1u - last) |
                   ((UINT64_C(1) << i) - 1u) << (1u - last);
            len += i + 1u - last;
        }
        tab[k] = (uint32_t)code << 5 | len;
    }
}

/* Stack mode's common records with trc_stk_consts[0]'s parameters, coded
 * in a run: valid function records and OS records of a type below LOST,
 * whose delta needs no TIME_EXT. It codes the same bits and makes the same
 * state changes as put_stack() with trc_stk_update(), record for record:
 * the context index, the symbol choice and the entry's delta update are
 * the same functions of trc_stack.h; what differs is where the state
 * lives. The top of the stack, its count, its ring and the previous key
 * are locals for the run (the ring copied in and out), the function
 * dictionary sits in two SSE2 registers as in paper_run(), the rank codes
 * of NP and of the delta symbol come from stack_codes()' table, and a
 * record's codes go out in one put (two for a record that was not
 * predicted: its event class and dictionary codes follow), each put
 * within 56 bits: NP 9, the delta symbol 10, ESC's payload NZ + NT - 1.
 * Stops as paper_run() does; returns the records it took. */
static TRC_HOT_INLINE size_t stack_run(trc_encoder *e, bitw *wp,
                                       const trc_record *src, size_t n,
                                       size_t limit)
{
    const trc_params *p = &trc_stk_consts[0];
    enum { NZ = TRC_PAPER_NZ, SD = 16, FSIZE = 7, TSIZE = 7, VSIZE = 7 };
    const uint64_t dmax = (UINT64_C(1) << p->nt) - 1u;
    const uint32_t fmask = (UINT32_C(1) << p->fid_w) - 1u;
    const uint64_t vmax = (UINT64_C(1) << p->val_w) - 1u;
    const uint32_t lost = TRC_TYPE_LOST(p);
    uint32_t codes[128];
    stack_codes(codes);
    trc_stk *s = &e->stk;
    uint32_t ring[SD];
    memcpy(ring, s->stack, sizeof ring);
    unsigned t = s->t, c = s->c;
    uint32_t top = trc_stk_top(s), prev = s->prev;
    trc_dict *fd = &e->fdict;
    unsigned fwp = fd->wp;
    uint8_t *const dst = wp->dst;
    runw lw = run_writer(wp), *w = &lw; /* kept in registers */
    trc_dict8r fr = trc_dict8r_load(fd);
    const trc_record *r = src, *const end = src + n, *bend = src;
    for (;; r++) {
        if (r == bend &&
            !run_block(&bend, r, end, (size_t)(w->o - dst), limit))
            break;
        uint32_t d = (uint32_t)r->delta;
        if (TRC_UNLIKELY(((r->delta >> p->nt) | (rec_ab(r) >> p->fid_w) |
                          (r->kind >> 1)) != 0) && /* not a function record */
            !(r->kind == TRC_OS && r->delta <= dmax && r->a < lost &&
              r->b <= vmax))
            break;
        /* an OS record's "key" has bit FID_W + 1 set (TRC_OS = 2), so it
         * never equals an entry's key, a function record's */
        uint32_t key = (uint32_t)r->kind << p->fid_w | r->a;
        unsigned idx = trc_stk_index_of(p, top, prev);
        trc_pentry *ep = &s->tab[idx];
        trc_pentry en = trc_stk_run_load(ep);
        int pred = key == en.key;
        unsigned sym = trc_stk_symbol(&en, d, TRC_LD_NONE);
        uint32_t code = codes[(unsigned)pred << 6 | (unsigned)en.h << 5 |
                              (unsigned)en.m << 4 | sym];
        /* the payload of put_payload(), for each kind of symbol */
        unsigned tb = 31u - (unsigned)__builtin_clz(d | 1u);
        uint32_t low = d & ((UINT32_C(1) << tb) - 1u);
        uint64_t pv = 0;
        unsigned pl = 0, k = run_sym_kind[0][sym];
        if (k >= RUN_LEN) { /* ESC: the paper code, z = NT for d = 0 */
            uint64_t z = k == RUN_ESC ? p->nt - 1u - tb + (d == 0) : 0u;
            pv = z << tb | low;
            pl = tb + (k == RUN_ESC ? NZ : 0u);
        } else { /* none or NEAR's bit, as numbers (trc_stk_symbol()) */
            pl = k == RUN_NEAR;
            pv = pl & (d < en.pd);
        }
        rput(w, (uint64_t)(code >> 5) << pl | pv, (code & 31u) + pl);
        rflush(w);
        if (!pred) {
            if (r->kind == TRC_OS) { /* class 11, the type and value codes */
                rput(w, 3, 2);
                rput_dict(w, dst, &e->tdict, TRC_PAPER_ND, r->a, p->type_w);
                rput_dict(w, dst, &e->vdict, TRC_PAPER_ND, r->b, p->val_w);
                continue; /* an OS record leaves the predictor as it is */
            }
            if (r->kind == TRC_EXIT && r->a == top) {
                rput(w, 0, 1); /* class 0: the exit of the top */
            } else {          /* class 10 and the function dictionary */
                unsigned a = trc_dict8r_find(&fr, key, FSIZE);
                if (a < FSIZE)
                    rput(w, 2u << 3 | a, 5);
                else
                    rput(w, (UINT64_C(2) << 3 | FSIZE) << (p->fid_w + 1u) | key,
                        5u + p->fid_w + 1u);
                trc_dict8r_set(&fr, a < FSIZE ? a : fwp, key ^ (fmask + 1u));
                if (a == FSIZE)
                    fwp = fwp + 1u == FSIZE ? 0u : fwp + 1u;
            }
            rflush(w);
        }
        trc_stk_run_store(ep, en, key, d, pred);
        trc_stk_move(ring, SD, &t, &c, &top, key, p->fid_w);
        prev = key;
    }
    run_writer_done(wp, &lw);
    trc_dict8r_store(&fr, fd);
    fd->wp = fwp;
    trc_stk_run_done(s, ring, SD, t, c, prev);
    size_t i = (size_t)(r - src);
    e->count += i; /* every record of a run is a trace record */
    return i;
}

/* stack_run() out of line, so that the record-at-a-time loop in
 * trc_encode() keeps its registers. */
static size_t stack_runs(trc_encoder *e, bitw *w, const trc_record *src,
                         size_t n, size_t limit)
{
    return stack_run(e, w, src, n, limit);
}

/* The ranked unary codes of stack mode 2's function context entry, by
 * alphabet, entry and symbol: index with_np << 7 | split << 6 | h << 5 |
 * m << 4 | sym (sym below NPX; NP's own code in the alphabet with NP is
 * index 1 << 7 | ... | SYM_NP). Each as code << 5 | length, put_sym()'s
 * code; alphabets that lack sym (NEARO without split, NP without with_np)
 * are never looked up. */
static void stack2_codes(uint32_t tab[256])
{
    for (unsigned k = 0; k < 256u; k++) {
        int with_np = (int)(k >> 7), split = (int)(k >> 6 & 1u);
        unsigned sym = k & 15u;
        trc_pentry en = {0, 0, 0, 0, (uint8_t)(k >> 4 & 1u), (uint8_t)(k >> 5 & 1u), 0};
        if (sym >= SYM_NPX || (sym == SYM_NP && !with_np) ||
            (sym == SYM_NEARO && !split)) {
            tab[k] = 0; /* never looked up */
            continue;
        }
        unsigned n = 11u + (unsigned)with_np + (unsigned)split;
        unsigned i = trc_stk_rank(&en, with_np, split, sym);
        unsigned last = i + 1u == n;
        tab[k] = (uint32_t)(((UINT32_C(1) << i) - 1u) << (1u - last)) << 5 |
                 (i + 1u - last);
    }
}

/* Stack mode 2's common records with trc_stk_consts[1]'s parameters (time
 * quantum 1), or [2]'s with fe (fresh entries), coded in a run: valid
 * function records whose delta needs no TIME_EXT, while the last record was
 * not an OS record (pk = 0: no OS context entry codes first), and, with
 * fresh entries, whose context entry is not fresh. It codes the same bits
 * and makes the same state changes as put_stack2() with trc_stk_update(),
 * record for record: the context index, the symbol choice (with the NEAR
 * phase ld) and the entry's delta update are the same functions of
 * trc_stack.h, the NEAR phase's update is trc_stk_update()'s written on
 * d - pd + 1, the rank codes are trc_stk_rank()'s from stack2_codes()' table,
 * the dictionary code is put_dict()'s without the exit flip (its search
 * trc_dict_find16()); a quantum of 1 leaves every delta as it is and none
 * raw. What differs is where the state lives: the top of the stack, its
 * count, its ring, the previous key and the NEAR phase are locals for the
 * run. A record is one put: NP and the event class (a record that was not
 * predicted), the delta symbol and its payload, within 12 + 2 + 12 + NZ +
 * NT - 1 bits; the dictionary code follows in a second one. An OS record
 * (or a record after one) stops the run, as does any other record it does
 * not take, and put_stack2() codes it. Stops as paper_run() does; returns
 * the records it took. */
static TRC_HOT_INLINE size_t stack2_run(trc_encoder *e, bitw *wp,
                                        const trc_record *src, size_t n,
                                        size_t limit, const uint32_t *codes,
                                        const int fe)
{
    const trc_params *p = &trc_stk_consts[1 + fe];
    enum { NZ = TRC_PAPER_NZ, SD = 16 };
    const unsigned nd = p->nd_f, dsize = (1u << nd) - 1u; /* below 16 */
    trc_stk *s = &e->stk;
    trc_dict *fd = &e->fdict;
    if (s->pk)
        return 0;
    uint32_t ring[SD];
    memcpy(ring, s->stack, sizeof ring);
    unsigned t = s->t, c = s->c, ld = s->ld;
    uint32_t top = trc_stk_top(s), prev = s->prev;
    uint8_t *const dst = wp->dst;
    runw lw = run_writer(wp), *w = &lw; /* kept in registers */
    const trc_record *r = src, *const end = src + n, *bend = src;
    for (;; r++) {
        if (r == bend &&
            !run_block(&bend, r, end, (size_t)(w->o - dst), limit))
            break;
        uint32_t d = (uint32_t)r->delta;
        if (TRC_UNLIKELY(((r->delta >> p->nt) | (rec_ab(r) >> p->fid_w) |
                          (r->kind >> 1)) != 0)) /* not a function record */
            break;
        uint32_t key = (uint32_t)r->kind << p->fid_w | r->a;
        unsigned idx = trc_stk_index_of(p, top, prev);
        trc_pentry *ep = &s->tab[idx];
        trc_pentry en = trc_stk_run_load(ep);
        if (trc_stk_fresh(p, &en)) /* put_stack2() codes it */
            break;
        int pred = key == en.key;
        unsigned split = ld != TRC_LD_NONE;
        unsigned sym = trc_stk_symbol(&en, d, ld);
        unsigned hm = (unsigned)en.h << 5 | (unsigned)en.m << 4;
        uint32_t code = codes[(unsigned)pred << 7 | split << 6 | hm | sym];
        /* the payload of put_payload(), for each kind of symbol */
        unsigned tb = 31u - (unsigned)__builtin_clz(d | 1u);
        uint32_t low = d & ((UINT32_C(1) << tb) - 1u);
        uint64_t pv = 0;
        unsigned pl = 0, k = run_sym_kind[split][sym];
        if (k >= RUN_LEN) { /* ESC: the paper code, z = NT for d = 0 */
            uint64_t z = k == RUN_ESC ? p->nt - 1u - tb + (d == 0) : 0u;
            pv = z << tb | low;
            pl = tb + (k == RUN_ESC ? NZ : 0u);
        } else { /* none or NEAR's bit, as numbers (trc_stk_symbol()) */
            pl = k == RUN_NEAR;
            pv = pl & (d < en.pd);
        }
        uint64_t cv = (uint64_t)(code >> 5) << pl | pv;
        unsigned cn = (code & 31u) + pl;
        int istop = 0;
        if (!pred) { /* NP and class 0 (the exit of the top) or 10 first */
            uint32_t np = codes[1u << 7 | split << 6 | hm | SYM_NP];
            istop = r->kind == TRC_EXIT && r->a == top;
            unsigned cl = istop ? 1u : 2u;
            cv |= ((uint64_t)(np >> 5) << cl | (istop ? 0u : 2u)) << cn;
            cn += (np & 31u) + cl; /* within 12 + 2 + 12 + NZ + NT - 1 */
        }
        /* trc_stk_update(): the NEAR phase from the old pd (d - pd + 1 is
         * 1: the same phase, 2: LD_UP, 0: LD_DOWN, else LD_NONE), the
         * entry (before the puts, so that its fields' registers are free
         * for them) */
        uint64_t u = trc_stk_near_u(&en, d);
        ld = trc_stk_ld_next(ld, u);
        trc_stk_run_store(ep, en, key, d, pred);
        rput(w, cv, cn);
        rflush(w);
        if (!pred && !istop) { /* put_dict(), without the exit flip */
            unsigned a = trc_dict_find16(fd, key, dsize);
            if (a < dsize) {
                rput(w, a, nd);
            } else {
                rput(w, (uint64_t)dsize << (p->fid_w + 1u) | key,
                     nd + p->fid_w + 1u);
                trc_dict_push(fd, key);
            }
            rflush(w);
        }
        /* trc_stk_update()'s stack move */
        trc_stk_move(ring, SD, &t, &c, &top, key, p->fid_w);
        prev = key;
    }
    run_writer_done(wp, &lw);
    trc_stk_run_done(s, ring, SD, t, c, prev);
    s->ld = ld;
    size_t i = (size_t)(r - src);
    e->count += i; /* every record of a run is a trace record */
    return i;
}

/* stack2_run() out of line, as stack_runs(), once without fresh entries
 * and once with them. */
static size_t stack2_runs(trc_encoder *e, bitw *w, const trc_record *src,
                          size_t n, size_t limit, const uint32_t *codes)
{
    return stack2_run(e, w, src, n, limit, codes, 0);
}

static size_t stack2_fe_runs(trc_encoder *e, bitw *w, const trc_record *src,
                             size_t n, size_t limit, const uint32_t *codes)
{
    return stack2_run(e, w, src, n, limit, codes, 1);
}

/* trc_encode() with run = run_kind(e); compiled once for run = 0, where
 * the paper run's code drops out and leaves the other modes' loop its
 * registers, once for the paper runs, and once for each stack mode's
 * constant parameters. */
static TRC_HOT_INLINE trc_error encode(trc_encoder *e, const trc_record *src,
                                       size_t n, size_t *n_used, uint8_t *dst,
                                       size_t cap, size_t *dst_len,
                                       const int run)
{
    *n_used = 0;
    *dst_len = 0;
    if (cap < TRC_MAX_RECORD_BYTES)
        return TRC_ERR_DST_SMALL;
    bitw w = writer(e, dst);
    size_t limit = cap - TRC_MAX_RECORD_BYTES;
    trc_error err = TRC_OK;
    size_t i = 0;
    const trc_params *p = run >= 3 ? &trc_stk_consts[run - 3] : &e->p;
    const unsigned nz = run >= 3 ? TRC_PAPER_NZ : e->nz;
    const uint64_t dmax = (UINT64_C(1) << p->nt) - 1u;
    const uint32_t fmask = (uint32_t)((UINT64_C(1) << p->fid_w) - 1u);
    const uint64_t vmax = (UINT64_C(1) << p->val_w) - 1u;
    const uint32_t lost = TRC_TYPE_LOST(p);
    /* stack mode 2's rank codes, built once a call: with fresh entries its
     * runs stop at every fresh entry, thousands of times in a trace */
    uint32_t s2codes[256];
    if (run >= 4)
        stack2_codes(s2codes);
    for (; i < n && w.pos <= limit; i++) {
        if ((run == 1 || run == 2) && !e->in_record) {
            bitw rw = w; /* w's address stays private to this loop */
            i += paper_runs(e, &rw, src + i, n - i, limit, run);
            w = rw;
            if (i == n || w.pos > limit)
                break;
        }
        if (run == 3 && !e->in_record) {
            bitw rw = w;
            i += stack_runs(e, &rw, src + i, n - i, limit);
            w = rw;
            if (i == n || w.pos > limit)
                break;
        }
        if ((run == 4 || run == 5) && !e->in_record) {
            bitw rw = w;
            i += run == 4 ? stack2_runs(e, &rw, src + i, n - i, limit, s2codes)
                          : stack2_fe_runs(e, &rw, src + i, n - i, limit, s2codes);
            w = rw;
            if (i == n || w.pos > limit)
                break;
        }
        const trc_record *r = &src[i];
        /* Fast path: a valid record that needs no TIME_EXT and no lowering. */
        if (r->delta <= dmax && !e->in_record &&
            (r->kind <= TRC_EXIT ? r->a <= fmask && r->b == 0
                                 : r->kind == TRC_OS && r->a < lost && r->b <= vmax)) {
            put_raw(e, p, nz, &w, r);
            continue;
        }
        if (!e->in_record) {
            err = trc_record_check(&e->p, r);
            if (err != TRC_OK)
                break;
            e->pending = trc_time_ext_count(&e->p, r->delta);
            e->in_record = 1;
        }
        bitw rw = w; /* the rare paths' copy of the writer */
        if (e->pending) {
            uint64_t total = trc_time_ext_count(&e->p, r->delta);
            while (e->pending && rw.pos <= limit) {
                trc_record ext =
                    trc_time_ext_nth(&e->p, r->delta, total - e->pending);
                put_raw_rare(e, &rw, &ext);
                e->pending--;
            }
            w = rw;
            if (e->pending)
                break; /* out of room: resume this record next call */
            if (w.pos > limit)
                break;
        }
        trc_record low = trc_lower(&e->p, r);
        put_raw_rare(e, &rw, &low);
        w = rw;
        e->in_record = 0;
    }
    *n_used = i;
    writer_done(e, &w, dst_len);
    return err;
}

trc_error trc_encode(trc_encoder *e, const trc_record *src, size_t n,
                     size_t *n_used, uint8_t *dst, size_t cap,
                     size_t *dst_len)
{
    switch (run_kind(e)) {
    case 1: return encode(e, src, n, n_used, dst, cap, dst_len, 1);
    case 2: return encode(e, src, n, n_used, dst, cap, dst_len, 2);
    case 3: return encode(e, src, n, n_used, dst, cap, dst_len, 3);
    case 4: return encode(e, src, n, n_used, dst, cap, dst_len, 4);
    case 5: return encode(e, src, n, n_used, dst, cap, dst_len, 5);
    default: return encode(e, src, n, n_used, dst, cap, dst_len, 0);
    }
}

trc_error trc_encode_raw(trc_encoder *e, const trc_record *raw, uint8_t *dst,
                         size_t cap, size_t *dst_len)
{
    *dst_len = 0;
    if (cap < TRC_MAX_RECORD_BYTES)
        return TRC_ERR_DST_SMALL;
    trc_error err = trc_raw_check(&e->p, raw);
    if (err != TRC_OK)
        return err;
    bitw w = writer(e, dst);
    put_raw_rare(e, &w, raw);
    writer_done(e, &w, dst_len);
    return TRC_OK;
}

static trc_error put_marker(trc_encoder *e, unsigned type, uint8_t *dst,
                            size_t cap, size_t *dst_len)
{
    trc_record r = {0, type, 0, TRC_OS};
    return trc_encode_raw(e, &r, dst, cap, dst_len);
}

trc_error trc_encode_end(trc_encoder *e, uint8_t *dst, size_t cap,
                         size_t *dst_len)
{
    return put_marker(e, TRC_TYPE_END(&e->p), dst, cap, dst_len);
}

trc_error trc_encode_sync(trc_encoder *e, uint8_t *dst, size_t cap,
                          size_t *dst_len)
{
    return put_marker(e, TRC_TYPE_SYNC(&e->p), dst, cap, dst_len);
}
