/*
 * unit_check.c - unit tests of checked streams (docs/format.md 4.10) and of
 * CRC-32: the sliced trc_crc32 against the bitwise definition, the worked
 * example of 4.10 byte for byte, seeded streams whose units this file
 * checks with its own bitwise CRC, every single-bit flip and seeded bursts
 * detected, chunked decoding, and the container flag.
 * Prints "ok NAME" / "not ok NAME".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "unit.h"

/* The CRC-32 of format.md 5.1, bit by bit, as its definition reads. */
static uint32_t ref_crc(const uint8_t *b, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

static void test_crc(void)
{
    static uint8_t buf[4096];
    rng_state = 11;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)rnd();
    int ok = trc_crc32(0, (const uint8_t *)"123456789", 9) == 0xcbf43926u;
    for (size_t n = 0; n < 300; n++)
        for (size_t off = 0; off < 9; off++)
            ok &= trc_crc32(0, buf + off, n) == ref_crc(buf + off, n);
    ok &= trc_crc32(trc_crc32(0, buf, 1000), buf + 1000, 3096) ==
          ref_crc(buf, 4096);
    check(ok, "crc32_sliced_equals_bitwise");
}

/* Encodes n seeded trace records, a SYNC after every `every` (0: none),
 * then END; returns the byte count. */
static size_t enc_seeded(const trc_params *p, int chk, uint64_t seed, size_t n,
                         size_t every, uint8_t *out, size_t cap)
{
    trc_encoder e;
    size_t at = 0, used, len;
    trc_encoder_init(&e, p);
    e.check = chk;
    rng_state = seed;
    uint32_t fmax = (uint32_t)((UINT64_C(1) << p->fid_w) - 1u);
    uint32_t vmax = (uint32_t)((UINT64_C(1) << p->val_w) - 1u);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = rnd();
        trc_record r;
        r.delta = x % 5 == 0 ? (x >> 8) % 100000u : (x >> 8) % 16u;
        r.kind = (unsigned)(x >> 40) % 3u;
        r.a = (uint32_t)(x >> 44) % 7u & fmax;
        r.b = 0;
        if (r.kind == TRC_OS) {
            r.a = (uint32_t)(x >> 44) % 5u;
            r.b = (uint32_t)(x >> 50) % 300u & vmax;
        }
        if (at + 64 > cap ||
            trc_encode(&e, &r, 1, &used, out + at, cap - at, &len) != TRC_OK)
            return 0;
        at += len;
        if (every && (i + 1) % every == 0) {
            trc_encode_sync(&e, out + at, cap - at, &len);
            at += len;
        }
    }
    trc_encode_end(&e, out + at, cap - at, &len);
    return at + len;
}

/* Decodes src[0..len) in chunks of `chunk` bytes (0: whole); returns the
 * first error, the records in *n. */
static trc_error dec(const trc_params *p, int chk, const uint8_t *src,
                     size_t len, size_t chunk, trc_record *out, size_t cap,
                     size_t *n)
{
    trc_decoder d;
    trc_decoder_init(&d, p);
    d.check = chk;
    size_t at = 0, used, got, w = chunk;
    *n = 0;
    for (;;) {
        size_t end = w && len - at > w ? at + w : len;
        trc_error err = trc_decode(&d, src + at, end - at, &used, out + *n,
                                   cap - *n, &got, end == len);
        *n += got;
        at += used;
        if (err != TRC_OK)
            return err;
        if (at == len && d.ended)
            return TRC_OK;
        if (end == len && used == 0 && got == 0)
            return TRC_ERR_TRUNCATED;
        w = used == 0 && got == 0 ? 2 * w : chunk; /* a record spans more */
    }
}

/* format.md 4.10: E 2 (delta 0) and END from the reset state, paper
 * parameters: the bits of 4.6, 4 zero bytes, the count word 0x80000001 (the
 * unit began in the reset state; 1 record), then the CRC-32 of the 12; then
 * the END's two closing units, each the count word and its own CRC-32. */
static void test_worked_example(void)
{
    const uint8_t want[32] = {0xB9, 0x5F, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00,
                              0x01, 0x00, 0x00, 0x80, 0xA9, 0xBF, 0x97, 0xCD,
                              0x01, 0x00, 0x00, 0x80, 0x59, 0x3B, 0x40, 0x74,
                              0x01, 0x00, 0x00, 0x80, 0x59, 0x3B, 0x40, 0x74};
    trc_params p = trc_params_paper();
    trc_encoder e;
    uint8_t b[3 * TRC_MAX_RECORD_BYTES];
    size_t at = 0, len, used;
    uint32_t c0;
    trc_encoder_init(&e, &p);
    e.check = 1;
    trc_record r = {0, 2, 0, TRC_ENTRY};
    trc_encode(&e, &r, 1, &used, b, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    trc_encode_end(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    check(at == 32 && !memcmp(b, want, 32), "checked_worked_example_bytes");
    check(ref_crc(want, 12) == 0xCD97BFA9u && ref_crc(want, 16) == 0x2144DF1Cu,
          "checked_worked_example_crc_and_residue");
    check(ref_crc(want + 16, 4) == 0x74403B59u && ref_crc(want + 16, 8) == 0x2144DF1Cu &&
              !memcmp(want + 16, want + 24, 8),
          "checked_worked_example_closing_units");
    trc_record out[4];
    size_t n;
    check(dec(&p, 1, want, 32, 0, out, 4, &n) == TRC_OK && n == 1 &&
              out[0].kind == TRC_ENTRY && out[0].a == 2 && out[0].delta == 0,
          "checked_worked_example_decodes");
    check(dec(&p, 1, want, 16, 0, out, 4, &n) == TRC_ERR_TRUNCATED &&
              dec(&p, 1, want, 24, 0, out, 4, &n) == TRC_ERR_TRUNCATED &&
              dec(&p, 1, want, 28, 0, out, 4, &n) == TRC_ERR_TRUNCATED,
          "checked_end_without_closing_units_truncated");
    uint8_t bad[32];
    memcpy(bad, want, 32);
    bad[14] ^= 0x10;
    check(dec(&p, 1, bad, 32, 0, out, 4, &n) == TRC_ERR_CHECK,
          "checked_worked_example_bad_crc");
    memcpy(bad, want, 32);
    bad[29] ^= 0x01;
    check(dec(&p, 1, bad, 32, 0, out, 4, &n) == TRC_ERR_CHECK,
          "checked_closing_unit_bad_crc");
    /* a closing unit whose CRC checks but whose count is not the END's */
    memcpy(bad, want, 32);
    bad[24] = 2;
    c0 = ref_crc(bad + 24, 4);
    for (int i = 0; i < 4; i++)
        bad[28 + i] = (uint8_t)(c0 >> (8 * i));
    check(dec(&p, 1, bad, 32, 0, out, 4, &n) == TRC_ERR_CHECK,
          "checked_closing_unit_wrong_count");
    /* the search for a unit to resume at finds a closing unit: no records,
     * the count up to the END */
    size_t fa, fe;
    uint64_t frecs;
    uint32_t fcount;
    check(trc_check_find(&p, want, 32, 8, &fa, &fe, &frecs, &fcount) == TRC_OK &&
              fa == 16 && fe == 24 && frecs == 0 && fcount == 1,
          "check_find_closing_unit");
    /* a count that is not the records so far, with a matching CRC: the
     * unit is rejected */
    memcpy(bad, want, 12);
    bad[8] = 5;
    uint32_t c = ref_crc(bad, 12);
    for (int i = 0; i < 4; i++)
        bad[12 + i] = (uint8_t)(c >> (8 * i));
    check(dec(&p, 1, bad, 16, 0, out, 4, &n) == TRC_ERR_CHECK,
          "checked_wrong_count_rejected");
    bad[8] = 1;
    bad[11] = 0; /* bit 31 clear: "not from the reset state" */
    c = ref_crc(bad, 12);
    for (int i = 0; i < 4; i++)
        bad[12 + i] = (uint8_t)(c >> (8 * i));
    check(dec(&p, 1, bad, 16, 0, out, 4, &n) == TRC_ERR_CHECK,
          "checked_wrong_reset_bit_rejected");
    /* unchecked, the same records are the first 4 bytes */
    trc_encoder_init(&e, &p);
    trc_encode(&e, &r, 1, &used, b, TRC_MAX_RECORD_BYTES, &len);
    at = len;
    trc_encode_end(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
    check(at + len == 4 && !memcmp(b, want, 4), "unchecked_stream_unchanged");
}

/* Every unit of a checked stream, walked with an unchecked decoder that
 * stops at each mark: zero bytes to 0 mod 8, the records so far, then the
 * CRC of the unit. */
static int units_ok(const trc_params *p, const uint8_t *s, size_t len,
                    size_t *units)
{
    trc_decoder d;
    trc_decoder_init(&d, p);
    d.stop_at_mark = 1;
    size_t at = 0, u0 = 0, used, got;
    uint64_t recs = 0, syncs;
    int from_reset = 1;
    static trc_record out[4096];
    *units = 0;
    while (at < len) {
        /* the unchecked decoder reads one unit's records, up to its mark */
        syncs = d.st.sync;
        if (trc_decode(&d, s + at, len - at, &used, out, 4096, &got, 0) != TRC_OK ||
            !d.ended)
            return 0;
        at += used;
        while ((at - u0) % 8 != 0) {
            if (at >= len || s[at])
                return 0;
            at++;
        }
        if (at + 8 > len)
            return 0;
        recs += got;
        uint32_t cnt = (uint32_t)s[at] | (uint32_t)s[at + 1] << 8 |
                       (uint32_t)s[at + 2] << 16 | (uint32_t)s[at + 3] << 24;
        if (cnt != ((uint32_t)from_reset << 31 | (uint32_t)recs))
            return 0;
        from_reset = d.st.sync != syncs;
        at += 4;
        uint32_t crc = ref_crc(s + u0, at - u0);
        uint32_t got_crc = (uint32_t)s[at] | (uint32_t)s[at + 1] << 8 |
                           (uint32_t)s[at + 2] << 16 | (uint32_t)s[at + 3] << 24;
        if (crc != got_crc)
            return 0;
        at += 4;
        if (!from_reset) { /* an END: two closing units, the count word and
                              the CRC-32 of its 4 bytes */
            if (at + 16 > len)
                return 0;
            for (int k = 0; k < 2; k++, at += 8) {
                uint32_t cc = ref_crc(s + at, 4);
                uint8_t want[8] = {s[at - 8 * k - 8], s[at - 8 * k - 7],
                                   s[at - 8 * k - 6], s[at - 8 * k - 5],
                                   (uint8_t)cc, (uint8_t)(cc >> 8),
                                   (uint8_t)(cc >> 16), (uint8_t)(cc >> 24)};
                if (memcmp(s + at, want, 8))
                    return 0;
            }
        }
        u0 = at;
        d.ended = 0;
        (*units)++;
    }
    return at == len;
}

static void test_streams(void)
{
    static uint8_t s[1 << 16], u[1 << 16];
    static trc_record a[8192], b[8192];
    const trc_params ps[3] = {trc_params_paper(), trc_params_stack(),
                              trc_params_stack2()};
    const char *names[3] = {"paper", "stack", "stack2"};
    char name[96];
    for (int k = 0; k < 3; k++) {
        const trc_params *p = &ps[k];
        size_t len = enc_seeded(p, 1, 7 + (uint64_t)k, 3000, 97, s, sizeof s);
        size_t ulen = enc_seeded(p, 0, 7 + (uint64_t)k, 3000, 97, u, sizeof u);
        size_t units = 0, n1 = 0, n2 = 0;
        snprintf(name, sizeof name, "checked_units_by_reference_%s", names[k]);
        check(len && units_ok(p, s, len, &units) && units == 3000 / 97 + 1, name);
        int ok = dec(p, 0, u, ulen, 0, a, 8192, &n1) == TRC_OK && n1 == 3000;
        for (size_t chunk = 0; chunk < 40; chunk += 7)
            ok &= dec(p, 1, s, len, chunk, b, 8192, &n2) == TRC_OK && n2 == n1 &&
                  !memcmp(a, b, n1 * sizeof a[0]);
        snprintf(name, sizeof name, "checked_round_trip_chunked_%s", names[k]);
        check(ok, name);
        snprintf(name, sizeof name, "checked_stream_rejected_unchecked_%s",
                 names[k]);
        check(dec(p, 0, s, len, 0, b, 8192, &n2) != TRC_OK, name);

        /* every single-bit flip of the first 300 bytes, and seeded bursts
         * of up to 32 bits anywhere: each gives an error */
        size_t caught = 0, tried = 0;
        for (size_t bit = 0; bit < 8 * 300 && bit < 8 * len; bit++, tried++) {
            s[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            caught += dec(p, 1, s, len, 0, b, 8192, &n2) != TRC_OK;
            s[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
        }
        snprintf(name, sizeof name, "checked_every_bit_flip_caught_%s", names[k]);
        check(caught == tried, name);
        rng_state = 99 + (uint64_t)k;
        caught = tried = 0;
        for (int t = 0; t < 300; t++, tried++) {
            uint64_t x = rnd();
            size_t start = (size_t)(x % (8 * len - 32));
            unsigned blen = 2 + (unsigned)((x >> 40) % 31u);
            uint64_t pat = rnd() | 1u | UINT64_C(1) << (blen - 1);
            for (unsigned i = 0; i < blen; i++)
                if (pat >> i & 1u)
                    s[(start + i) / 8] ^= (uint8_t)(0x80u >> ((start + i) % 8));
            caught += dec(p, 1, s, len, 0, b, 8192, &n2) != TRC_OK;
            for (unsigned i = 0; i < blen; i++)
                if (pat >> i & 1u)
                    s[(start + i) / 8] ^= (uint8_t)(0x80u >> ((start + i) % 8));
        }
        snprintf(name, sizeof name, "checked_every_burst_caught_%s", names[k]);
        check(caught == tried, name);
    }
}

static void test_container_flag(void)
{
    trc_params p = trc_params_paper(), q;
    uint8_t h[TRC_HEADER_BYTES];
    unsigned mode, flags;
    int ok = trc_header_write_ex(&p, 0, TRC_FLAG_CHECKED, h) == TRC_OK &&
             h[13] == 0x20 &&
             trc_header_read_ex(h, sizeof h, &q, &mode, &flags) == TRC_OK &&
             flags == TRC_FLAG_CHECKED;
    check(ok, "container_checked_flag");
    /* bit 4: the first layout of checked streams (no record counts) */
    h[13] = 0x10;
    check(trc_header_read_ex(h, sizeof h, &q, &mode, &flags) == TRC_ERR_HEADER,
          "container_first_checked_layout_rejected");
    check(trc_header_write_ex(&p, 0, TRC_FLAG_CHECKED | TRC_FLAG_FRAMED, h) ==
              TRC_ERR_HEADER,
          "container_checked_and_framed_rejected");
    trc_header_write_ex(&p, 0, TRC_FLAG_CHECKED, h);
    h[13] |= TRC_FLAG_FRAMED;
    check(trc_header_read_ex(h, sizeof h, &q, &mode, &flags) == TRC_ERR_HEADER,
          "container_checked_and_framed_read_rejected");
}

/* trc_writer_set_check: the container's flag, and the same bytes as an
 * encoder with check set. */
static uint8_t wbuf[1 << 16];
static size_t wlen;
static int wput(void *ctx, const uint8_t *b, size_t n)
{
    (void)ctx;
    if (wlen + n > sizeof wbuf)
        return 1;
    memcpy(wbuf + wlen, b, n);
    wlen += n;
    return 0;
}

static void test_writer(void)
{
    static trc_writer w;
    static uint8_t s[1 << 16];
    trc_params p = trc_params_paper();
    int ok = trc_writer_init(&w, &p, TRC_FORM_CONTAINER, 97, wput, NULL) == TRC_OK &&
             trc_writer_set_check(&w) == TRC_OK;
    rng_state = 5;
    for (int i = 0; i < 1000 && ok; i++) {
        trc_record r = {rnd() % 50u, (uint32_t)(rnd() % 9u), 0, (unsigned)(rnd() % 2u)};
        ok &= trc_writer_put(&w, &r) == TRC_OK;
    }
    ok &= trc_writer_finish(&w) == TRC_OK;
    /* the same records through an encoder with check set */
    trc_encoder e;
    trc_encoder_init(&e, &p);
    e.check = 1;
    size_t at = 0, used, len;
    rng_state = 5;
    for (int i = 0; i < 1000; i++) {
        trc_record r = {rnd() % 50u, (uint32_t)(rnd() % 9u), 0, (unsigned)(rnd() % 2u)};
        trc_encode(&e, &r, 1, &used, s + at, sizeof s - at, &len);
        at += len;
        if ((i + 1) % 97 == 0 && i + 1 < 1000) {
            trc_encode_sync(&e, s + at, sizeof s - at, &len);
            at += len;
        }
    }
    trc_encode_end(&e, s + at, sizeof s - at, &len);
    at += len;
    ok &= wlen == TRC_HEADER_BYTES + at && wbuf[13] == TRC_FLAG_CHECKED &&
          !memcmp(wbuf + TRC_HEADER_BYTES, s, at);
    check(ok, "writer_checked_container");
    trc_writer_init(&w, &p, TRC_FORM_TEXT, 0, wput, NULL);
    check(trc_writer_set_check(&w) == TRC_ERR_PARAM, "writer_check_not_for_text");
}

int main(void)
{
    test_crc();
    test_worked_example();
    test_streams();
    test_container_flag();
    test_writer();
    return unit_exit("unit_check");
}
