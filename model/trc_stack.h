/*
 * trc_stack.h - the stack mode predictor rules shared by encoder and decoder
 * (internal; normative text in docs/format.md 4.7 and, for stack mode 2,
 * 4.8): the context hashes, the delta symbols and their ranked unary code,
 * and the state updates.
 */
#ifndef TRC_STACK_H
#define TRC_STACK_H

#include <string.h>

#include "trc.h"

/* Delta symbols. L(j) says bit length = kb + j, j in -3..4. In stack mode 2
 * with a NEAR phase (ld != 0), SYM_NEAR is the predicted direction and
 * SYM_NEARO the other one. */
enum {
    SYM_EQ, SYM_NEAR, SYM_L0, SYM_LP1, SYM_LM1, SYM_LP2, SYM_LM2, SYM_LP3,
    SYM_LM3, SYM_LP4, SYM_NP, SYM_ESC, SYM_NEARO, SYM_NPX, SYM__COUNT
};
#define TRC_PD_MAX 4095u /* stored deltas saturate here (12 bits) */
#define TRC_RANK_MAX 13  /* longest alphabet: 11 symbols + NP + ESC */
enum { TRC_LD_NONE, TRC_LD_UP, TRC_LD_DOWN }; /* stack mode 2 NEAR phase */
typedef char trc_sym_eq_is_0[SYM_EQ == 0 ? 1 : -1]; /* trc_stk_symbol() */

static const int8_t trc_sym_j[SYM__COUNT] = {0, 0, 0, 1, -1, 2, -2, 3, -3, 4,
                                             0, 0, 0, 0};

/* The symbol order of each delta mode; NP and ESC are placed by
 * trc_stk_alphabet(). Near mode favours EQ/NEAR, noisy mode the lengths. */
static const uint8_t trc_sym_order[2][10] = {
    {SYM_EQ, SYM_NEAR, SYM_L0, SYM_LP1, SYM_LM1, SYM_LP2, SYM_LM2, SYM_LP3,
     SYM_LM3, SYM_LP4},
    {SYM_L0, SYM_LP1, SYM_LM1, SYM_LP2, SYM_LM2, SYM_LP3, SYM_EQ, SYM_NEAR,
     SYM_LM3, SYM_LP4},
};

/* Fills alpha[] (rank -> symbol) and returns its length: the mode's order,
 * NP inserted in front of the order's element 1 (h = 0), 3 (near mode) or 8
 * (noisy mode) when with_np, NEARO right after NEAR when split (stack mode 2
 * with a NEAR phase), then ESC last. */
static inline unsigned trc_stk_alphabet(const trc_pentry *e, int with_np,
                                        int split, uint8_t alpha[TRC_RANK_MAX])
{
    unsigned np_rank = !e->h ? 1u : e->m ? 8u : 3u, n = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (with_np && i == np_rank)
            alpha[n++] = SYM_NP;
        alpha[n++] = trc_sym_order[e->m][i];
        if (split && trc_sym_order[e->m][i] == SYM_NEAR)
            alpha[n++] = SYM_NEARO;
    }
    alpha[n++] = SYM_ESC;
    return n;
}

/* Each symbol's place in trc_sym_order[m] (the order's own ten symbols). */
static const uint8_t trc_sym_pos[2][SYM_NP] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
    {6, 7, 0, 1, 2, 3, 4, 5, 8, 9},
};

/* NP's place in the order of entry e, as trc_stk_alphabet() puts it: 1
 * when h = 0, else 3 (near mode) or 8 (noisy mode). A table rather than
 * the two tests, which the compiler made into branches on per-record
 * state. */
static inline unsigned trc_np_place(const trc_pentry *e)
{
    static const uint8_t place[2][2] = {{1, 1}, {3, 8}}; /* [h][m] */
    return place[e->h & 1u][e->m & 1u];
}

/* The rank of sym in the alphabet trc_stk_alphabet() builds (npx: with
 * NPX after ESC, as trc_stk_oalphabet()), without building it: NP sits
 * before the order's element np_rank, NEARO right after NEAR. */
static inline unsigned trc_stk_rank(const trc_pentry *e, int with_np,
                                    int split, unsigned sym)
{
    unsigned r = trc_np_place(e);             /* NP's place in the order */
    unsigned q = trc_sym_pos[e->m][SYM_NEAR]; /* NEAR's */
    unsigned n = 11u + (unsigned)!!with_np + (unsigned)!!split;
    if (sym < SYM_NP) {
        unsigned k = trc_sym_pos[e->m][sym];
        return k + (unsigned)(with_np && k >= r) + (unsigned)(split && k > q);
    }
    if (sym == SYM_NP)
        return r + (unsigned)(split && q < r);
    if (sym == SYM_NEARO)
        return q + 1u + (unsigned)(with_np && r <= q);
    return sym == SYM_ESC ? n - 1u : n; /* NPX */
}

/* The symbol of rank i in the same alphabet (i below its length). */
static inline unsigned trc_stk_rank_sym(const trc_pentry *e, int with_np,
                                        int split, unsigned i)
{
    unsigned r = trc_np_place(e);
    unsigned q = trc_sym_pos[e->m][SYM_NEAR];
    unsigned n = 11u + (unsigned)!!with_np + (unsigned)!!split;
    unsigned np = r + (unsigned)(split && q < r);
    unsigned nearo = q + 1u + (unsigned)(with_np && r <= q);
    if (i + 1u >= n)
        return i + 1u == n ? SYM_ESC : SYM_NPX;
    if (with_np && i == np)
        return SYM_NP;
    if (split && i == nearo)
        return SYM_NEARO;
    return trc_sym_order[e->m][i - (unsigned)(with_np && i > np) -
                               (unsigned)(split && i > nearo)];
}

/* The default parameters of the two stack modes (trc_params_stack(),
 * trc_params_stack2()), stack mode 2's without and with fresh entries, as
 * constants. The coders compile a copy of their loop that reads its
 * parameters from these, so that every shift, mask, index fold and table
 * size is a constant there; trc_stk_consts_of() says which copy fits p. */
static const trc_params trc_stk_consts[3] = {
    {23, 15, 7, 16, 3, 3, 3, TRC_MODE_STACK, 9, 16, 0, 1, 1, 0},
    {23, 15, 7, 16, 4, 3, 4, TRC_MODE_STACK2, 12, 16, 9, 1, 1, 0},
    {23, 15, 7, 16, 4, 3, 4, TRC_MODE_STACK2, 12, 16, 9, 1, 1, 1},
};

/* k + 1 when p codes as trc_stk_consts[k], else 0 (fields that no stack
 * mode reads are not compared). */
static inline int trc_stk_consts_of(const trc_params *p)
{
    for (int k = 0; k < 3; k++) {
        const trc_params *c = &trc_stk_consts[k];
        if (p->mode == c->mode && p->nt == c->nt && p->fid_w == c->fid_w &&
            p->type_w == c->type_w && p->val_w == c->val_w &&
            p->nd_f == c->nd_f && p->nd_t == c->nd_t && p->nd_v == c->nd_v &&
            p->sk == c->sk && p->sd == c->sd && TRC_TQ(p) == TRC_TQ(c) &&
            (p->mode == TRC_MODE_STACK || p->so == c->so) && p->cpus <= 1u &&
            p->fe == c->fe)
            return k + 1;
    }
    return 0;
}

/* Bits of x up to its leading one, 0 for x = 0: 2x + 1 has one more, and
 * 63 - clz of it is its leading one's place (one instruction, no test). */
static inline unsigned trc_bitlen(uint32_t x)
{
    return 63u - (unsigned)__builtin_clzll((uint64_t)x << 1 | 1u);
}

/* Context index: top of stack (0 when the stack is empty) and previous
 * key, XOR-folded to SK bits. */
static inline unsigned trc_stk_index_of(const trc_params *p, uint32_t top32,
                                        uint32_t prev)
{
    uint64_t top = top32;
    uint64_t pflag = prev >> p->fid_w;
    uint64_t pfid = prev & ((UINT64_C(1) << p->fid_w) - 1u);
    uint64_t v = (top << 1 | pflag) ^ (pfid << 3) ^ (pfid << (p->sk - 2u));
    /* v has at most FID_W + max(3, SK - 2) bits: as many folds as that
     * takes, the same for every record, so the branch predictor learns the
     * loop (a stop at v == 0 varies from record to record). */
    unsigned h = 0, mask = (1u << p->sk) - 1u;
    int left = (int)(p->fid_w + (p->sk > 5u ? p->sk - 2u : 3u));
    for (; left > 0; left -= (int)p->sk, v >>= p->sk)
        h ^= (unsigned)(v & mask);
    return h;
}

static inline uint32_t trc_stk_top(const trc_stk *s)
{
    return s->c ? s->stack[s->t] : 0u;
}

static inline unsigned trc_stk_index(const trc_params *p, const trc_stk *s)
{
    return trc_stk_index_of(p, trc_stk_top(s), s->prev);
}

static inline void trc_stk_reset(const trc_params *p, trc_stk *s)
{
    memset(s->tab, 0, sizeof s->tab[0] << p->sk);
    if (p->mode == TRC_MODE_STACK2)
        memset(s->otab, 0, sizeof s->otab[0] << p->so);
    s->t = s->c = 0;
    s->prev = 0;
    s->ptype = s->pval = 0;
    s->pk = s->nc = 0;
    s->ld = TRC_LD_NONE;
}

/* Stack mode 2: the OS entry's alphabet after an OS record, 4.7's with NP
 * (NP: not predicted, class nc) and NPX (the other class) after ESC. */
static inline unsigned trc_stk_oalphabet(const trc_pentry *o,
                                         uint8_t alpha[TRC_RANK_MAX])
{
    unsigned n = trc_stk_alphabet(o, 1, 0, alpha);
    alpha[n++] = SYM_NPX;
    return n;
}

/* d - pd + 1 in 64 bits: 0, 1 or 2 when d is pd - 1, pd or pd + 1, and
 * 3 or more for any other d (it wraps when d + 1 < pd), so one compare
 * tells EQ or NEAR. */
static inline uint64_t trc_stk_near_u(const trc_pentry *e, uint32_t d)
{
    return (uint64_t)d + 1u - e->pd;
}

/* The delta symbol for delta d under entry e (the encoder's choice); ld is
 * stack mode 2's NEAR phase (TRC_LD_NONE in stack mode). After an up step
 * the predicted NEAR is down, and the other way round. */
static inline unsigned trc_stk_symbol(const trc_pentry *e, uint32_t d,
                                      unsigned ld)
{
    static const uint8_t sym_of_j[8] = {SYM_LM3, SYM_LM2, SYM_LM1, SYM_L0,
                                        SYM_LP1, SYM_LP2, SYM_LP3, SYM_LP4};
    /* Each candidate computed, then one chosen: the order of the tests
     * (EQ, then NEAR, then a length, else ESC) is the rule; the selects
     * let the compiler use conditional moves where the tests made it
     * branch (j3 & 7 keeps the table read in bounds when it is made
     * before the test). */
    unsigned j3 = trc_bitlen(d) + 3u - e->kb; /* j + 3, wraps below -3 */
    unsigned len = d && j3 < 8u ? sym_of_j[j3 & 7u] : SYM_ESC;
    uint64_t u = trc_stk_near_u(e, d);
    if (u >= 3u) /* a branch: a trace keeps mostly to one side */
        return len;
    /* NEARO, the other direction than the phase's: u = 2 (up) under
     * LD_UP (1), u = 0 (down) under LD_DOWN (2), so u + 2 ld = 4 (no u
     * below 3 gives 4 with LD_NONE). EQ or NEAR as a number (SYM_EQ is
     * 0): which of the two comes follows no pattern a branch predictor
     * learns. */
    unsigned near = SYM_NEAR + (SYM_NEARO - SYM_NEAR) * (unsigned)(u + 2u * ld == 4u);
    return near & (0u - (unsigned)(u != 1u));
}

/* The delta prediction fields of an entry after a record with delta d. */
static inline void trc_stk_delta_update(trc_pentry *e, uint32_t d)
{
    unsigned len = trc_bitlen(d);
    int near = trc_stk_near_u(e, d) < 3u; /* EQ or NEAR */
    e->kb = (uint8_t)(e->kb + (len > e->kb) - (len < e->kb));
    e->m = (uint8_t)!near;
    e->pd = (uint16_t)(d > TRC_PD_MAX ? TRC_PD_MAX : d);
}

/* The record runs' copy of entry *ep: the fields stack mode reads (not
 * val), as a local kept in registers (the runs' output stores may alias
 * the table). The runs take no record of a fresh entry, so a run's store
 * leaves w as it was. */
static inline trc_pentry trc_stk_run_load(const trc_pentry *ep)
{
    trc_pentry en = {ep->key, 0, ep->pd, ep->kb, ep->m, ep->h, ep->w};
    return en;
}

/* trc_stk_update()'s entry update for the record runs: en, from
 * trc_stk_run_load(ep), after a record with delta d, stored back to *ep
 * with the record's key and whether it was predicted. */
static inline void trc_stk_run_store(trc_pentry *ep, trc_pentry en,
                                     uint32_t key, uint32_t d, int pred)
{
    trc_stk_delta_update(&en, d);
    ep->key = key;
    ep->pd = en.pd;
    ep->kb = en.kb;
    ep->m = en.m;
    ep->h = (uint8_t)(pred != 0);
}

/* The end of a record run: the stack the run kept in locals (its ring of
 * sd entries, the top's index t, the depth c, the previous key) back into
 * s. */
static inline void trc_stk_run_done(trc_stk *s, const uint32_t *ring,
                                    unsigned sd, unsigned t, unsigned c,
                                    uint32_t prev)
{
    memcpy(s->stack, ring, sd * sizeof *ring);
    s->t = t;
    s->c = c;
    s->prev = prev;
}

/* Stack mode 2's NEAR phase after a record, from u = d - pd + 1 of the old
 * pd: u = 1 leaves it, u = 0 or 2 gives 2 - u / 2 (LD_DOWN, LD_UP), any
 * other u LD_NONE. EQ or NEAR against the rest is a branch (a trace keeps
 * mostly to one side), EQ against NEAR a number: which of the two comes
 * follows no pattern a branch predictor learns, and a branch the predictor
 * follows keeps the phase off the next record's critical path. */
static inline unsigned trc_stk_ld_next(unsigned ld, uint64_t u)
{
    if (u >= 3u)
        return TRC_LD_NONE;
    unsigned keep = u == 1u;
    return (ld & (0u - keep)) | ((2u - (unsigned)(u >> 1)) & (keep - 1u));
}

/* Stack mode 2 with fresh entries: whether e codes as a fresh entry (not
 * updated since the reset; format.md 4.8). */
static inline int trc_stk_fresh(const trc_params *p, const trc_pentry *e)
{
    return p->fe && !e->w;
}

/* The delta fields of a fresh entry after its first record, delta d: kb
 * takes d's bit length at once, m is noisy (format.md 4.8). */
static inline void trc_stk_fresh_update(trc_pentry *e, uint32_t d)
{
    e->kb = (uint8_t)trc_bitlen(d);
    e->m = 1;
    e->pd = (uint16_t)(d > TRC_PD_MAX ? TRC_PD_MAX : d);
}

/* State update after a function record (key, delta d, predicted or not). */
static inline void trc_stk_update(const trc_params *p, trc_stk *s,
                                  unsigned idx, uint32_t key, uint32_t d,
                                  int predicted)
{
    trc_pentry *e = &s->tab[idx];
    if (trc_stk_fresh(p, e)) {
        s->ld = TRC_LD_NONE;
        trc_stk_fresh_update(e, d);
    } else {
        if (p->mode == TRC_MODE_STACK2) /* NEAR phase, from the old pd */
            s->ld = trc_stk_ld_next(s->ld, trc_stk_near_u(e, d));
        trc_stk_delta_update(e, d);
    }
    e->w = 1;
    e->h = (uint8_t)(predicted != 0);
    e->key = key;
    uint32_t fid = key & ((UINT32_C(1) << p->fid_w) - 1u);
    /* An entry pushes (the oldest falls off), an exit of the top pops,
     * any other exit leaves the stack: the new top index and count as
     * selects. The compiler may still branch around the push's store; a
     * store always made, of a masked value, measured slower. */
    unsigned up = s->t + 1u == p->sd ? 0u : s->t + 1u;
    unsigned down = s->t ? s->t - 1u : p->sd - 1u;
    int push = !(key >> p->fid_w);
    int pop = !push && s->c && s->stack[s->t] == fid;
    s->stack[up] = push ? fid : s->stack[up];
    s->t = push ? up : pop ? down : s->t;
    s->c = s->c + (unsigned)(push && s->c < p->sd) - (unsigned)pop;
    s->prev = key;
    s->pk = 0;
}

/* trc_stk_update()'s stack move on a coder's local copy of the stack (the
 * record runs keep it in registers): ring of sd entries, top index *t,
 * count *c and the top's value *top (0 when empty). An entry pushes (the
 * oldest falls off), an exit of the top pops, any other exit leaves it. */
static inline void trc_stk_move(uint32_t *ring, unsigned sd, unsigned *t,
                                unsigned *c, uint32_t *top, uint32_t key,
                                unsigned fid_w)
{
    uint32_t fid = key & ((UINT32_C(1) << fid_w) - 1u);
    if (!(key >> fid_w)) {
        *t = (*t + 1u) % sd;
        ring[*t] = fid;
        *c += *c < sd;
        *top = fid;
    } else if (*c && *top == fid) {
        *t = (*t + sd - 1u) % sd;
        *c -= 1u;
        *top = *c ? ring[*t] : 0u;
    }
}

/* Stack mode 2: the OS context index, the last OS record's type and value
 * XOR-folded to SO bits. */
static inline unsigned trc_stk_oindex(const trc_params *p, const trc_stk *s)
{
    uint64_t v = (uint64_t)s->ptype << p->val_w | s->pval;
    unsigned h = 0, mask = (1u << p->so) - 1u;
    int left = (int)(p->type_w + p->val_w); /* a fixed count of folds */
    for (; left > 0; left -= (int)p->so, v >>= p->so)
        h ^= (unsigned)(v & mask);
    return h;
}

/* Stack mode 2: state update after an OS record (reserved ones included). */
static inline void trc_stk_oupdate(const trc_params *p, trc_stk *s,
                                   unsigned oidx, uint32_t type, uint32_t val,
                                   uint32_t d)
{
    trc_pentry *o = &s->otab[oidx];
    if (trc_stk_fresh(p, o))
        trc_stk_fresh_update(o, d);
    else
        trc_stk_delta_update(o, d);
    o->w = 1;
    o->key = type;
    o->val = val;
    s->ptype = type;
    s->pval = val;
    s->pk = 1;
}

#endif /* TRC_STACK_H */
