/*
 * trc_dict.h - the dictionary rules shared by encoder and decoder (internal).
 * Lowest matching address wins; misses replace FIFO-fashion; reset state
 * holds value i at entry i.
 */
#ifndef TRC_DICT_H
#define TRC_DICT_H

#include <string.h>

#include "trc.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline void trc_dict_reset(trc_dict *d, unsigned nd)
{
    d->size = (1u << nd) - 1u;
    d->wp = 0;
    for (unsigned i = 0; i < d->size; i++)
        d->entry[i] = i;
    for (unsigned i = d->size; i < 16u; i++) /* read by the finds below */
        d->entry[i] = 0;
}

/* The reset state of a coder's three dictionaries (function, type, value),
 * at its start and at each SYNC. */
static inline void trc_dicts_reset(const trc_params *p, trc_dict *f, trc_dict *t,
                                   trc_dict *v)
{
    trc_dict_reset(f, p->nd_f);
    trc_dict_reset(t, p->nd_t);
    trc_dict_reset(v, p->nd_v);
}

/* trc_dict_find() for a dictionary of size < 8 (ND <= 3): compares all
 * eight entries at once (those past size are zero and masked off) and takes
 * the lowest match, or size, without a branch. */
static inline unsigned trc_dict_find8(const trc_dict *d, uint32_t key,
                                      unsigned size)
{
    const uint32_t *e = d->entry;
#if defined(__SSE2__)
    __m128i k = _mm_set1_epi32((int)key);
    __m128i lo = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)e), k);
    __m128i hi = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(e + 4)), k);
    unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(lo)) |
                 (unsigned)_mm_movemask_ps(_mm_castsi128_ps(hi)) << 4;
#else
    unsigned m = (unsigned)(e[0] == key) | (unsigned)(e[1] == key) << 1 |
                 (unsigned)(e[2] == key) << 2 | (unsigned)(e[3] == key) << 3 |
                 (unsigned)(e[4] == key) << 4 | (unsigned)(e[5] == key) << 5 |
                 (unsigned)(e[6] == key) << 6 | (unsigned)(e[7] == key) << 7;
#endif
    return (unsigned)__builtin_ctz((m & ((1u << size) - 1u)) | 1u << size);
}

/* trc_dict_find8() for a dictionary of size < 16 (ND <= 4): sixteen
 * entries at once (size of them written; the rest are read, masked off). */
static inline unsigned trc_dict_find16(const trc_dict *d, uint32_t key,
                                       unsigned size)
{
    const uint32_t *e = d->entry;
    unsigned m = 0;
#if defined(__SSE2__)
    __m128i k = _mm_set1_epi32((int)key);
    for (int j = 0; j < 4; j++) {
        __m128i q = _mm_loadu_si128((const __m128i *)(e + 4 * j));
        m |= (unsigned)_mm_movemask_ps(
                 _mm_castsi128_ps(_mm_cmpeq_epi32(q, k)))
             << (4 * j);
    }
#else
    for (unsigned j = 0; j < 16u; j++)
        m |= (unsigned)(e[j] == key) << j;
#endif
    return (unsigned)__builtin_ctz((m & ((1u << size) - 1u)) | 1u << size);
}

/* A dictionary of size < 8 held in registers through a run of records:
 * written back to memory, each update (one entry, every hit of the
 * function dictionary) would stall the next search's 16-byte loads, which
 * cannot take their data from a narrower store. */
typedef struct {
#if defined(__SSE2__)
    __m128i lo, hi;
#else
    uint32_t e[8];
#endif
} trc_dict8r;

static inline trc_dict8r trc_dict8r_load(const trc_dict *d)
{
    trc_dict8r v;
#if defined(__SSE2__)
    v.lo = _mm_loadu_si128((const __m128i *)d->entry);
    v.hi = _mm_loadu_si128((const __m128i *)(d->entry + 4));
#else
    memcpy(v.e, d->entry, sizeof v.e);
#endif
    return v;
}

static inline void trc_dict8r_store(const trc_dict8r *v, trc_dict *d)
{
#if defined(__SSE2__)
    _mm_storeu_si128((__m128i *)d->entry, v->lo);
    _mm_storeu_si128((__m128i *)(d->entry + 4), v->hi);
#else
    memcpy(d->entry, v->e, sizeof v->e);
#endif
}

/* As trc_dict_find8(). */
static inline unsigned trc_dict8r_find(const trc_dict8r *v, uint32_t key,
                                       unsigned size)
{
#if defined(__SSE2__)
    __m128i k = _mm_set1_epi32((int)key);
    unsigned m =
        (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v->lo, k))) |
        (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v->hi, k)))
            << 4;
#else
    const uint32_t *e = v->e;
    unsigned m = (unsigned)(e[0] == key) | (unsigned)(e[1] == key) << 1 |
                 (unsigned)(e[2] == key) << 2 | (unsigned)(e[3] == key) << 3 |
                 (unsigned)(e[4] == key) << 4 | (unsigned)(e[5] == key) << 5 |
                 (unsigned)(e[6] == key) << 6 | (unsigned)(e[7] == key) << 7;
#endif
    return (unsigned)__builtin_ctz((m & ((1u << size) - 1u)) | 1u << size);
}

/* Entry j (< 8) := x. */
static inline void trc_dict8r_set(trc_dict8r *v, unsigned j, uint32_t x)
{
#if defined(__SSE2__)
    __m128i jj = _mm_set1_epi32((int)j), xx = _mm_set1_epi32((int)x);
    __m128i mlo = _mm_cmpeq_epi32(_mm_setr_epi32(0, 1, 2, 3), jj);
    __m128i mhi = _mm_cmpeq_epi32(_mm_setr_epi32(4, 5, 6, 7), jj);
    v->lo = _mm_or_si128(_mm_andnot_si128(mlo, v->lo), _mm_and_si128(mlo, xx));
    v->hi = _mm_or_si128(_mm_andnot_si128(mhi, v->hi), _mm_and_si128(mhi, xx));
#else
    v->e[j] = x;
#endif
}

/* Returns the lowest address holding key, or d->size (the escape) on a miss.
 * (Plain compares: inlined into the stack modes' coders, trc_dict_find8()'s
 * vector code costs them more instructions than it saves.) */
static inline unsigned trc_dict_find(const trc_dict *d, uint32_t key)
{
    if (d->size < 8u) { /* ND <= 3: compare all eight at once, no branch */
        const uint32_t *e = d->entry;
        unsigned m = (unsigned)(e[0] == key) | (unsigned)(e[1] == key) << 1 |
                     (unsigned)(e[2] == key) << 2 |
                     (unsigned)(e[3] == key) << 3 |
                     (unsigned)(e[4] == key) << 4 |
                     (unsigned)(e[5] == key) << 5 |
                     (unsigned)(e[6] == key) << 6 |
                     (unsigned)(e[7] == key) << 7;
        m &= (1u << d->size) - 1u;
        return m ? (unsigned)__builtin_ctz(m) : d->size;
    }
    unsigned a = 0;
    while (a < d->size && d->entry[a] != key)
        a++;
    return a;
}

/* Stores key at the write pointer and advances it (a miss). */
static inline void trc_dict_push(trc_dict *d, uint32_t key)
{
    d->entry[d->wp] = key;
    d->wp = d->wp + 1u == d->size ? 0u : d->wp + 1u;
}

#endif /* TRC_DICT_H */
