/*
 * fuzz_framed.c - libFuzzer target for framed containers (docs/format.md
 * 5.1) with a structure-aware mutator: it cuts the input into frames and
 * mutates a payload, a header field (to values near the neighbours', 0,
 * 2^63, 2^64 - 1), or drops, repeats or swaps frames, then recomputes the
 * CRCs so that the reader's deeper checks (sequence, counts, decoding) are
 * reached, not only the CRC check. Byte 0: bits 0-3 = --from-frame, bit 4 =
 * stats instead of decompress, bit 5 = leave one CRC stale.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdlib.h>
#include <string.h>

#include "fuzz_tools.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define HDR 16
#define FH TRC_FRAME_HEADER_BYTES

static uint64_t rng;
static uint64_t rnd(void)
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return rng >> 17;
}

static uint64_t get_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* Frame starts in data[1..size): walks the headers as written. */
static size_t frames(const uint8_t *d, size_t size, size_t *at, size_t max)
{
    size_t n = 0, pos = 1 + HDR;
    while (n < max && pos + FH <= size && !memcmp(d + pos, "\xf7TRF", 4)) {
        at[n++] = pos;
        uint64_t len = get_be(d + pos + 24, 4);
        if (len > size - pos - FH)
            break;
        pos += FH + (size_t)len;
    }
    return n;
}

static void fix_crcs(uint8_t *d, size_t size, int stale)
{
    size_t at[4096], n = frames(d, size, at, 4096);
    size_t skip = stale && n ? (size_t)(rnd() % n) : (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        uint8_t *h = d + at[i];
        uint64_t len = get_be(h + 24, 4);
        if (len <= size - at[i] - FH && i != skip)
            put_be(h + 32, trc_crc32(0, h + FH, (size_t)len), 4);
        if (i != skip)
            put_be(h + 36, trc_crc32(0, h, 36), 4);
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *d, size_t size, size_t max, unsigned seed)
{
    rng = seed;
    size_t at[4096], n = size > 1 + HDR ? frames(d, size, at, 4096) : 0;
    unsigned op = (unsigned)(rnd() % 6);
    if (n == 0 || op == 0) {
        size = LLVMFuzzerMutate(d, size, max);
    } else if (op == 1) { /* a payload */
        size_t k = (size_t)(rnd() % n), p = at[k] + FH;
        size_t len = (size_t)get_be(d + at[k] + 24, 4);
        if (len <= size - p) {
            size_t tail = size - p - len, room = max - (size - len);
            uint8_t *rest = malloc(tail + 1);
            memcpy(rest, d + p + len, tail);
            size_t nl = LLVMFuzzerMutate(d + p, len, room < len * 2 + 64 ? room : len * 2 + 64);
            memcpy(d + p + nl, rest, tail);
            free(rest);
            put_be(d + at[k] + 24, nl, 4);
            size = p + nl + tail;
        }
    } else if (op == 2) { /* a header field */
        size_t k = (size_t)(rnd() % n);
        uint8_t *h = d + at[k];
        static const int off[] = {4, 8, 16, 28}, w[] = {4, 8, 8, 4};
        int f = (int)(rnd() % 4);
        uint64_t v = get_be(h + off[f], w[f]);
        switch (rnd() % 5) {
        case 0: v += 1; break;
        case 1: v -= 1; break;
        case 2: v = 0; break;
        case 3: v = UINT64_C(1) << 63; break;
        default: v = UINT64_MAX; break;
        }
        put_be(h + off[f], v, w[f]);
    } else if (n >= 2) { /* drop, repeat or swap whole frames */
        size_t k = (size_t)(rnd() % (n - 1));
        size_t a = at[k], b = at[k + 1], c = k + 2 < n ? at[k + 2] : size;
        if (op == 3) { /* drop frame k */
            memmove(d + a, d + b, size - b);
            size -= b - a;
        } else if (op == 4 && size + (b - a) <= max) { /* repeat frame k */
            memmove(d + b + (b - a), d + b, size - b);
            memcpy(d + b, d + a, b - a);
            size += b - a;
        } else { /* swap frames k and k + 1 */
            uint8_t *tmp = malloc(c - a);
            memcpy(tmp, d + b, c - b);
            memcpy(tmp + (c - b), d + a, b - a);
            memcpy(d + a, tmp, c - a);
            free(tmp);
        }
    }
    fix_crcs(d, size, size && (d[0] & 32));
    return size;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char in[64], from[8];
    int fd = fuzz_input(data, size, in);
    if (fd < 0)
        return 0;
    snprintf(from, sizeof from, "%u", data[0] & 15u);
    char *argv[8] = {"trc", "decompress", in, "/dev/null", "--from-frame", from};
    int argc = (data[0] & 15) ? 6 : 4;
    if (data[0] & 16) {
        argv[1] = "stats";
        argv[3] = "--json";
        argc = 4;
    }
    trc_cli_main(argc, argv);
    close(fd);
    return 0;
}
