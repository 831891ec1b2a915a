/*
 * trc_mp.c - streams of several CPUs (docs/format.md 4.9) over the single-CPU
 * coders: one encoder or decoder state per CPU (its dictionaries and its
 * time line), the stream's bit position handed from one to the next, and the
 * CPU switch code written between records of different CPUs.
 */
#include <string.h>

#include "trc.h"
#include "trc_dict.h"

unsigned trc_cpu_count(const trc_params *p)
{
    return p->cpus > 1 ? p->cpus : 1u;
}

/* E: the fewest extra bits with (z values above NT) << E >= CPUs. */
static unsigned ext_bits(const trc_params *p)
{
    unsigned spare = (1u << trc_nz_bits(p->nt)) - 1u - p->nt;
    unsigned e = 0;
    while (spare && (spare << e) < trc_cpu_count(p))
        e++;
    return e;
}

unsigned trc_switch_bits(const trc_params *p)
{
    return trc_nz_bits(p->nt) + ext_bits(p);
}

/* The switch code to CPU k: the number (NT + 1) * 2^E + k in NZ + E bits. */
static uint32_t switch_code(const trc_params *p, unsigned k)
{
    return ((p->nt + 1u) << ext_bits(p)) + k;
}

static trc_params one_cpu(const trc_params *p)
{
    trc_params q = *p;
    q.cpus = 1;
    return q;
}

static void reset_all(trc_dict *f, trc_dict *t, trc_dict *v, const trc_params *p)
{
    trc_dict_reset(f, p->nd_f);
    trc_dict_reset(t, p->nd_t);
    trc_dict_reset(v, p->nd_v);
}

/* ---- Encoder -------------------------------------------------------------- */

trc_error trc_mp_encoder_init(trc_mp_encoder *e, const trc_params *p)
{
    if (trc_params_check(p) != TRC_OK)
        return TRC_ERR_PARAM;
    trc_params q = one_cpu(p);
    e->p = *p;
    e->ncpu = trc_cpu_count(p);
    e->cur = 0;
    e->swbits = trc_switch_bits(p);
    e->switches = 0;
    for (unsigned k = 0; k < e->ncpu; k++)
        trc_encoder_init(&e->cpu[k], &q);
    return TRC_OK;
}

/* Makes k the current CPU: the switch code goes after the pending bits of
 * the current CPU's encoder, whole bytes to dst, the rest to k's encoder.
 * Returns the bytes written (at most 2). */
static size_t switch_to(trc_mp_encoder *e, unsigned k, uint8_t *dst)
{
    trc_encoder *from = &e->cpu[e->cur], *to = &e->cpu[k];
    uint64_t acc = (from->acc << e->swbits) | switch_code(&e->p, k);
    unsigned n = from->nacc + e->swbits;
    size_t len = 0;
    while (n >= 8) {
        dst[len++] = (uint8_t)(acc >> (n - 8u));
        n -= 8;
    }
    to->acc = acc & ((UINT64_C(1) << n) - 1u);
    to->nacc = n;
    from->acc = 0;
    from->nacc = 0;
    e->cur = k;
    e->switches++;
    return len;
}

/* After a SYNC (byte-aligned, so no pending bits): every CPU back to the
 * reset state and CPU 0 current. */
static void sync_all(trc_mp_encoder *e)
{
    for (unsigned k = 0; k < e->ncpu; k++)
        reset_all(&e->cpu[k].fdict, &e->cpu[k].tdict, &e->cpu[k].vdict, &e->p);
    e->cpu[0].acc = e->cpu[e->cur].acc;
    e->cpu[0].nacc = e->cpu[e->cur].nacc;
    if (e->cur != 0)
        e->cpu[e->cur].nacc = 0;
    e->cur = 0;
}

trc_error trc_mp_encode(trc_mp_encoder *e, unsigned cpu, const trc_record *src,
                        size_t n, size_t *n_used, uint8_t *dst, size_t cap,
                        size_t *dst_len)
{
    size_t sw = 0, len = 0;
    *n_used = 0;
    *dst_len = 0;
    if (cap < TRC_MP_MIN_DST)
        return TRC_ERR_DST_SMALL;
    if (cpu >= e->ncpu)
        return TRC_ERR_FIELD;
    if (n && cpu != e->cur) {
        /* a record half done (a huge delta cut by a full dst) belongs to the
         * current CPU, so a switch always comes before a fresh record */
        trc_error err = trc_record_check(&e->p, &src[0]);
        if (err != TRC_OK)
            return err;
        sw = switch_to(e, cpu, dst);
    }
    trc_error err = trc_encode(&e->cpu[cpu], src, n, n_used, dst + sw, cap - sw, &len);
    *dst_len = sw + len;
    return err;
}

trc_error trc_mp_encode_raw(trc_mp_encoder *e, unsigned cpu,
                            const trc_record *raw, uint8_t *dst, size_t cap,
                            size_t *dst_len)
{
    size_t sw = 0, len = 0;
    *dst_len = 0;
    if (cap < TRC_MP_MIN_DST)
        return TRC_ERR_DST_SMALL;
    if (cpu >= e->ncpu)
        return TRC_ERR_FIELD;
    trc_error err = trc_raw_check(&e->p, raw);
    if (err != TRC_OK)
        return err;
    if (cpu != e->cur)
        sw = switch_to(e, cpu, dst);
    err = trc_encode_raw(&e->cpu[cpu], raw, dst + sw, cap - sw, &len);
    *dst_len = sw + len;
    if (err == TRC_OK && raw->kind == TRC_OS && raw->a == TRC_TYPE_SYNC(&e->p))
        sync_all(e);
    return err;
}

trc_error trc_mp_encode_end(trc_mp_encoder *e, uint8_t *dst, size_t cap,
                            size_t *dst_len)
{
    trc_record r = {0, TRC_TYPE_END(&e->p), 0, TRC_OS};
    return trc_mp_encode_raw(e, e->cur, &r, dst, cap, dst_len);
}

trc_error trc_mp_encode_sync(trc_mp_encoder *e, uint8_t *dst, size_t cap,
                             size_t *dst_len)
{
    trc_record r = {0, TRC_TYPE_SYNC(&e->p), 0, TRC_OS};
    return trc_mp_encode_raw(e, e->cur, &r, dst, cap, dst_len);
}

/* ---- Decoder -------------------------------------------------------------- */

trc_error trc_mp_decoder_init(trc_mp_decoder *d, const trc_params *p)
{
    d->p.nt = 0; /* refused: trc_mp_decode refuses a decoder with NT 0 */
    if (trc_params_check(p) != TRC_OK)
        return TRC_ERR_PARAM;
    trc_params q = one_cpu(p);
    d->p = *p;
    d->ncpu = trc_cpu_count(p);
    d->cur = 0;
    d->nz = trc_nz_bits(p->nt);
    d->swbits = trc_switch_bits(p);
    d->bit = 0;
    d->bits_done = 0;
    d->ended = 0;
    d->stop_at_mark = 0;
    d->v1 = 0;
    d->switches = 0;
    for (unsigned k = 0; k < d->ncpu; k++) {
        trc_decoder_init(&d->cpu[k], &q);
        d->cpu[k].stop_at_mark = 1; /* a SYNC changes every CPU's state */
    }
    return TRC_OK;
}

uint64_t trc_mp_decoder_bit_offset(const trc_mp_decoder *d)
{
    return d->bits_done;
}

/* The n bits (n <= 16) at bit offset `at` of src[0..len), MSB first; 0 when
 * the input ends before them. */
static int peek_bits(const uint8_t *src, size_t len, uint64_t at, unsigned n,
                     uint32_t *v)
{
    if (at + n > (uint64_t)len * 8u)
        return 0;
    uint32_t x = 0;
    for (unsigned i = 0; i < n; i++, at++)
        x = (x << 1) | ((src[at >> 3] >> (7u - (at & 7u))) & 1u);
    *v = x;
    return 1;
}

/*
 * The current CPU's decoder takes the records up to the next switch code: it
 * stops there with TRC_ERR_CORRUPT (a z above NT), having decoded nothing of
 * it, and this layer reads the code. Each CPU's decoder stops after END and
 * SYNC too, so that a SYNC resets every CPU here before the next record.
 */
trc_error trc_mp_decode(trc_mp_decoder *d, const uint8_t *src, size_t len,
                        size_t *src_used, trc_record *dst, uint8_t *dst_cpu,
                        size_t cap, size_t *n_out, int final)
{
    if (d->p.nt == 0) { /* its init refused the parameters */
        *src_used = 0;
        *n_out = 0;
        return TRC_ERR_PARAM;
    }
    uint64_t pos = d->bit, end = (uint64_t)len * 8u, first = pos;
    size_t n = 0;
    trc_error err = TRC_OK;
    int starved = 0; /* stopped inside a record: the input ends first */
    uint32_t z;

    while (n < cap && pos < end) {
        if (d->ncpu > 1 && peek_bits(src, len, pos, d->nz, &z) && z > d->p.nt) {
            uint32_t code;
            if (!peek_bits(src, len, pos, d->swbits, &code)) {
                starved = 1; /* more input, or truncated below */
                break;
            }
            uint32_t k = code - switch_code(&d->p, 0);
            if (k >= d->ncpu || k == d->cur) {
                err = TRC_ERR_CORRUPT;
                break;
            }
            d->cur = k;
            d->ended = 0;
            d->switches++;
            pos += d->swbits;
            continue;
        }
        trc_decoder *c = &d->cpu[d->cur];
        uint64_t syncs = c->st.sync, ends = c->st.end;
        size_t used, got;
        c->bit = (unsigned)(pos & 7u);
        c->v1 = d->v1;
        err = trc_decode(c, src + (pos >> 3), len - (size_t)(pos >> 3), &used, dst + n,
                         cap - n, &got, 0);
        if (dst_cpu)
            memset(dst_cpu + n, (int)d->cur, got);
        n += got;
        uint64_t next = ((pos >> 3) + used) * 8u + c->bit;
        int moved = next != pos;
        pos = next;
        if (moved)
            d->ended = c->ended;
        if (c->st.sync != syncs) {
            /* SYNC: every CPU to the reset state, CPU 0 current */
            for (unsigned k = 0; k < d->ncpu; k++)
                reset_all(&d->cpu[k].fdict, &d->cpu[k].tdict, &d->cpu[k].vdict, &d->p);
            d->cur = 0;
        }
        if (err == TRC_ERR_CORRUPT && d->ncpu > 1) {
            if (!peek_bits(src, len, pos, d->nz, &z)) {
                err = TRC_OK; /* the start of a switch code, zero-filled */
                starved = 1;
                break;
            }
            if (z > d->p.nt) {
                err = TRC_OK; /* a switch code: read on the next turn */
                continue;
            }
        }
        if (err != TRC_OK)
            break;
        if (!moved) {
            starved = 1; /* a record cut short by the input's end */
            break;
        }
        if (d->stop_at_mark && (c->st.sync != syncs || c->st.end != ends))
            break;
    }
    if (err == TRC_OK && final && (starved || (pos >= end && !d->ended)))
        err = TRC_ERR_TRUNCATED; /* cut inside a record, or no END/SYNC */

    d->bits_done += pos - first;
    *src_used = (size_t)(pos >> 3);
    d->bit = (unsigned)(pos & 7u);
    *n_out = n;
    return err;
}
