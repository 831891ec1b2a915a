/*
 * trc_dict.h - the dictionary rules shared by encoder and decoder (internal).
 * Lowest matching address wins; misses replace FIFO-fashion; reset state
 * holds value i at entry i.
 */
#ifndef TRC_DICT_H
#define TRC_DICT_H

#include "trc.h"

static inline void trc_dict_reset(trc_dict *d, unsigned nd)
{
    d->size = (1u << nd) - 1u;
    d->wp = 0;
    for (unsigned i = 0; i < d->size; i++)
        d->entry[i] = i;
    for (unsigned i = d->size; i < 8u; i++) /* read by trc_dict_find() */
        d->entry[i] = 0;
}

/* Returns the lowest address holding key, or d->size (the escape) on a miss. */
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
