/*
 * unit.h - what the unit test programs (tests/unit_*.c) share: check()
 * prints "ok NAME" or "not ok NAME" and counts the failures, unit_exit()
 * is main's status (non-zero when a check failed, said on stderr), rnd()
 * is the seeded generator (splitmix64: the same seed gives the same trace)
 * and bits_of() writes stream bits as a '0'/'1' string.
 */
#ifndef TRC_UNIT_H
#define TRC_UNIT_H

#include <stdint.h>
#include <stdio.h>

static int failures;

static inline void check(int cond, const char *name)
{
    printf("%s %s\n", cond ? "ok" : "not ok", name);
    failures += !cond;
}

/* main's return value: 0 when every check passed. */
static inline int unit_exit(const char *prog)
{
    if (failures)
        fprintf(stderr, "%s: %d checks failed\n", prog, failures);
    return failures != 0;
}

static uint64_t rng_state;
static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The first nbits bits of a stream, first bit first, as '0'/'1'. */
static inline void bits_of(const uint8_t *b, size_t nbits, char *out)
{
    for (size_t i = 0; i < nbits; i++)
        out[i] = (char)('0' + ((b[i / 8] >> (7 - i % 8)) & 1));
    out[nbits] = '\0';
}

#endif /* TRC_UNIT_H */
