/*
 * trc_params.c - format parameters, error names, record range checks and the
 * lowering of trace records to raw (encoder input) records.
 */
#include "trc.h"
#include "trc_paper.h"

static const char *const err_names[TRC_ERR__COUNT] = {
    "TRC_OK", "TRC_ERR_PARAM", "TRC_ERR_FIELD", "TRC_ERR_RESERVED",
    "TRC_ERR_KIND", "TRC_ERR_DST_SMALL", "TRC_ERR_TRUNCATED",
    "TRC_ERR_CORRUPT", "TRC_ERR_PADDING", "TRC_ERR_DELTA_OVERFLOW",
    "TRC_ERR_MAGIC", "TRC_ERR_VERSION", "TRC_ERR_HEADER", "TRC_ERR_SYNTAX",
    "TRC_ERR_CHECK", "TRC_ERR_IO",
};

static const char *const err_texts[TRC_ERR__COUNT] = {
    "no error",
    "format parameter out of range",
    "record field does not fit its width",
    "reserved OS info type in a trace record",
    "unknown record kind",
    "output buffer too small",
    "stream truncated",
    "stream corrupt",
    "non-zero padding bits after END/SYNC",
    "delta exceeds 64 bits",
    "not a trc file (bad magic)",
    "unsupported trc container version or mode",
    "invalid trc container header",
    "malformed trace text line",
    "check value mismatch",
    "output could not be written",
};

const char *trc_error_name(trc_error err)
{
    return (unsigned)err < TRC_ERR__COUNT ? err_names[err] : "TRC_ERR_UNKNOWN";
}

const char *trc_error_text(trc_error err)
{
    return (unsigned)err < TRC_ERR__COUNT ? err_texts[err] : "unknown error";
}

trc_params trc_params_paper(void)
{
    trc_params p = {TRC_PAPER_NT,     TRC_PAPER_FID_W, TRC_PAPER_TYPE_W,
                    TRC_PAPER_VAL_W,  TRC_PAPER_ND,    TRC_PAPER_ND,
                    TRC_PAPER_ND,     TRC_MODE_PAPER,  0, 0, 0, 1, 1, 0};
    return p;
}

trc_params trc_params_stack(void)
{
    trc_params p = trc_params_paper();
    p.mode = TRC_MODE_STACK;
    p.sk = 9;
    p.sd = 16;
    return p;
}

trc_params trc_params_stack2(void)
{
    trc_params p = trc_params_paper();
    p.mode = TRC_MODE_STACK2;
    p.nd_f = 4;
    p.nd_v = 4;
    p.sk = 12;
    p.sd = 16;
    p.so = 9;
    p.fe = 1;
    return p;
}

trc_error trc_params_check(const trc_params *p)
{
    if (p->nt < 2 || p->nt > 32 || p->fid_w < 1 || p->fid_w > 31 ||
        p->type_w < 3 || p->type_w > 16 || p->val_w < 1 || p->val_w > 32)
        return TRC_ERR_PARAM;
    /* Reset state puts value i in entry i: it must fit the field. */
    if (p->nd_f < 1 || p->nd_f > 8 || p->nd_f > p->fid_w ||
        p->nd_t < 1 || p->nd_t > 8 || p->nd_t > p->type_w ||
        p->nd_v < 1 || p->nd_v > 8 || p->nd_v > p->val_w)
        return TRC_ERR_PARAM;
    /* Several CPUs: paper mode, and a z value above NT for the switch code
     * (NT + 1 not a power of two; docs/format.md 4.9). */
    if (p->cpus > TRC_CPU_MAX ||
        (p->cpus > 1 && (p->mode != TRC_MODE_PAPER ||
                         ((p->nt + 1u) & p->nt) == 0)))
        return TRC_ERR_PARAM;
    /* A time quantum: stack mode 2, a power of ten up to 1000, and a free z
     * value above NT for the raw delta (NT + 1 not a power of two, 4.8). */
    if (p->tq > 1u && (p->mode != TRC_MODE_STACK2 || ((p->nt + 1u) & p->nt) == 0 ||
                       (p->tq != 10u && p->tq != 100u && p->tq != 1000u)))
        return TRC_ERR_PARAM;
    /* Fresh entries: stack mode 2 only. */
    if (p->fe > 1u || (p->fe && p->mode != TRC_MODE_STACK2))
        return TRC_ERR_PARAM;
    if (p->mode == TRC_MODE_PAPER)
        return p->sk == 0 && p->sd == 0 && p->so == 0 ? TRC_OK : TRC_ERR_PARAM;
    if ((p->mode != TRC_MODE_STACK && p->mode != TRC_MODE_STACK2) ||
        p->sk < 4 || p->sk > TRC_SK_MAX || p->sd < 1 || p->sd > TRC_SD_MAX)
        return TRC_ERR_PARAM;
    if (p->mode == TRC_MODE_STACK)
        return p->so == 0 ? TRC_OK : TRC_ERR_PARAM;
    return p->so >= 4 && p->so <= TRC_SO_MAX ? TRC_OK : TRC_ERR_PARAM;
}

unsigned trc_nz_bits(unsigned nt)
{
    unsigned n = 0;
    while (nt >> n)
        n++;
    return n;
}

static uint64_t field_max(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1u;
}

static trc_error fields_check(const trc_params *p, const trc_record *r)
{
    switch (r->kind) {
    case TRC_ENTRY:
    case TRC_EXIT:
        return r->a > field_max(p->fid_w) || r->b ? TRC_ERR_FIELD : TRC_OK;
    case TRC_OS:
        return r->a > field_max(p->type_w) || r->b > field_max(p->val_w)
                   ? TRC_ERR_FIELD : TRC_OK;
    case TRC_LOST:
        return r->a > field_max(p->val_w) || r->b ? TRC_ERR_FIELD : TRC_OK;
    default:
        return TRC_ERR_KIND;
    }
}

/* q of docs/format.md 4.2: the ticks the TIME_EXT records cover are q * M. */
static uint64_t ext_q(const trc_params *p, uint64_t delta)
{
    uint64_t max = field_max(p->nt);
    return delta > max ? (delta - 1u) / max : 0u;
}

/* The largest TIME_EXT value the long-gap form may use. */
static unsigned ext_kmax(const trc_params *p)
{
    return p->val_w >= 6 ? 63u : (1u << p->val_w) - 1u;
}

static int delta_ok(const trc_params *p, uint64_t delta)
{
    uint64_t q = ext_q(p, delta);
    unsigned k = ext_kmax(p);
    return q <= TRC_TIME_EXT_RUN || k >= 63u || (q >> (k + 1u)) == 0;
}

trc_error trc_record_check(const trc_params *p, const trc_record *r)
{
    trc_error e = fields_check(p, r);
    if (e == TRC_OK && r->kind == TRC_OS && r->a >= TRC_TYPE_LOST(p))
        e = TRC_ERR_RESERVED;
    if (e == TRC_OK && !delta_ok(p, r->delta))
        e = TRC_ERR_FIELD;
    return e;
}

trc_error trc_raw_check(const trc_params *p, const trc_record *r)
{
    if (r->kind == TRC_LOST)
        return TRC_ERR_KIND;
    if (r->delta > field_max(p->nt))
        return TRC_ERR_FIELD;
    return fields_check(p, r);
}

static unsigned popcount64(uint64_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1u)
        n++;
    return n;
}

uint64_t trc_time_ext_count(const trc_params *p, uint64_t delta)
{
    uint64_t q = ext_q(p, delta);
    return q <= TRC_TIME_EXT_RUN ? q : popcount64(q);
}

trc_record trc_time_ext_record(const trc_params *p)
{
    trc_record r = {field_max(p->nt), TRC_TYPE_TIME_EXT(p), 0, TRC_OS};
    return r;
}

trc_record trc_time_ext_nth(const trc_params *p, uint64_t delta, uint64_t i)
{
    trc_record r = trc_time_ext_record(p);
    uint64_t q = ext_q(p, delta);
    if (q > TRC_TIME_EXT_RUN) {
        unsigned j = 64;
        for (uint64_t n = 0; j-- > 0;)
            if (((q >> j) & 1u) && n++ == i)
                break;
        r.b = j;
    }
    return r;
}

trc_record trc_lower(const trc_params *p, const trc_record *r)
{
    trc_record o = *r;
    o.delta = r->delta - ext_q(p, r->delta) * field_max(p->nt);
    if (r->kind == TRC_LOST) {
        o.kind = TRC_OS;
        o.b = r->a;
        o.a = TRC_TYPE_LOST(p);
    }
    return o;
}
