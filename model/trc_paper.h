/*
 * trc_paper.h - the paper's field widths as constants (internal): the one
 * place trc_params_paper() and the coders' specialised paths take them from.
 * The coders compile a copy of their paper-mode loop with these values, so
 * that every shift and mask is by a constant.
 */
#ifndef TRC_PAPER_H
#define TRC_PAPER_H

#include "trc.h"

#define TRC_PAPER_NT 23     /* delta bits */
#define TRC_PAPER_NZ 5      /* trc_nz_bits(TRC_PAPER_NT) */
#define TRC_PAPER_FID_W 15  /* function id bits */
#define TRC_PAPER_TYPE_W 7  /* OS type bits */
#define TRC_PAPER_VAL_W 16  /* OS value bits */
#define TRC_PAPER_ND 3      /* address bits of each dictionary */

/* Whether p has the paper's field widths and dictionary sizes (any mode). */
static inline int trc_paper_widths(const trc_params *p)
{
    return p->nt == TRC_PAPER_NT && p->fid_w == TRC_PAPER_FID_W &&
           p->type_w == TRC_PAPER_TYPE_W && p->val_w == TRC_PAPER_VAL_W &&
           p->nd_f == TRC_PAPER_ND && p->nd_t == TRC_PAPER_ND &&
           p->nd_v == TRC_PAPER_ND;
}

#endif /* TRC_PAPER_H */
