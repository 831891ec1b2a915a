/*
 * trc_decoder.c - the decoder: reads whole records from a byte stream,
 * mirrors the encoder's dictionaries, folds TIME_EXT/END/SYNC deltas into
 * the next record, and keeps the per-field figures of trc_stats.
 */
#include <string.h>

#include "trc.h"
#include "trc_dict.h"
#include "trc_paper.h"
#include "trc_stack.h"

/* The readers of a record are inlined into trc_decode()'s loop, so that the
 * bit reader's position stays in a register there. */
#if defined(__GNUC__)
#define TRC_HOT_INLINE inline __attribute__((always_inline))
#define TRC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TRC_HOT_INLINE inline
#define TRC_UNLIKELY(x) (x)
#endif

/* Bit reader over src[0..len). Reads past the end return zero bits; the
 * caller detects the overrun from pos > end after a whole record. */
typedef struct undo_log undo_log;
typedef struct {
    const uint8_t *src;
    size_t len;
    uint64_t pos, end;
    size_t crcd; /* checked streams: bytes of src already in the unit's CRC */
    undo_log *undo; /* near the end: the table entries records change */
} bitr;

static inline uint64_t load_be64(const uint8_t *s)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, s, 8);
    return __builtin_bswap64(v);
#else
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | s[i];
    return v;
#endif
}

/* Returns the 64 bits from the read position, MSB-aligned; at least the top
 * 57 are stream bits (zeros past the end). Does not advance. */
static TRC_HOT_INLINE uint64_t peek(const bitr *r)
{
    uint64_t byte = r->pos >> 3;
    uint64_t v;
    if (byte + 8 <= r->len) {
        v = load_be64(r->src + byte);
    } else {
        v = 0;
        for (uint64_t i = byte; i < byte + 8; i++)
            v = (v << 8) | (i < r->len ? r->src[i] : 0u);
    }
    return v << (r->pos & 7u);
}

/* Top n bits of v, 1 <= n <= 57. */
#define TOP(v, n) ((uint32_t)((v) >> (64u - (n))))

/* Returns the next n bits, 1 <= n <= 32, and advances. */
static TRC_HOT_INLINE uint32_t get(bitr *r, unsigned n)
{
    uint32_t x = TOP(peek(r), n);
    r->pos += n;
    return x;
}

static void reset_dicts(trc_decoder *d)
{
    trc_dicts_reset(&d->p, &d->fdict, &d->tdict, &d->vdict);
    if (d->p.mode != TRC_MODE_PAPER)
        trc_stk_reset(&d->p, &d->stk);
    d->stk_due = 0;
}

/* After a SYNC the predictor's state (its tables: up to 80 KB) returns to
 * the reset state when the next record comes, not at once: a framed
 * stream's frames and a checked stream's units end with a SYNC, and the
 * decoder of a frame meets no record after it. */
static void reset_after_sync(trc_decoder *d)
{
    trc_dicts_reset(&d->p, &d->fdict, &d->tdict, &d->vdict);
    d->stk_due = d->p.mode != TRC_MODE_PAPER;
}

/* The decoder's state lies outside its two context tables, and in the
 * tables' first 2^SK and 2^SO entries (stack modes: trc_stk_reset() clears
 * those). The tables take 128 KB at the largest SK and SO, against some
 * hundreds of bytes for the rest; a framed stream starts a decoder per
 * frame and a rollback copies the state, so both touch only the parts in
 * use. */
enum {
    TAB_AT = offsetof(trc_decoder, stk) + offsetof(trc_stk, tab),
    TAB_END = TAB_AT + sizeof(((trc_stk *)0)->tab),
    OTAB_AT = offsetof(trc_decoder, stk) + offsetof(trc_stk, otab),
    OTAB_END = OTAB_AT + sizeof(((trc_stk *)0)->otab)
};

/* Copies from's state into to (both of from's parameters): with
 * COPY_REST what lies outside the tables, with COPY_TABLES their entries in
 * use. */
enum { COPY_REST = 1, COPY_TABLES = 2 };
static void state_copy(trc_decoder *to, const trc_decoder *from, int what)
{
    const trc_params *p = &from->p;
    size_t tab = p->mode == TRC_MODE_PAPER ? 0 : sizeof from->stk.tab[0] << p->sk;
    size_t otab = p->mode == TRC_MODE_STACK2 ? sizeof from->stk.otab[0] << p->so : 0;
    char *t = (char *)to;
    const char *f = (const char *)from;
    if (what & COPY_REST) {
        memcpy(t, f, TAB_AT);
        memcpy(t + TAB_END, f + TAB_END, OTAB_AT - TAB_END);
        memcpy(t + OTAB_END, f + OTAB_END, sizeof *to - OTAB_END);
    }
    if (what & COPY_TABLES) {
        memcpy(t + TAB_AT, f + TAB_AT, tab);
        memcpy(t + OTAB_AT, f + OTAB_AT, otab);
    }
}

/* The rollback point near an input's end (decode()) keeps the state outside
 * the tables, and the table entries that records change after it, each
 * logged before it changes (one entry a record at most, and within
 * SAFE_BITS at most that many records): copying the tables, up to 80 KB,
 * cost more than decoding a frame of a thousand records. The log gives way
 * to a copy of the tables when it fills or when a SYNC's reset is about to
 * clear them. */
#define UNDO_MAX 512u
struct undo_log {
    trc_decoder *d, *save;
    unsigned n;
    int whole;                   /* save holds the tables: no more logging */
    struct {
        trc_pentry e;            /* the entry before the change */
        uint16_t idx;
        uint8_t os;              /* in the OS table */
    } ent[UNDO_MAX];
};

/* Puts the tables as they were at the rollback point into u->save (once:
 * after that the tables change unlogged). */
static void undo_whole(undo_log *u)
{
    trc_decoder *save = u->save;
    if (u->whole)
        return;
    state_copy(save, u->d, COPY_TABLES);
    for (unsigned i = u->n; i-- > 0;)
        (u->ent[i].os ? save->stk.otab : save->stk.tab)[u->ent[i].idx] = u->ent[i].e;
    u->whole = 1;
}

/* Logs entry idx of the function table (os 0) or the OS table before a
 * record changes it. */
static inline void undo_put(undo_log *u, int os, unsigned idx)
{
    if (u->whole)
        return;
    if (u->n == UNDO_MAX) {
        undo_whole(u);
        return;
    }
    u->ent[u->n].e = (os ? u->d->stk.otab : u->d->stk.tab)[idx];
    u->ent[u->n].idx = (uint16_t)idx;
    u->ent[u->n].os = (uint8_t)os;
    u->n++;
}

/* The reset a SYNC left for the next record (reset_after_sync()); with u,
 * the tables first go whole into the rollback point. */
static void due_reset(trc_decoder *d, undo_log *u)
{
    if (u)
        undo_whole(u);
    trc_stk_reset(&d->p, &d->stk);
    d->stk_due = 0;
}

/* Returns d to the rollback point. */
static void undo_back(undo_log *u)
{
    trc_decoder *d = u->d;
    state_copy(d, u->save, u->whole ? COPY_REST | COPY_TABLES : COPY_REST);
    if (!u->whole)
        for (unsigned i = u->n; i-- > 0;)
            (u->ent[i].os ? d->stk.otab : d->stk.tab)[u->ent[i].idx] = u->ent[i].e;
}

trc_error trc_decoder_init(trc_decoder *d, const trc_params *p)
{
    /* all but the tables (refused: NT stays 0, which trc_decode refuses) */
    char *b = (char *)d;
    memset(b, 0, TAB_AT);
    memset(b + TAB_END, 0, OTAB_AT - TAB_END);
    memset(b + OTAB_END, 0, sizeof *d - OTAB_END);
    if (trc_params_check(p) != TRC_OK || p->cpus > 1) /* several: trc_mp.c */
        return TRC_ERR_PARAM;
    d->p = *p;
    d->nz = trc_nz_bits(p->nt);
    d->ureset = 1;
    reset_dicts(d);
    return TRC_OK;
}

uint64_t trc_decoder_bit_offset(const trc_decoder *d)
{
    return d->bits_done;
}

/* Dictionary decoder, mirror of the encoder's put_dict(). */
static TRC_HOT_INLINE uint32_t get_dict(bitr *r, trc_dict *dict, unsigned nd, unsigned key_w,
                         uint32_t flip, trc_stats *st, int f)
{
    uint64_t v = peek(r);
    unsigned a = TOP(v, nd);
    uint32_t key;
    st->lookups[f - TRC_F_FUNCTION]++;
    if (a < dict->size) {
        key = dict->entry[a];
        dict->entry[a] ^= flip;
        st->hits[f - TRC_F_FUNCTION]++;
        st->coded_bits[f] += nd;
        r->pos += nd;
    } else {
        key = TOP(v << nd, key_w);
        trc_dict_push(dict, key ^ flip);
        st->coded_bits[f] += nd + key_w;
        r->pos += nd + key_w;
    }
    return key;
}

/* Paper timestamp code (z, then the bits below the leading one). */
static TRC_HOT_INLINE trc_error get_time(const trc_params *p, unsigned nz,
                                         bitr *r, uint32_t *delta)
{
    uint64_t v = peek(r);
    uint32_t z = TOP(v, nz);
    unsigned low = 0;
    *delta = 0;
    if (z > p->nt)
        return TRC_ERR_CORRUPT;
    if (z < p->nt) {
        low = p->nt - 1u - z;
        *delta = UINT32_C(1) << low;
        if (low)
            *delta |= TOP(v << nz, low);
    }
    r->pos += nz + low;
    return TRC_OK;
}

/* The ranked unary code of put_sym(): leading ones, capped at n - 1, in
 * the alphabet trc_stk_alphabet() builds for entry e (npx: with NPX, as
 * trc_stk_oalphabet()). Returns the symbol; advances when adv. */
static TRC_HOT_INLINE unsigned get_sym(bitr *r, const trc_pentry *e, int with_np,
                               int split, int npx, int adv)
{
    unsigned n = 11u + (unsigned)with_np + (unsigned)split + (unsigned)npx;
    uint64_t v = peek(r);
    unsigned ones = ~v ? (unsigned)__builtin_clzll(~v) : 64u;
    unsigned i = ones < n - 1u ? ones : n - 1u;
    if (adv)
        r->pos += i + (i < n - 1u);
    return trc_stk_rank_sym(e, with_np, split, i);
}

/* Stack mode delta symbol and its payload, mirror of put_stack(); ld is
 * stack mode 2's NEAR phase (TRC_LD_NONE: NEAR carries a direction bit).
 * get_delta_of() takes a symbol already read from start on (the first
 * symbol of a record, when it is not NP); get_stack_delta() reads it. */
static TRC_HOT_INLINE trc_error get_delta_of(trc_decoder *d,
                                             const trc_params *p, unsigned nz,
                                             bitr *r, const trc_pentry *e,
                                             unsigned sym, uint64_t start,
                                             unsigned ld, uint32_t *delta)
{
    const uint32_t dmax = (uint32_t)((UINT64_C(1) << p->nt) - 1u);
    trc_error err = TRC_OK;
    int near = sym == SYM_NEAR || sym == SYM_NEARO;
    d->st.delta_sym[sym == SYM_EQ ? 0 : near ? 1 : sym == SYM_ESC ? 3 : 2]++;
    if (sym == SYM_EQ) {
        *delta = e->pd;
    } else if (near) {
        /* The phase predicts the step opposite to the last one. */
        unsigned down = ld == TRC_LD_NONE ? get(r, 1)
                                          : (ld == TRC_LD_UP) == (sym == SYM_NEAR);
        if (down ? e->pd == 0 : e->pd >= dmax)
            return TRC_ERR_CORRUPT;
        *delta = down ? e->pd - 1u : e->pd + 1u;
    } else if (sym == SYM_ESC) {
        uint32_t z = TOP(peek(r), nz);
        if (p->tq > 1u && z > p->nt) {
            /* z = 2^NZ - 1: a raw delta (stack mode 2, 4.8), its own paper
             * code in ticks; any other z above NT is invalid. The z bits
             * are taken first, so that a z cut by the end of the input
             * (read as all ones followed by zeros) rolls back as truncated. */
            r->pos += nz;
            if (z != (UINT32_C(1) << nz) - 1u)
                return TRC_ERR_CORRUPT;
            err = get_time(p, nz, r, delta);
            d->st.coded_bits[TRC_F_TIMESTAMP] += r->pos - start;
            return err;
        }
        err = get_time(p, nz, r, delta);
    } else {
        int len = (int)e->kb + trc_sym_j[sym];
        if (len < 1 || len > (int)p->nt)
            return TRC_ERR_CORRUPT;
        *delta = UINT32_C(1) << (len - 1);
        if (len > 1)
            *delta |= get(r, (unsigned)len - 1u);
    }
    d->st.coded_bits[TRC_F_TIMESTAMP] += r->pos - start;
    if (p->tq > 1u) { /* quanta to ticks (stack mode 2, 4.8) */
        if ((uint64_t)*delta * p->tq > dmax)
            return TRC_ERR_CORRUPT;
        *delta *= p->tq;
    }
    return err;
}

/* Stack mode 2's time quantum: a delta in ticks to the quanta its entries
 * keep (rounded down for a raw delta). */
static inline uint32_t in_quanta(const trc_params *p, uint32_t delta)
{
    return p->tq > 1u ? delta / p->tq : delta;
}

static TRC_HOT_INLINE trc_error get_stack_delta(trc_decoder *d,
                                                const trc_params *p,
                                                unsigned nz, bitr *r,
                                                const trc_pentry *e,
                                                int with_np, int split,
                                                int npx, unsigned ld,
                                                uint32_t *delta)
{
    uint64_t start = r->pos;
    unsigned sym = get_sym(r, e, with_np, split, npx, 1);
    return get_delta_of(d, p, nz, r, e, sym, start, ld, delta);
}

/* Whether the next rank code is NP's (or NPX's), as get_sym(). Does not
 * advance. */
static TRC_HOT_INLINE int is_np(bitr *r, const trc_pentry *e, int split, int npx)
{
    unsigned sym = get_sym(r, e, 1, split, npx, 0);
    return sym == SYM_NP || sym == SYM_NPX;
}

/* Paper mode: timestamp, kind bit, then the function or type/value codes.
 * Sets *os, then *key (function) or *type and *val (OS). */
static TRC_HOT_INLINE trc_error get_paper(trc_decoder *d, bitr *r, uint32_t *delta, int *os,
                           uint32_t *key, uint32_t *type, uint32_t *val)
{
    const trc_params *p = &d->p;
    trc_stats *st = &d->st;
    uint64_t start = r->pos;
    trc_error err = get_time(p, d->nz, r, delta);
    if (err != TRC_OK)
        return err;
    st->coded_bits[TRC_F_TIMESTAMP] += r->pos - start;
    st->kind_bits++;
    *os = (int)get(r, 1);
    if (!*os) {
        *key = get_dict(r, &d->fdict, p->nd_f, p->fid_w + 1u,
                        UINT32_C(1) << p->fid_w, st, TRC_F_FUNCTION);
    } else {
        *type = get_dict(r, &d->tdict, p->nd_t, p->type_w, 0, st, TRC_F_TYPE);
        *val = get_dict(r, &d->vdict, p->nd_v, p->val_w, 0, st, TRC_F_VALUE);
    }
    return TRC_OK;
}

/* Stack mode, mirror of the encoder's put_stack(). The NP code and the event
 * class count as kind bits; the delta symbol and payload as timestamp. */
static TRC_HOT_INLINE trc_error get_stack(trc_decoder *d, const trc_params *p,
                                          unsigned nz, bitr *r, uint32_t *delta,
                                          int *os, uint32_t *key,
                                          uint32_t *type, uint32_t *val)
{
    trc_stats *st = &d->st;
    trc_stk *s = &d->stk;
    unsigned idx = trc_stk_index(p, s);
    const trc_pentry en = s->tab[idx];
    uint64_t start = r->pos;
    unsigned sym = get_sym(r, &en, 1, 0, 0, 1);
    int pred = sym != SYM_NP;
    trc_error err;
    if (pred) {
        err = get_delta_of(d, p, nz, r, &en, sym, start, TRC_LD_NONE, delta);
    } else {
        st->kind_bits += r->pos - start;
        err = get_stack_delta(d, p, nz, r, &en, 0, 0, 0, TRC_LD_NONE, delta);
    }
    if (err != TRC_OK)
        return err;
    *os = 0;
    if (pred) {
        *key = en.key;
        st->predicted++;
    } else {
        uint64_t cstart = r->pos;
        unsigned cls = get(r, 1) ? 2u + get(r, 1) : 0u;
        st->kind_bits += r->pos - cstart;
        if (cls == 0) {
            *key = (UINT32_C(1) << p->fid_w) | trc_stk_top(s);
            st->top_exits++;
        } else if (cls == 2) {
            *key = get_dict(r, &d->fdict, p->nd_f, p->fid_w + 1u,
                            UINT32_C(1) << p->fid_w, st, TRC_F_FUNCTION);
        } else {
            *os = 1;
            *type = get_dict(r, &d->tdict, p->nd_t, p->type_w, 0, st,
                             TRC_F_TYPE);
            *val = get_dict(r, &d->vdict, p->nd_v, p->val_w, 0, st,
                            TRC_F_VALUE);
        }
    }
    if (!*os) {
        if (r->undo)
            undo_put(r->undo, 0, idx);
        trc_stk_update(p, s, idx, *key, *delta, pred);
    }
    return TRC_OK;
}

/* Stack mode 2, an OS record through the OS context entry, mirror of
 * put_stack2_os(); np_done: its NP was read already (step 1). A fresh entry
 * predicts nothing: ESC's payload follows its NP bit (step 1) at once. */
static TRC_HOT_INLINE trc_error get_stack2_os(trc_decoder *d,
                                              const trc_params *p, unsigned nz,
                                              bitr *r, int np_done,
                                              uint32_t *delta, uint32_t *type,
                                              uint32_t *val)
{
    trc_stats *st = &d->st;
    trc_stk *s = &d->stk;
    unsigned oidx = trc_stk_oindex(p, s);
    const trc_pentry oe = s->otab[oidx];
    int npx = s->pk != 0;
    int fresh = trc_stk_fresh(p, &oe);
    int pred = !np_done && !fresh && !is_np(r, &oe, 0, npx);
    if (!pred && !np_done && !fresh) {
        uint64_t start = r->pos;
        get_sym(r, &oe, 1, 0, npx, 1);
        st->kind_bits += r->pos - start;
    }
    trc_error err = fresh ? get_delta_of(d, p, nz, r, &oe, SYM_ESC, r->pos,
                                         TRC_LD_NONE, delta)
                          : get_stack_delta(d, p, nz, r, &oe, pred, 0,
                                            pred && npx, TRC_LD_NONE, delta);
    if (err != TRC_OK)
        return err;
    if (pred) {
        *type = oe.key;
        *val = oe.val;
        st->os_predicted++;
    } else {
        *type = get_dict(r, &d->tdict, p->nd_t, p->type_w, 0, st, TRC_F_TYPE);
        *val = get_dict(r, &d->vdict, p->nd_v, p->val_w, 0, st, TRC_F_VALUE);
    }
    if (r->undo)
        undo_put(r->undo, 1, oidx);
    trc_stk_oupdate(p, s, oidx, *type, *val, in_quanta(p, *delta));
    return TRC_OK;
}

/* Stack mode 2, mirror of the encoder's put_stack2(). */
static TRC_HOT_INLINE trc_error get_stack2(trc_decoder *d, const trc_params *p,
                                           unsigned nz, bitr *r,
                                           uint32_t *delta, int *os,
                                           uint32_t *key, uint32_t *type,
                                           uint32_t *val)
{
    trc_stats *st = &d->st;
    trc_stk *s = &d->stk;
    *os = 0;
    if (s->pk) {
        unsigned oidx = trc_stk_oindex(p, s);
        const trc_pentry *oe = &s->otab[oidx];
        int fresh = trc_stk_fresh(p, oe);
        if (!fresh && !is_np(r, oe, 0, 1)) {
            *os = 1;
            return get_stack2_os(d, p, nz, r, 0, delta, type, val);
        }
        uint64_t start = r->pos;
        /* NP (a 0 bit of a fresh entry): the class nc; NPX the other */
        unsigned np = fresh ? !get(r, 1) : get_sym(r, oe, 1, 0, 1, 1) == SYM_NP;
        unsigned fn = np == (s->nc == 1);
        st->kind_bits += r->pos - start;
        s->nc = fn;
        if (!fn) {
            *os = 1;
            return get_stack2_os(d, p, nz, r, 1, delta, type, val);
        }
    }
    unsigned idx = trc_stk_index(p, s);
    const trc_pentry en = s->tab[idx];
    unsigned ld = s->ld;
    int split = ld != TRC_LD_NONE;
    uint64_t start = r->pos;
    int fresh = trc_stk_fresh(p, &en);
    unsigned sym = fresh ? (unsigned)SYM_NP : get_sym(r, &en, 1, split, 0, 1);
    int pred = sym != SYM_NP;
    unsigned cls = 1;
    if (!pred) {
        cls = get(r, 1) ? 2u + get(r, 1) : 0u;
        st->kind_bits += r->pos - start;
        if (cls == 3) {
            *os = 1;
            s->pk = 0;
            return get_stack2_os(d, p, nz, r, 0, delta, type, val);
        }
    }
    trc_error err = pred    ? get_delta_of(d, p, nz, r, &en, sym, start, ld, delta)
                    : fresh ? get_delta_of(d, p, nz, r, &en, SYM_ESC, r->pos, ld, delta)
                            : get_stack_delta(d, p, nz, r, &en, 0, split, 0, ld, delta);
    if (err != TRC_OK)
        return err;
    if (pred) {
        *key = en.key;
        st->predicted++;
    } else if (cls == 0) {
        *key = (UINT32_C(1) << p->fid_w) | trc_stk_top(s);
        st->top_exits++;
    } else {
        *key = get_dict(r, &d->fdict, p->nd_f, p->fid_w + 1u, 0, st,
                        TRC_F_FUNCTION);
    }
    if (r->undo)
        undo_put(r->undo, 0, idx);
    trc_stk_update(p, s, idx, *key, in_quanta(p, *delta), pred);
    return TRC_OK;
}

/* A checked stream's unit ends after its END or SYNC and padding (the read
 * position is at a byte boundary): zero bytes up to a multiple of 8 bytes
 * of the unit, the count word (bit 31: the unit began in the reset state;
 * bits 30..0: the trace records so far, mod 2^31), then its CRC-32, each
 * least significant byte first. A unit cut short by the end of src leaves
 * the position past it (the caller rolls back). */
static trc_error get_check(trc_decoder *d, bitr *r)
{
    size_t b0 = (size_t)(r->pos >> 3);
    size_t z = (size_t)((8u - (d->ubytes + (b0 - r->crcd)) % 8u) % 8u);
    size_t end = b0 + z + 8u;
    if (end > r->len) {
        r->pos = (uint64_t)end * 8u;
        return TRC_OK;
    }
    for (size_t i = b0; i < b0 + z; i++)
        if (r->src[i])
            return TRC_ERR_PADDING;
    uint32_t crc = trc_crc32(d->ucrc, r->src + r->crcd, end - 4u - r->crcd);
    const uint8_t *c = r->src + end - 4u;
    uint32_t got = (uint32_t)c[0] | (uint32_t)c[1] << 8 |
                   (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    if (crc != got)
        return TRC_ERR_CHECK;
    c -= 4;
    uint32_t cw = (uint32_t)c[0] | (uint32_t)c[1] << 8 |
                  (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    if (cw != ((uint32_t)d->ureset << 31 | (d->count & 0x7FFFFFFFu)))
        return TRC_ERR_CHECK; /* records missing or extra since the last unit */
    r->pos = (uint64_t)end * 8u;
    r->crcd = end;
    d->ucrc = 0;
    d->ubytes = 0;
    d->st.units++;
    d->st.check_bits += 8u * (z + 8u);
    return TRC_OK;
}

/* A closing unit after an END's unit: the END unit's count word and the
 * CRC-32 of those 4 bytes (so the CRC-32 of the 8 bytes is the constant of
 * format.md 4.10). Cut short, it leaves the position past it. */
static trc_error get_closing(trc_decoder *d, bitr *r)
{
    size_t b0 = (size_t)(r->pos >> 3);
    if (b0 + 8u > r->len) {
        r->pos = (uint64_t)(b0 + 8u) * 8u;
        return TRC_OK;
    }
    const uint8_t *c = r->src + b0;
    uint32_t cw = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
                  (uint32_t)c[3] << 24;
    if (trc_crc32(0, c, 8) != UINT32_C(0x2144DF1C) || cw != d->ccount)
        return TRC_ERR_CHECK;
    r->pos += 64u;
    r->crcd = b0 + 8u;
    d->closing--;
    d->ended = 1; /* a clean stop point, as after the END */
    d->st.check_bits += 64u;
    return TRC_OK;
}

/* Decodes one record. *out is set and 1 returned through *emit when the
 * record is a trace record; reserved ones only move the decoder's state. */
/* p holds d's parameters (or a constant copy of them: see run_kind()), nz
 * d->nz. */
static TRC_HOT_INLINE trc_error get_record(trc_decoder *d, const trc_params *p,
                                           unsigned nz, bitr *r,
                                           trc_record *out, int *emit)
{
    trc_stats *st = &d->st;
    uint32_t delta = 0, key = 0, type = 0, val = 0;
    uint64_t gap;
    int os = 0;
    if (d->closing) {
        *emit = 0;
        return get_closing(d, r);
    }
    trc_error err =
        p->mode == TRC_MODE_STACK
            ? get_stack(d, p, nz, r, &delta, &os, &key, &type, &val)
        : p->mode == TRC_MODE_STACK2
            ? get_stack2(d, p, nz, r, &delta, &os, &key, &type, &val)
            : get_paper(d, r, &delta, &os, &key, &type, &val);
    if (err != TRC_OK)
        return err;
    st->raw_bits[TRC_F_TIMESTAMP] += p->nt;
    *emit = 0;
    gap = delta;

    if (!os) {
        uint32_t flip = UINT32_C(1) << p->fid_w;
        st->function++;
        st->raw_bits[TRC_F_FUNCTION] += p->fid_w + 1u;
        out->kind = (key & flip) ? TRC_EXIT : TRC_ENTRY;
        out->a = key & (flip - 1u);
        out->b = 0;
        *emit = 1;
    } else {
        st->os++;
        st->raw_bits[TRC_F_TYPE] += p->type_w;
        st->raw_bits[TRC_F_VALUE] += p->val_w;
        if (type < TRC_TYPE_LOST(p)) {
            out->kind = TRC_OS;
            out->a = type;
            out->b = val;
            *emit = 1;
        } else if (type == TRC_TYPE_LOST(p)) {
            st->lost++;
            out->kind = TRC_LOST;
            out->a = val;
            out->b = 0;
            *emit = 1;
        } else if (val != 0 && (type != TRC_TYPE_TIME_EXT(p) || d->v1)) {
            return TRC_ERR_CORRUPT; /* END and SYNC carry value 0 */
        } else if (type == TRC_TYPE_TIME_EXT(p)) {
            st->time_ext++;
            d->ended = 0;
            /* value k: a long gap of delta << k ticks (format.md 4.2) */
            if (val > 63u || (((uint64_t)delta << val) >> val) != delta)
                return TRC_ERR_DELTA_OVERFLOW;
            gap = (uint64_t)delta << val;
        } else {
            /* END or SYNC: zero padding up to the byte boundary. */
            unsigned pad = (unsigned)((8u - (r->pos & 7u)) & 7u);
            if (pad && get(r, pad) != 0 && r->pos <= r->end)
                return TRC_ERR_PADDING;
            st->pad_bits += pad;
            d->ended = 1;
            if (d->check) {
                trc_error cerr = get_check(d, r);
                if (cerr != TRC_OK)
                    return cerr;
                if (type == TRC_TYPE_END(p)) {
                    d->closing = 2;
                    d->ccount = (uint32_t)d->ureset << 31 | (d->count & 0x7FFFFFFFu);
                }
                d->ureset = type == TRC_TYPE_SYNC(p);
            }
            if (type == TRC_TYPE_END(p)) {
                st->end++;
            } else {
                st->sync++;
                reset_after_sync(d);
            }
        }
    }

    if (*emit) {
        out->delta = d->carry + delta;
        if (out->delta < d->carry)
            return TRC_ERR_DELTA_OVERFLOW;
        d->carry = 0;
        d->ended = 0;
    } else {
        d->carry += gap;
        if (d->carry < gap)
            return TRC_ERR_DELTA_OVERFLOW;
    }
    return TRC_OK;
}

/* A record never needs more bits than this, padding included. */
#define SAFE_BITS (8u * TRC_MAX_RECORD_BYTES)

/* A stack run's next block of records from n, with the reader at pos: 0
 * when the run stops here (n = cap, or pos past stop), else 1 and *bend,
 * the block's end. A record of a run takes at most RUN_REC_BITS (stack
 * mode 77 with its OS record, stack mode 2 73, whatever the input holds),
 * so the block's records begin at pos + RUN_REC_BITS * j <= stop. The runs
 * test stop and cap once a block rather than once a record, and stop at
 * the same record as a test per record would. */
enum { RUN_REC_BITS = 128 };
static inline int run_block(size_t *bend, size_t n, size_t cap, uint64_t pos,
                            uint64_t stop)
{
    if (n == cap || pos > stop)
        return 0;
    uint64_t m = (stop - pos) / RUN_REC_BITS + 1u;
    *bend = m < cap - n ? n + (size_t)m : cap;
    return 1;
}

/* Adds what a decoder run counted to trc_stats: nf function records
 * (flook of them through the function dictionary, fhit hits) and nos OS
 * records (th and vh dictionary hits), tsb bits of timestamp codes. The
 * widths are the run's. */
static void run_stats(trc_stats *st, uint64_t nf, uint64_t nos,
                      uint64_t flook, uint64_t fhit, uint64_t th, uint64_t vh,
                      uint64_t tsb, unsigned nt, unsigned fw, unsigned tw,
                      unsigned vw, unsigned ndf, unsigned ndt, unsigned ndv)
{
    st->function += nf;
    st->os += nos;
    st->raw_bits[TRC_F_TIMESTAMP] += (uint64_t)nt * (nf + nos);
    st->raw_bits[TRC_F_FUNCTION] += (uint64_t)(fw + 1u) * nf;
    st->raw_bits[TRC_F_TYPE] += (uint64_t)tw * nos;
    st->raw_bits[TRC_F_VALUE] += (uint64_t)vw * nos;
    st->coded_bits[TRC_F_TIMESTAMP] += tsb;
    st->coded_bits[TRC_F_FUNCTION] += ndf * flook + (fw + 1u) * (flook - fhit);
    st->coded_bits[TRC_F_TYPE] += ndt * nos + tw * (nos - th);
    st->coded_bits[TRC_F_VALUE] += ndv * nos + vw * (nos - vh);
    st->lookups[0] += flook;
    st->hits[0] += fhit;
    st->lookups[1] += nos;
    st->hits[1] += th;
    st->lookups[2] += nos;
    st->hits[2] += vh;
}

/* The decoder runs' OS record: its type and value codes at the top of u,
 * as get_dict() reads them (dictionaries of tsize and vsize entries, ndt and
 * ndv address bits, keys of tw and vw bits). Returns the bits taken, or 0
 * for a reserved type, when nothing has changed (get_record() then takes
 * the record). Sets o's kind, a and b, and counts the hits in *th, *vh. */
static TRC_HOT_INLINE unsigned run_os_codes(uint64_t u, trc_record *o,
                                            trc_dict *td, unsigned *twp,
                                            unsigned tsize, unsigned ndt,
                                            unsigned tw, trc_dict *vd,
                                            unsigned *vwp, unsigned vsize,
                                            unsigned ndv, unsigned vw,
                                            uint32_t lost, uint64_t *th,
                                            uint64_t *vh)
{
    unsigned a = (unsigned)(u >> (64u - ndt));
    int thit = a < tsize;
    uint32_t type = thit ? td->entry[a] : (uint32_t)((u << ndt) >> (64u - tw));
    if (type >= lost)
        return 0; /* a reserved record */
    unsigned tbits = thit ? ndt : ndt + tw;
    if (!thit) {
        td->entry[*twp] = type;
        *twp = *twp + 1u == tsize ? 0u : *twp + 1u;
    }
    u <<= tbits;
    unsigned b = (unsigned)(u >> (64u - ndv));
    int vhit = b < vsize;
    uint32_t val = vhit ? vd->entry[b] : (uint32_t)((u << ndv) >> (64u - vw));
    if (!vhit) {
        vd->entry[*vwp] = val;
        *vwp = *vwp + 1u == vsize ? 0u : *vwp + 1u;
    }
    o->kind = TRC_OS;
    o->a = type;
    o->b = val;
    *th += (unsigned)thit;
    *vh += (unsigned)vhit;
    return tbits + (vhit ? ndv : ndv + vw);
}

/* Paper mode's trace records, decoded in a run: function records and OS
 * records of a type below LOST, each from one 64-bit load (the caller makes
 * sure that a record's fields fit the 57 bits it is sure to hold), with the
 * figures of trc_stats counted in locals and added once. The run stops
 * before anything else (a reserved type, a z above NT) and before the last
 * SAFE_BITS of the input, and leaves that record to get_record(). Needs
 * d->carry == 0. The field widths come in as arguments so that the call
 * with the paper's constants compiles to shifts by constants. Returns the
 * records written to dst[0..cap). */
static TRC_HOT_INLINE size_t paper_run(trc_decoder *d, bitr *r,
                                       trc_record *dst, size_t cap,
                                       unsigned nt, unsigned nz, unsigned fw,
                                       unsigned tw, unsigned vw, unsigned ndf,
                                       unsigned ndt, unsigned ndv)
{
    const uint8_t *src = r->src;
    uint64_t pos = r->pos;
    const uint64_t stop = r->end - SAFE_BITS; /* the caller: end >= SAFE_BITS */
    const uint32_t flip = UINT32_C(1) << fw;
    const unsigned fsize = (1u << ndf) - 1u, tsize = (1u << ndt) - 1u,
                   vsize = (1u << ndv) - 1u;
    const uint32_t lost = TRC_TYPE_LOST(&d->p);
    uint32_t *fe = d->fdict.entry;
    unsigned fwp = d->fdict.wp, twp = d->tdict.wp, vwp = d->vdict.wp;
    uint64_t nos = 0, fmiss = 0, th = 0, vh = 0, tsb = 0;
    size_t n = 0;
    while (n < cap && pos <= stop) {
        uint64_t v = load_be64(src + (pos >> 3)) << (pos & 7u);
        unsigned z = (unsigned)(v >> (64u - nz));
        if (z > nt)
            break; /* corrupt: get_record() says so */
        /* z == nt: delta 0 and no low bits; the two-step shift is defined
         * for low == 0 */
        unsigned low = z < nt ? nt - 1u - z : 0u;
        uint32_t delta = ((uint32_t)(z < nt) << low) |
                         (uint32_t)(((v << nz) >> 1) >> (63u - low));
        unsigned tb = nz + low;
        uint64_t u = v << tb;
        trc_record *o = &dst[n];
        if (!(u >> 63)) {
            u <<= 1;
            unsigned a = (unsigned)(u >> (64u - ndf));
            uint32_t key;
            unsigned bits;
            if (a < fsize) {
                key = fe[a];
                fe[a] ^= flip;
                bits = ndf;
            } else {
                key = (uint32_t)((u << ndf) >> (63u - fw));
                fe[fwp] = key ^ flip;
                fwp = fwp + 1u == fsize ? 0u : fwp + 1u;
                fmiss++;
                bits = ndf + fw + 1u;
            }
            o->kind = key >> fw; /* keys have fw + 1 bits: the exit flag */
            o->a = key & (flip - 1u);
            o->b = 0;
            pos += tb + 1u + bits;
        } else {
            unsigned bits = run_os_codes(u << 1, o, &d->tdict, &twp, tsize, ndt,
                                         tw, &d->vdict, &vwp, vsize, ndv, vw,
                                         lost, &th, &vh);
            if (!bits)
                break; /* a reserved record: get_record() */
            nos++;
            pos += tb + 1u + bits;
        }
        o->delta = delta;
        tsb += tb;
        n++;
    }
    d->fdict.wp = fwp;
    d->tdict.wp = twp;
    d->vdict.wp = vwp;
    r->pos = pos;
    if (n)
        d->ended = 0;
    uint64_t nf = n - nos, fh = nf - fmiss;
    d->st.kind_bits += nf + nos;
    run_stats(&d->st, nf, nos, nf, fh, th, vh, tsb, nt, fw, tw, vw, ndf, ndt,
              ndv);
    return n;
}

/* 0: no run; 1: paper_run() with the paper's widths as constants; 2: with
 * d's widths (paper mode, every record's fields within 57 bits); 3, 4 and
 * 5: the stack modes' decoders with trc_stk_consts[0], [1] or [2] (stack
 * mode 2 with fresh entries) for d's parameters. */
static int run_kind(const trc_decoder *d)
{
    const trc_params *p = &d->p;
    if (p->mode != TRC_MODE_PAPER) {
        int k = trc_stk_consts_of(p);
        return k && d->nz == TRC_PAPER_NZ ? 2 + k : 0;
    }
    if (trc_cpu_count(p) > 1)
        return 0;
    if (trc_paper_widths(p) && d->nz == TRC_PAPER_NZ)
        return 1;
    unsigned t = d->nz + p->nt; /* time code and kind bit, at most */
    return t + p->nd_f + p->fid_w + 1u <= 57u &&
                   t + p->nd_t + p->type_w + p->nd_v + p->val_w <= 57u
               ? 2
               : 0;
}

/* The two compiled copies of paper_run(), out of line so that the
 * other modes' loop in trc_decode() keeps its registers. */
static size_t paper_runs(trc_decoder *d, bitr *r, trc_record *dst, size_t cap,
                         int run)
{
    const trc_params *p = &d->p;
    if (run == 1)
        return paper_run(d, r, dst, cap, TRC_PAPER_NT, TRC_PAPER_NZ,
                         TRC_PAPER_FID_W, TRC_PAPER_TYPE_W, TRC_PAPER_VAL_W,
                         TRC_PAPER_ND, TRC_PAPER_ND, TRC_PAPER_ND);
    return paper_run(d, r, dst, cap, p->nt, d->nz, p->fid_w, p->type_w,
                     p->val_w, p->nd_f, p->nd_t, p->nd_v);
}

/* The stack runs' get_sym(): for each count of leading ones of a code
 * (0 to 63), the symbol of rank min(ones, n - 1) in entry (h, m)'s
 * alphabet of n symbols, with or without NP and NEARO (split), and the
 * bits its ranked unary code takes (the last rank has no closing zero),
 * as sym | bits << 4. */
static void run_syms(uint8_t tab[64], unsigned hm, int with_np, int split)
{
    trc_pentry en = {0, 0, 0, 0, (uint8_t)(hm & 1u), (uint8_t)(hm >> 1), 0};
    unsigned last = 10u + (unsigned)with_np + (unsigned)split;
    for (unsigned i = 0; i <= last; i++)
        tab[i] = (uint8_t)(trc_stk_rank_sym(&en, with_np, split, i) |
                           (i + (i < last)) << 4);
    memset(tab + last + 1u, tab[last], 63u - last);
}

/* Stack mode 2's run_syms() tables, t[with NP][split][h << 1 | m], built
 * once a call of trc_decode(): with fresh entries its runs stop at every
 * fresh entry, thousands of times in a trace. */
typedef struct {
    uint8_t t[2][2][4][64];
} s2syms_tab;

static void stack2_syms(s2syms_tab *s)
{
    for (unsigned np = 0; np < 2u; np++)
        for (unsigned sp = 0; sp < 2u; sp++)
            for (unsigned hm = 0; hm < 4u; hm++)
                run_syms(s->t[np][sp][hm], hm, (int)np, (int)sp);
}

/* The payload of a run's delta symbol of kind k (stack_run(), stack2_run()):
 * 3, ESC, the paper code of the delta (paper widths: NZ bits of z); else a
 * bit length, kb + the symbol's offset, and the bits below the leading one.
 * x holds the payload from its top bit on. Sets *delta, adds the bits read
 * to *used; 0 for a z or length out of range (get_record() reports it). */
static TRC_HOT_INLINE int run_payload(unsigned k, uint64_t x, unsigned kb,
                                      unsigned sym, unsigned nt,
                                      uint32_t *delta, unsigned *used)
{
    enum { NZ = TRC_PAPER_NZ };
    if (k == 3) {
        unsigned z = (unsigned)(x >> (64u - NZ));
        if (z > nt)
            return 0;
        unsigned low = z < nt ? nt - 1u - z : 0u;
        *delta = (uint32_t)(z < nt) << low |
                 (uint32_t)(((x << NZ) >> 1) >> (63u - low));
        *used += NZ + low;
        return 1;
    }
    int len = (int)kb + trc_sym_j[sym];
    if (len < 1 || len > (int)nt)
        return 0;
    unsigned low = (unsigned)len - 1u;
    *delta = UINT32_C(1) << low | (uint32_t)((x >> 1) >> (63u - low));
    *used += low;
    return 1;
}

/* Stack mode's trace records with trc_stk_consts[0]'s parameters, decoded
 * in a run: function records and OS records of a type below LOST. It reads
 * the same bits and makes the same state changes and trc_stats figures as
 * get_stack() in get_record(), record for record: the context index and the
 * entry's delta update are the same functions of trc_stack.h, the symbol
 * of a rank comes from a table that trc_stk_rank_sym() fills, and what
 * differs is where the state lives. The top of the stack, its count, its
 * ring, the previous key and the dictionaries' write pointers are locals,
 * the figures are counted in locals and added once, and a record's rank
 * codes and payload are cut from one 64-bit load (at least 57 stream
 * bits; NP 9, the delta symbol 10 and ESC's payload NZ + NT - 1 at most),
 * its event class and dictionary codes from a second one. The run stops
 * before a record it cannot take (a reserved type, or a code that
 * get_record() rejects as corrupt: it is left to say so) and before the
 * last SAFE_BITS of the input, as paper_run() does. Needs d->carry == 0.
 * Returns the records written to dst[0..cap). */
static TRC_HOT_INLINE size_t stack_run(trc_decoder *d, bitr *r,
                                       trc_record *dst, size_t cap)
{
    const trc_params *p = &trc_stk_consts[0];
    enum { NZ = TRC_PAPER_NZ, ND = TRC_PAPER_ND, SD = 16, DSIZE = 7 };
    const unsigned nt = p->nt, fw = p->fid_w, tw = p->type_w, vw = p->val_w;
    const uint32_t dmax = (UINT32_C(1) << nt) - 1u, flip = UINT32_C(1) << fw;
    const uint32_t lost = TRC_TYPE_LOST(p);
    /* syms[with NP][h << 1 | m][leading ones]: run_syms() */
    uint8_t syms[2][4][64];
    for (unsigned np = 0; np < 2u; np++)
        for (unsigned hm = 0; hm < 4u; hm++)
            run_syms(syms[np][hm], hm, (int)np, 0);
    static const uint8_t sym_kind[SYM__COUNT] = {0, 1, 2, 2, 2, 2, 2, 2, 2,
                                                 2, 0, 3, 1, 0};
    const uint8_t *src = r->src;
    uint64_t pos = r->pos;
    const uint64_t stop = r->end - SAFE_BITS; /* the caller: end >= SAFE_BITS */
    trc_stk *s = &d->stk;
    uint32_t ring[SD];
    memcpy(ring, s->stack, sizeof ring);
    unsigned t = s->t, c = s->c;
    uint32_t top = trc_stk_top(s), prev = s->prev;
    uint32_t *fe = d->fdict.entry;
    unsigned fwp = d->fdict.wp, twp = d->tdict.wp, vwp = d->vdict.wp;
    /* trc_stats' counts; the predicted records, the kind and timestamp
     * bits follow from them, the NP codes' bits npb and the bits read */
    uint64_t nos = 0, flook = 0, fhit = 0, th = 0, vh = 0, npbs = 0;
    uint64_t ntop = 0, ds[4] = {0, 0, 0, 0};
    const uint64_t pos0 = pos;
    size_t n = 0, bend = 0;
    for (;;) {
        if (n == bend && !run_block(&bend, n, cap, pos, stop))
            break;
        uint64_t v = load_be64(src + (pos >> 3)) << (pos & 7u);
        unsigned idx = trc_stk_index_of(p, top, prev);
        trc_pentry *ep = &s->tab[idx];
        trc_pentry en = trc_stk_run_load(ep);
        unsigned hm = (unsigned)en.h << 1 | en.m;
        /* get_sym(): the leading ones (64 -> 63) */
        unsigned su = syms[1][hm][__builtin_clzll(~v | 1u)];
        unsigned used = su >> 4, npb = 0;
        unsigned sym = su & 15u;
        int pred = sym != SYM_NP;
        if (!pred) { /* NP, then the delta symbol without NP */
            npb = used;
            su = syms[0][hm][__builtin_clzll(~(v << used) | 1u)];
            used += su >> 4;
            sym = su & 15u;
        }
        /* get_delta_of(): the payload. EQ and NEAR share one path, NEAR's
         * step (its direction bit, 1 down) added as a number: which of the
         * two comes follows no pattern a branch predictor learns. */
        uint64_t x = v << used;
        uint32_t delta;
        unsigned k = sym_kind[sym];
        if (k < 2u) {
            unsigned nr = sym == SYM_NEAR;
            unsigned down = (unsigned)(x >> 63) & nr;
            if (TRC_UNLIKELY((down & (en.pd == 0u)) |
                             (nr & (down ^ 1u) & (en.pd >= dmax))))
                break;
            delta = en.pd + nr - 2u * down;
            used += nr;
        } else if (!run_payload(k, x, en.kb, sym, nt, &delta, &used)) {
            break;
        }
        uint32_t key = en.key;
        unsigned clsb = 0;
        int os = 0;
        trc_record *o = &dst[n];
        if (!pred) { /* the event class and its fields */
            uint64_t at = pos + used;
            uint64_t u = load_be64(src + (at >> 3)) << (at & 7u);
            if (!(u >> 63)) { /* 0: the exit of the top */
                key = flip | top;
                clsb = 1;
                ntop++;
            } else if (!(u >> 62 & 1u)) { /* 10: the function dictionary */
                unsigned a = (unsigned)((u << 2) >> (64u - ND));
                flook++;
                if (a < DSIZE) {
                    key = fe[a];
                    fe[a] ^= flip;
                    fhit++;
                    clsb = 2 + ND;
                } else {
                    key = (uint32_t)((u << (2 + ND)) >> (64u - fw - 1u));
                    fe[fwp] = key ^ flip;
                    fwp = fwp + 1u == DSIZE ? 0u : fwp + 1u;
                    clsb = 2 + ND + fw + 1u;
                }
            } else { /* 11: an OS record, its type and value codes */
                unsigned bits = run_os_codes(u << 2, o, &d->tdict, &twp, DSIZE,
                                             ND, tw, &d->vdict, &vwp, DSIZE,
                                             ND, vw, lost, &th, &vh);
                if (!bits)
                    break; /* a reserved record: get_record() */
                nos++;
                os = 1;
                clsb = 2 + bits;
            }
        }
        npbs += npb;
        ds[k]++;
        pos += used + clsb;
        o->delta = delta;
        n++;
        if (os)
            continue; /* an OS record leaves the predictor as it is */
        o->kind = key >> fw; /* keys have fw + 1 bits: the exit flag */
        o->a = key & (flip - 1u);
        o->b = 0;
        trc_stk_run_store(ep, en, key, delta, pred);
        trc_stk_move(ring, SD, &t, &c, &top, key, fw);
        prev = key;
    }
    trc_stk_run_done(s, ring, SD, t, c, prev);
    d->fdict.wp = fwp;
    d->tdict.wp = twp;
    d->vdict.wp = vwp;
    r->pos = pos;
    if (n)
        d->ended = 0;
    uint64_t nf = n - nos;
    trc_stats *st = &d->st;
    /* class 0 is one bit, 10 and 11 two; the rest of a record's bits past
     * NP are its class's fields or its timestamp's */
    uint64_t clsb = ntop + (2u + ND) * flook + (2u + 2u * ND) * nos +
                    (fw + 1u) * (flook - fhit) + tw * (nos - th) +
                    vw * (nos - vh);
    st->kind_bits += npbs + ntop + 2u * (flook + nos);
    run_stats(st, nf, nos, flook, fhit, th, vh, pos - pos0 - npbs - clsb, nt,
              fw, tw, vw, ND, ND, ND);
    st->predicted += n - ntop - flook - nos;
    st->top_exits += ntop;
    for (int j = 0; j < 4; j++)
        st->delta_sym[j] += ds[j];
    return n;
}

/* stack_run() out of line, so that the record-at-a-time loop in
 * trc_decode() keeps its registers. */
static size_t stack_runs(trc_decoder *d, bitr *r, trc_record *dst, size_t cap)
{
    return stack_run(d, r, dst, cap);
}

/* Stack mode 2's function records with trc_stk_consts[1]'s parameters (time
 * quantum 1), or [2]'s (fresh entries), decoded in a run while the last
 * record was not an OS record (pk = 0) and, with fresh entries, while the
 * record's context entry is not fresh. It reads the same bits and makes the
 * same state changes and trc_stats figures as get_stack2() in get_record(),
 * record for record: the context index, the NEAR phase's update from the
 * old pd and the entry's delta update are the same functions of
 * trc_stack.h, the symbol of a rank comes from a table that
 * trc_stk_rank_sym() fills, a quantum of 1 leaves deltas as they are (no
 * raw ESC), and what differs is where the state lives, as in stack_run(). A
 * record's NP, event class, delta symbol and payload are cut from one
 * 64-bit load (at least 57 stream bits; NP 12, the class 2, the delta
 * symbol 12 and ESC's payload NZ + NT - 1 at most), its dictionary code
 * from a second one. The run stops before a record it cannot take (class
 * 11, an OS record; a code that get_record() rejects as corrupt: it is left
 * to say so) and before the last SAFE_BITS of the input, as paper_run()
 * does. Needs d->carry == 0. Returns the records written to dst[0..cap). */
static TRC_HOT_INLINE size_t stack2_run(trc_decoder *d, bitr *r,
                                        trc_record *dst, size_t cap,
                                        const s2syms_tab *syms_in,
                                        const int fresh)
{
    const trc_params *p = &trc_stk_consts[1 + fresh];
    enum { NZ = TRC_PAPER_NZ, ND = 4, SD = 16, DSIZE = 15 };
    const unsigned nt = p->nt, fw = p->fid_w;
    const uint32_t dmax = (UINT32_C(1) << nt) - 1u, flip = UINT32_C(1) << fw;
    trc_stk *s = &d->stk;
    if (s->pk)
        return 0;
    const uint8_t(*syms)[2][4][64] = syms_in->t;
    static const uint8_t sym_kind[SYM__COUNT] = {0, 1, 2, 2, 2, 2, 2, 2, 2,
                                                 2, 0, 3, 1, 0};
    const uint8_t *src = r->src;
    uint64_t pos = r->pos;
    const uint64_t stop = r->end - SAFE_BITS; /* the caller: end >= SAFE_BITS */
    uint32_t ring[SD];
    memcpy(ring, s->stack, sizeof ring);
    unsigned t = s->t, c = s->c, ld = s->ld;
    uint32_t top = trc_stk_top(s), prev = s->prev;
    uint32_t *fe = d->fdict.entry;
    unsigned fwp = d->fdict.wp;
    /* trc_stats' counts; the predicted records and the timestamp bits
     * follow from them, the kind bits kindb and the bits read */
    uint64_t flook = 0, fhit = 0, kindb = 0;
    uint64_t ntop = 0, ds[4] = {0, 0, 0, 0};
    const uint64_t pos0 = pos;
    size_t n = 0, bend = 0;
    for (;;) {
        if (n == bend && !run_block(&bend, n, cap, pos, stop))
            break;
        uint64_t v = load_be64(src + (pos >> 3)) << (pos & 7u);
        unsigned idx = trc_stk_index_of(p, top, prev);
        trc_pentry *ep = &s->tab[idx];
        trc_pentry en = trc_stk_run_load(ep);
        if (trc_stk_fresh(p, &en)) /* get_stack2() decodes it */
            break;
        unsigned hm = (unsigned)en.h << 1 | en.m;
        unsigned split = ld != TRC_LD_NONE;
        /* get_sym(): the leading ones (64 -> 63) */
        unsigned su = syms[1][split][hm][__builtin_clzll(~v | 1u)];
        unsigned used = su >> 4, kb = 0, cls = 1;
        unsigned sym = su & 15u;
        int pred = sym != SYM_NP;
        if (!pred) { /* NP, the class (0 or 10), the symbol without NP */
            uint64_t y = v << used;
            if (y >> 62 == 3u)
                break; /* class 11, an OS record: get_record() */
            cls = y >> 63 ? 2u : 0u;
            used += cls ? 2u : 1u;
            kb = used;
            su = syms[0][split][hm][__builtin_clzll(~(v << used) | 1u)];
            used += su >> 4;
            sym = su & 15u;
        }
        /* get_delta_of(): the payload. EQ and NEAR share one path, as in
         * stack_run(); NEAR's direction is its bit, or the phase's. */
        uint64_t x = v << used;
        uint32_t delta;
        unsigned k = sym_kind[sym];
        if (k < 2u) {
            unsigned nr = (sym == SYM_NEAR) | (sym == SYM_NEARO);
            unsigned pdown = ((ld == TRC_LD_UP) ^ (sym == SYM_NEAR)) ^ 1u;
            unsigned bit = (unsigned)(x >> 63);
            unsigned down = nr & ((pdown & (0u - split)) | (bit & (split - 1u)));
            if (TRC_UNLIKELY((down & (en.pd == 0u)) |
                             (nr & (down ^ 1u) & (en.pd >= dmax))))
                break;
            delta = en.pd + nr - 2u * down;
            used += nr & (split ^ 1u);
        } else if (!run_payload(k, x, en.kb, sym, nt, &delta, &used)) {
            break;
        }
        uint32_t key = en.key;
        unsigned db = 0;
        if (!pred && cls == 0) { /* the exit of the top */
            key = flip | top;
            ntop++;
        } else if (!pred) { /* the function dictionary, no exit flip */
            uint64_t at = pos + used;
            uint64_t u = load_be64(src + (at >> 3)) << (at & 7u);
            unsigned a = (unsigned)(u >> (64u - ND));
            flook++;
            if (a < DSIZE) {
                key = fe[a];
                fhit++;
                db = ND;
            } else {
                key = (uint32_t)((u << ND) >> (64u - fw - 1u));
                fe[fwp] = key;
                fwp = fwp + 1u == DSIZE ? 0u : fwp + 1u;
                db = ND + fw + 1u;
            }
        }
        kindb += kb;
        ds[k]++;
        pos += used + db;
        trc_record *o = &dst[n];
        o->delta = delta;
        o->kind = key >> fw; /* keys have fw + 1 bits: the exit flag */
        o->a = key & (flip - 1u);
        o->b = 0;
        n++;
        /* trc_stk_update(): the NEAR phase from the old pd (as in the
         * encoder's run), the entry, the stack */
        uint64_t u = trc_stk_near_u(&en, delta);
        ld = trc_stk_ld_next(ld, u);
        trc_stk_run_store(ep, en, key, delta, pred);
        trc_stk_move(ring, SD, &t, &c, &top, key, fw);
        prev = key;
    }
    trc_stk_run_done(s, ring, SD, t, c, prev);
    s->ld = ld;
    d->fdict.wp = fwp;
    r->pos = pos;
    if (n)
        d->ended = 0;
    trc_stats *st = &d->st;
    st->kind_bits += kindb;
    uint64_t db = ND * flook + (fw + 1u) * (flook - fhit); /* dictionary */
    run_stats(st, n, 0, flook, fhit, 0, 0, pos - pos0 - kindb - db, nt, fw,
              p->type_w, p->val_w, ND, 3, 4);
    st->predicted += n - ntop - flook;
    st->top_exits += ntop;
    for (int j = 0; j < 4; j++)
        st->delta_sym[j] += ds[j];
    return n;
}

/* stack2_run() out of line, as stack_runs(), once without fresh entries
 * and once with them. */
static size_t stack2_runs(trc_decoder *d, bitr *r, trc_record *dst, size_t cap,
                          const s2syms_tab *syms)
{
    return stack2_run(d, r, dst, cap, syms, 0);
}

static size_t stack2_fe_runs(trc_decoder *d, bitr *r, trc_record *dst,
                             size_t cap, const s2syms_tab *syms)
{
    return stack2_run(d, r, dst, cap, syms, 1);
}

/* trc_decode() with run = run_kind(d); compiled once for run = 0,
 * where the paper run's code drops out and leaves the other modes' loop its
 * registers, once for the paper runs, and once for each stack mode's
 * constant parameters. */
static TRC_HOT_INLINE trc_error decode(trc_decoder *d, const uint8_t *src,
                                       size_t len, size_t *src_used,
                                       trc_record *dst, size_t cap,
                                       size_t *n_out, int final,
                                       const int run)
{
    const trc_params *p = run >= 3 ? &trc_stk_consts[run - 3] : &d->p;
    const unsigned nz = run >= 3 ? TRC_PAPER_NZ : d->nz;
    bitr r = {src, len, d->bit, (uint64_t)len * 8u, 0, NULL};
    uint64_t first = r.pos;
    size_t n = 0;
    int marked = 0;
    trc_error err = TRC_OK;
    /* Near the end of the input a record may be cut short, after it changed
     * the state. The state where the last SAFE_BITS begin is kept, once a
     * call; a cut record rolls back to it and decodes again the whole
     * records from there to the cut one (the same records, from the same
     * state and bits), so a record is decoded whole or not at all. */
    trc_decoder save;
    undo_log undo;
    s2syms_tab s2syms;
    if (run >= 4)
        stack2_syms(&s2syms);
    bitr save_r = r;
    size_t save_n = 0;
    int saved = 0;

    while (n < cap && r.pos < r.end) {
        if (d->stk_due)
            due_reset(d, r.undo);
        /* (a run takes no record within the last SAFE_BITS: near the end
         * of the input each record goes to get_record() alone) */
        int room = r.end - r.pos >= SAFE_BITS;
        if ((run == 1 || run == 2) && d->carry == 0 && !d->closing && room) {
            bitr rr = r; /* r's address stays private to this loop */
            size_t k = paper_runs(d, &rr, dst + n, cap - n, run);
            n += k;
            d->count += (uint32_t)k; /* every record of a run is a trace record */
            r = rr;
            if (n == cap || r.pos >= r.end)
                break;
        }
        if (run >= 3 && d->carry == 0 && !d->closing && room) {
            bitr rr = r;
            size_t k = run == 3   ? stack_runs(d, &rr, dst + n, cap - n)
                       : run == 4 ? stack2_runs(d, &rr, dst + n, cap - n, &s2syms)
                                  : stack2_fe_runs(d, &rr, dst + n, cap - n, &s2syms);
            n += k;
            d->count += (uint32_t)k; /* every record of a run is a trace record */
            r = rr;
            if (n == cap || r.pos >= r.end)
                break;
        }
        uint64_t start = r.pos;
        if (!saved && r.end - start < SAFE_BITS) {
            state_copy(&save, d, COPY_REST);
            save_r = r;
            save_n = n;
            saved = 1;
            undo.d = d;
            undo.save = &save;
            undo.n = 0;
            undo.whole = 0;
            r.undo = &undo;
        }
        int emit;
        err = get_record(d, p, nz, &r, &dst[n], &emit);
        if (r.pos > r.end) {
            if (saved) {
                undo_back(&undo);
                r = save_r; /* (and no more logging) */
                n = save_n;
                while (r.pos < start) { /* whole records: no error, no cut */
                    if (d->stk_due)
                        due_reset(d, NULL);
                    get_record(d, p, nz, &r, &dst[n], &emit);
                    n += (size_t)emit;
                    d->count += (uint32_t)emit;
                }
            }
            r.pos = start;
            err = final ? TRC_ERR_TRUNCATED : TRC_OK;
            break;
        }
        if (err != TRC_OK) {
            r.pos = start;
            break;
        }
        n += (size_t)emit;
        d->count += (uint32_t)emit;
        if (d->stop_at_mark && d->ended) {
            marked = 1;
            break;
        }
    }
    if (err == TRC_OK && final && r.pos >= r.end && !d->ended)
        err = TRC_ERR_TRUNCATED; /* the stream stops without END or SYNC */
    if (err == TRC_OK && final && r.pos >= r.end && d->closing && !marked)
        err = TRC_ERR_TRUNCATED; /* ... or without an END's closing units */
    size_t whole = (size_t)(r.pos >> 3);
    if (d->check && whole > r.crcd) {
        d->ucrc = trc_crc32(d->ucrc, src + r.crcd, whole - r.crcd);
        d->ubytes += whole - r.crcd;
    }

    d->bits_done += r.pos - first;
    *src_used = (size_t)(r.pos >> 3);
    d->bit = (unsigned)(r.pos & 7u);
    *n_out = n;
    return err;
}

trc_error trc_decode(trc_decoder *d, const uint8_t *src, size_t len,
                     size_t *src_used, trc_record *dst, size_t cap,
                     size_t *n_out, int final)
{
    if (d->p.nt == 0) { /* its init refused the parameters */
        *src_used = 0;
        *n_out = 0;
        return TRC_ERR_PARAM;
    }
    switch (run_kind(d)) {
    case 1: return decode(d, src, len, src_used, dst, cap, n_out, final, 1);
    case 2: return decode(d, src, len, src_used, dst, cap, n_out, final, 2);
    case 3: return decode(d, src, len, src_used, dst, cap, n_out, final, 3);
    case 4: return decode(d, src, len, src_used, dst, cap, n_out, final, 4);
    case 5: return decode(d, src, len, src_used, dst, cap, n_out, final, 5);
    default: return decode(d, src, len, src_used, dst, cap, n_out, final, 0);
    }
}

/* ---- Checked streams: resuming after damage (format.md 4.10) ---------- */

/* 1 when src[0..len) is exactly one unit that decodes from the reset state
 * (its CRC already checked): records up to an END or SYNC, zero bytes up to
 * len - 8, the count word and the CRC. *n gets its trace records. */
static int whole_unit(const trc_params *p, const uint8_t *src, size_t len,
                      uint64_t *n)
{
    trc_record out[256];
    trc_decoder d;
    size_t at = 0, used, got, body = len - 8u;
    trc_decoder_init(&d, p);
    d.stop_at_mark = 1;
    *n = 0;
    while (!d.ended) {
        if (trc_decode(&d, src + at, body - at, &used, out, 256, &got, 1) != TRC_OK)
            return 0;
        at += used;
        *n += got;
        if (!d.ended && used == 0 && got == 0)
            return 0;
    }
    if (at + (8u - at % 8u) % 8u != body)
        return 0;
    for (size_t i = at; i < body; i++)
        if (src[i])
            return 0;
    return 1;
}

trc_error trc_check_find(const trc_params *p, const uint8_t *src, size_t len,
                         size_t from, size_t *at, size_t *end,
                         uint64_t *records, uint32_t *count)
{
    for (size_t c = from; c + 8u <= len; c += 8u) {
        size_t lim = len - c < TRC_CHECK_FIND_MAX ? len - c : TRC_CHECK_FIND_MAX;
        uint32_t crc = 0;
        for (size_t e = 8; e <= lim; e += 8) {
            crc = trc_crc32(crc, src + c + e - 8u, 8);
            /* the CRC of a whole unit, check word included (format.md 4.10) */
            if (crc != UINT32_C(0x2144DF1C))
                continue;
            const uint8_t *w = src + c + e - 8u;
            uint64_t n = 0;
            if (e > 8u) { /* e == 8: a closing unit, no records */
                if (!(w[3] & 0x80u)) {
                    c += e - 8u; /* a unit that does not begin in the reset state */
                    break;
                }
                if (!whole_unit(p, src + c, e, &n))
                    break;
            }
            *at = c;
            *end = c + e;
            *records = n;
            *count = ((uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 |
                      (uint32_t)w[3] << 24) & UINT32_C(0x7FFFFFFF);
            return TRC_OK;
        }
    }
    return TRC_ERR_TRUNCATED;
}
