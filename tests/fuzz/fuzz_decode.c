/*
 * fuzz_decode.c - libFuzzer target for the stream decoder and the container
 * header reader. Byte 0 picks a parameter set (bits 0-2), stack mode (bit 3)
 * and its table bits and stack depth (bits 4-7; in stack mode 2 bit 4 also
 * a time quantum and bit 5 fresh entries); the rest is a .trc file (if it
 * starts with the magic) or a bare stream. The decoder must end in records or
 * an error, never crash, read out of bounds or loop. Decoding in two chunks
 * must give the same records and error as decoding in one. A container of
 * several CPUs (docs/format.md 4.9) goes to the multi-CPU decoder, whose
 * records' CPUs must agree too.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"

static const trc_params sets[8] = {
    {23, 15, 7, 16, 3, 3, 3}, {2, 1, 3, 1, 1, 1, 1},  {16, 8, 4, 8, 2, 2, 2},
    {32, 31, 16, 32, 8, 8, 8}, {20, 12, 5, 9, 5, 4, 3}, {23, 15, 7, 16, 1, 1, 1},
    {8, 4, 3, 4, 4, 3, 4},    {24, 20, 9, 24, 6, 6, 6},
};

/* One call: the decoder of one CPU (cpu == NULL) or of several. */
static trc_error decode_call(void *d, const uint8_t *s, size_t len,
                             size_t *used, trc_record *out, uint8_t *cpu,
                             size_t cap, size_t *got, int final)
{
    if (cpu)
        return trc_mp_decode(d, s, len, used, out, cpu, cap, got, final);
    return trc_decode(d, s, len, used, out, cap, got, final);
}

static size_t decode(void *d, const uint8_t *s, size_t len, size_t split,
                     trc_record *out, uint8_t *cpu, size_t cap, trc_error *err)
{
    size_t used = 0, n = 0, got;
    *err = decode_call(d, s, split, &used, out, cpu, cap, &got, 0);
    n += got;
    if (*err != TRC_OK || n == cap)
        return n;
    size_t pos = used;
    while (pos <= len) {
        *err = decode_call(d, s + pos, len - pos, &used, out + n,
                           cpu ? cpu + n : NULL, cap - n, &got, 1);
        n += got;
        pos += used;
        if (*err != TRC_OK || got == 0 || n == cap)
            break;
    }
    return n;
}

/* Decodes s twice, in one chunk and split in two, from the reset state. */
static size_t decode_twice(const trc_params *p, const uint8_t *s, size_t len,
                           trc_record *a, trc_record *b, uint8_t *ca,
                           uint8_t *cb, size_t cap, size_t *nb,
                           trc_error *ea, trc_error *eb)
{
    static trc_decoder d1;
    static trc_mp_decoder dm;
    void *d = p->cpus > 1 ? (void *)&dm : (void *)&d1;
    if (p->cpus > 1 ? trc_mp_decoder_init(&dm, p) != TRC_OK
                    : trc_decoder_init(&d1, p) != TRC_OK)
        abort(); /* the parameters were checked before */
    size_t na = decode(d, s, len, len, a, p->cpus > 1 ? ca : NULL, cap, ea);
    if (p->cpus > 1)
        trc_mp_decoder_init(&dm, p);
    else
        trc_decoder_init(&d1, p);
    *nb = decode(d, s, len, len / 2, b, p->cpus > 1 ? cb : NULL, cap, eb);
    return na;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    trc_params p = sets[data[0] & 7u];
    if (data[0] & 8u) {
        /* The stack modes; bit 7 picks stack mode 2. */
        p.mode = data[0] & 128u ? TRC_MODE_STACK2 : TRC_MODE_STACK;
        p.sk = 4u + (data[0] >> 4) % 9u;
        p.sd = 1u + (data[0] >> 4) * 4u;
        p.so = p.mode == TRC_MODE_STACK2 ? 4u + (data[0] >> 4) % 7u : 0u;
        /* stack mode 2 with a time quantum of 100 where NT allows one */
        p.tq = p.mode == TRC_MODE_STACK2 && (data[0] & 16u) ? 100u : 1u;
        if (trc_params_check(&p) != TRC_OK)
            p.tq = 1u;
        /* and with fresh entries (bit 5) */
        p.fe = p.mode == TRC_MODE_STACK2 && (data[0] & 32u) ? 1u : 0u;
    }
    const uint8_t *s = data + 1;
    size_t len = size - 1;
    unsigned mode;
    if (trc_header_read(s, len, &p, &mode) == TRC_OK) {
        s += TRC_HEADER_BYTES;
        len -= TRC_HEADER_BYTES;
    }
    if (trc_params_check(&p) != TRC_OK)
        return 0; /* a byte-0 set out of range: nothing to decode */
    enum { CAP = 1 << 14 };
    static trc_record a[CAP], b[CAP];
    static uint8_t ca[CAP], cb[CAP];
    trc_error ea, eb;
    size_t nb, na = decode_twice(&p, s, len, a, b, ca, cb, CAP, &nb, &ea, &eb);
    if (na < CAP && nb < CAP) {
        if (na != nb || ea != eb)
            abort();
        for (size_t i = 0; i < na; i++)
            if (a[i].delta != b[i].delta || a[i].kind != b[i].kind ||
                a[i].a != b[i].a || a[i].b != b[i].b ||
                (p.cpus > 1 && ca[i] != cb[i]))
                abort();
    }
    return 0;
}
