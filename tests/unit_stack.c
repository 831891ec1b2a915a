/*
 * unit_stack.c - unit tests of the coder's internal helpers that the hot
 * loops use in place of their plain forms: the rank of a delta symbol
 * computed without building the alphabet (against trc_stk_alphabet() and
 * alphabets written out by hand from docs/format.md 4.7 and 4.8), the delta
 * symbol choice, the compare-all dictionary search and the fixed-count
 * context folds (against the plain loops, written here). Seeded; prints
 * "ok NAME" / "not ok NAME" and exits non-zero on a failure.
 */
#include <stdio.h>
#include <string.h>

#include "trc.h"
#include "unit.h"
#include "trc_dict.h"
#include "trc_stack.h"

/* Every alphabet: rank -> symbol and symbol -> rank agree with the built
 * alphabet, for each delta mode, h, NP, NEAR phase split and NPX. */
static void test_ranks(void)
{
    int all = 1;
    for (unsigned v = 0; v < 32; v++) {
        trc_pentry e;
        memset(&e, 0, sizeof e);
        e.m = (uint8_t)(v & 1u);
        e.h = (uint8_t)(v >> 1 & 1u);
        int with_np = (int)(v >> 2 & 1u), split = (int)(v >> 3 & 1u);
        int npx = (int)(v >> 4 & 1u);
        if (npx && !with_np)
            continue; /* NPX comes only with NP */
        uint8_t alpha[TRC_RANK_MAX + 1];
        unsigned n = trc_stk_alphabet(&e, with_np, split, alpha);
        if (npx)
            alpha[n++] = SYM_NPX;
        for (unsigned i = 0; i < n; i++) {
            all &= trc_stk_rank_sym(&e, with_np, split, i) == alpha[i];
            all &= trc_stk_rank(&e, with_np, split, alpha[i]) == i;
        }
    }
    check(all, "stack_rank_matches_alphabet");

    /* Written out from format.md: noisy mode after a predicted record, with
     * NP and the NEAR phase; and near mode after a miss, with NP and NPX. */
    static const uint8_t noisy[] = {SYM_L0,  SYM_LP1,   SYM_LM1, SYM_LP2,
                                    SYM_LM2, SYM_LP3,   SYM_EQ,  SYM_NEAR,
                                    SYM_NEARO, SYM_NP,  SYM_LM3, SYM_LP4,
                                    SYM_ESC};
    static const uint8_t near[] = {SYM_EQ,  SYM_NP,  SYM_NEAR, SYM_L0,
                                   SYM_LP1, SYM_LM1, SYM_LP2,  SYM_LM2,
                                   SYM_LP3, SYM_LM3, SYM_LP4,  SYM_ESC,
                                   SYM_NPX};
    trc_pentry e;
    memset(&e, 0, sizeof e);
    e.m = 1;
    e.h = 1;
    all = 1;
    for (unsigned i = 0; i < sizeof noisy; i++)
        all &= trc_stk_rank_sym(&e, 1, 1, i) == noisy[i] &&
               trc_stk_rank(&e, 1, 1, noisy[i]) == i;
    check(all, "stack_rank_noisy_split_by_hand");
    e.m = 0;
    e.h = 0;
    all = 1;
    for (unsigned i = 0; i < sizeof near; i++)
        all &= trc_stk_rank_sym(&e, 1, 0, i) == near[i] &&
               trc_stk_rank(&e, 1, 0, near[i]) == i;
    check(all, "stack_rank_near_npx_by_hand");
}

/* The delta symbol: EQ, NEAR, L(j) for j = bit length - kb in -3..4, else
 * ESC (and ESC for a zero delta that is neither EQ nor NEAR). */
static void test_symbol(void)
{
    int all = 1;
    rng_state = 11;
    for (int k = 0; k < 200000; k++) {
        trc_pentry e;
        memset(&e, 0, sizeof e);
        e.kb = (uint8_t)(rnd() % 34u);
        e.pd = (uint16_t)(rnd() % 4096u);
        uint32_t d = (uint32_t)(rnd() >> (rnd() % 64u));
        if (k % 3 == 0)
            d = (uint32_t)(rnd() % 8u);
        unsigned ld = (unsigned)(k % 3); /* none, up, down */
        unsigned want;
        int j = (int)trc_bitlen(d) - (int)e.kb;
        if (d == e.pd)
            want = SYM_EQ;
        else if ((uint64_t)d + 1u == e.pd || (uint64_t)d == (uint64_t)e.pd + 1u)
            /* stack mode 2's phase: after an up step NEAR is the step
             * down, after a down step the step up; NEARO the other */
            want = ld == TRC_LD_NONE                      ? SYM_NEAR
                   : (ld == TRC_LD_UP) == (d < e.pd) ? SYM_NEAR
                                                         : SYM_NEARO;
        else if (d == 0 || j < -3 || j > 4)
            want = SYM_ESC;
        else
            want = j == 0 ? SYM_L0 : j > 0 ? SYM_LP1 + 2u * (unsigned)(j - 1)
                                           : SYM_LM1 + 2u * (unsigned)(-j - 1);
        all &= trc_stk_symbol(&e, d, ld) == want;
    }
    check(all, "stack_symbol_choice");
}

/* The dictionary search: lowest matching address below size, else size;
 * stale keys past size must not count. */
static void test_dict_find(void)
{
    int all = 1;
    rng_state = 12;
    for (unsigned nd = 1; nd <= 8; nd++)
        for (int k = 0; k < 20000; k++) {
            trc_dict d;
            trc_dict_reset(&d, nd);
            for (unsigned a = 0; a < TRC_DICT_MAX; a++)
                d.entry[a] = (uint32_t)(rnd() % 12u);
            uint32_t key = (uint32_t)(rnd() % 12u);
            unsigned want = 0;
            while (want < d.size && d.entry[want] != key)
                want++;
            all &= trc_dict_find(&d, key) == want;
        }
    check(all, "dict_find_lowest_match");
}

/* The context folds against the plain fold-until-zero loops. */
static void test_folds(void)
{
    int all = 1;
    rng_state = 13;
    for (unsigned sk = 4; sk <= 12; sk++)
        for (unsigned fw = 1; fw <= 31; fw++)
            for (int k = 0; k < 300; k++) {
                trc_params p = trc_params_stack();
                p.sk = sk;
                p.so = sk;
                p.fid_w = fw;
                p.type_w = 3u + (unsigned)(rnd() % 14u);
                p.val_w = 1u + (unsigned)(rnd() % 32u);
                trc_stk s;
                memset(&s, 0, sizeof s);
                uint32_t fmask = (uint32_t)((UINT64_C(1) << fw) - 1u);
                s.c = (unsigned)(rnd() % 2u);
                s.stack[0] = (uint32_t)rnd() & fmask;
                s.prev = (uint32_t)(rnd() & ((UINT64_C(2) << fw) - 1u));
                s.ptype = (uint32_t)(rnd() & ((UINT64_C(1) << p.type_w) - 1u));
                s.pval = (uint32_t)(rnd() & ((UINT64_C(1) << p.val_w) - 1u));
                uint64_t top = s.c ? s.stack[0] : 0u;
                uint64_t pfid = s.prev & fmask;
                uint64_t v = (top << 1 | s.prev >> fw) ^ (pfid << 3) ^
                             (pfid << (sk - 2u));
                unsigned h = 0;
                for (; v; v >>= sk)
                    h ^= (unsigned)(v & ((1u << sk) - 1u));
                all &= trc_stk_index(&p, &s) == h;
                v = (uint64_t)s.ptype << p.val_w | s.pval;
                h = 0;
                for (; v; v >>= sk)
                    h ^= (unsigned)(v & ((1u << sk) - 1u));
                all &= trc_stk_oindex(&p, &s) == h;
            }
    check(all, "stack_context_folds");
}

/* trc_stk_update()'s stack against a plain one: an entry pushes (the
 * oldest of SD falls off), an exit of the top pops, any other exit leaves
 * it; compared after every update of random entries and exits, over a few
 * ids so that exits of the top are common. */
static void test_stack_moves(void)
{
    int all = 1;
    rng_state = 17;
    for (unsigned sd = 1; sd <= 6; sd++) {
        trc_params p = trc_params_stack();
        p.sd = sd;
        static trc_stk s;
        trc_stk_reset(&p, &s);
        uint32_t ref[64];
        unsigned n = 0; /* ref[0..n) bottom to top */
        for (int k = 0; k < 20000; k++) {
            uint32_t fid = (uint32_t)(rnd() % 4u);
            int exit = (int)(rnd() % 2u);
            uint32_t key = (uint32_t)exit << p.fid_w | fid;
            if (!exit) {
                if (n == sd) {
                    memmove(ref, ref + 1, (sd - 1u) * sizeof ref[0]);
                    n--;
                }
                ref[n++] = fid;
            } else if (n && ref[n - 1] == fid) {
                n--;
            }
            trc_stk_update(&p, &s, 0, key, 0, 0);
            all &= s.c == n && trc_stk_top(&s) == (n ? ref[n - 1] : 0u);
        }
    }
    check(all, "stack_push_pop");
}

int main(void)
{
    test_ranks();
    test_symbol();
    test_stack_moves();
    test_dict_find();
    test_folds();
    return unit_exit("unit_stack");
}
