/*
 * unit_model.c - unit tests of the C model: each coder, every dictionary rule
 * of docs/format.md, the paper's worked example, seeded random round trips
 * over a parameter sweep, truncated/corrupt streams, text and bin v1.
 * Expected bit strings are written out by hand from the format rules, never
 * produced by the code under test. Prints "ok NAME" / "not ok NAME".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "unit.h"

/* Encodes raw records then END; returns the byte count. */
static size_t enc_raw(const trc_params *p, const trc_record *r, size_t n,
                      uint8_t *out)
{
    trc_encoder e;
    size_t len, at = 0;
    trc_encoder_init(&e, p);
    for (size_t i = 0; i < n; i++) {
        trc_encode_raw(&e, &r[i], out + at, TRC_MAX_RECORD_BYTES, &len);
        at += len;
    }
    trc_encode_end(&e, out + at, TRC_MAX_RECORD_BYTES, &len);
    return at + len;
}

/* Encodes trace records with an output buffer of cap bytes per call. */
static size_t enc_trace(const trc_params *p, const trc_record *r, size_t n,
                        uint8_t *out, size_t cap, trc_error *err)
{
    trc_encoder e;
    size_t at = 0, i = 0, used, len;
    trc_encoder_init(&e, p);
    *err = TRC_OK;
    while (i < n) {
        *err = trc_encode(&e, r + i, n - i, &used, out + at, cap, &len);
        at += len;
        i += used;
        if (*err != TRC_OK)
            return at;
    }
    trc_encode_end(&e, out + at, TRC_MAX_RECORD_BYTES, &len);
    return at + len;
}

/* Decodes with input chunks of 1..maxchunk bytes and output room of 1..7
 * records; returns the final error, records in out[0..*n). */
static trc_error dec_chunked(const trc_params *p, const uint8_t *s, size_t len,
                             size_t maxchunk, trc_record *out, size_t *n,
                             trc_stats *st)
{
    trc_decoder d;
    size_t pos = 0, avail = 0;
    trc_decoder_init(&d, p);
    *n = 0;
    for (;;) {
        size_t grow = 1 + (size_t)(rnd() % maxchunk);
        avail = avail + grow > len - pos ? len - pos : avail + grow;
        int final = pos + avail == len;
        size_t used, got;
        trc_error e = trc_decode(&d, s + pos, avail, &used, out + *n,
                                 1 + (size_t)(rnd() % 7), &got, final);
        *n += got;
        pos += used;
        avail -= used;
        if (st)
            *st = d.st;
        if (e != TRC_OK)
            return e;
        if (final && got == 0 && used == 0)
            return TRC_OK;
    }
}

/* Field-wise comparison (the struct has padding). */
static int same(const trc_record *a, const trc_record *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].delta != b[i].delta || a[i].kind != b[i].kind ||
            a[i].a != b[i].a || a[i].b != b[i].b)
            return 0;
    return 1;
}

static trc_params P(unsigned nt, unsigned fid, unsigned tw, unsigned vw,
                    unsigned nd)
{
    trc_params p = {nt, fid, tw, vw, nd, nd, nd, TRC_MODE_PAPER, 0, 0, 0, 1, 1, 0};
    return p;
}

static trc_record R(uint64_t delta, unsigned kind, uint32_t a, uint32_t b)
{
    trc_record r = {delta, a, b, kind};
    return r;
}

static void test_params(void)
{
    trc_params p = trc_params_paper();
    check(p.nt == 23 && p.fid_w == 15 && p.type_w == 7 && p.val_w == 16 &&
              p.nd_f == 3 && p.nd_t == 3 && p.nd_v == 3,
          "params_paper_defaults");
    check(trc_params_check(&p) == TRC_OK, "params_paper_valid");
    int nz_ok = trc_nz_bits(23) == 5 && trc_nz_bits(20) == 5 &&
                trc_nz_bits(16) == 5 && trc_nz_bits(32) == 6 &&
                trc_nz_bits(8) == 4 && trc_nz_bits(2) == 2;
    check(nz_ok, "nz_bits_table");
    /* NZ equals the paper's floor(log2(NT-1))+1 when NT is no power of two */
    int paper_ok = 1;
    for (unsigned nt = 3; nt <= 32; nt++) {
        if (!(nt & (nt - 1)))
            continue;
        unsigned fl = 0;
        while ((2u << fl) <= nt - 1)
            fl++;
        paper_ok &= trc_nz_bits(nt) == fl + 1;
    }
    check(paper_ok, "nz_bits_matches_paper_formula");
    trc_params bad[] = {P(1, 15, 7, 16, 3), P(33, 15, 7, 16, 3),
                        P(23, 0, 7, 16, 3), P(23, 32, 7, 16, 3),
                        P(23, 15, 2, 16, 3), P(23, 15, 7, 33, 3),
                        P(23, 15, 7, 16, 0), P(23, 15, 7, 16, 9),
                        P(23, 2, 7, 16, 3)};
    int all_bad = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        all_bad &= trc_params_check(&bad[i]) == TRC_ERR_PARAM;
    check(all_bad, "params_out_of_range_rejected");
    trc_encoder e;
    check(trc_encoder_init(&e, &bad[0]) == TRC_ERR_PARAM, "encoder_rejects_bad_params");
    /* a decoder whose init refused its parameters refuses every call */
    static trc_decoder d;
    static const uint8_t end[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    trc_record out[4];
    size_t used = 9, got = 9;
    trc_error ei = trc_decoder_init(&d, &bad[0]);
    check(ei == TRC_ERR_PARAM &&
              trc_decode(&d, end, sizeof end, &used, out, 4, &got, 1) == TRC_ERR_PARAM &&
              used == 0 && got == 0,
          "decoder_refused_init_refuses_decode");
    check(!strcmp(trc_error_name(TRC_ERR_CORRUPT), "TRC_ERR_CORRUPT") &&
              !strcmp(trc_error_name((trc_error)999), "TRC_ERR_UNKNOWN"),
          "error_names");
}

static void test_timestamp(void)
{
    uint8_t b[64];
    char s[200];
    /* Paper Fig. 4/5: NT = 20, d = 0000000000000 1 011010 -> 01101 011010 */
    trc_params p = P(20, 15, 7, 16, 3);
    trc_record r = R(0x5a, TRC_ENTRY, 0, 0);
    enc_raw(&p, &r, 1, b);
    bits_of(b, 11, s);
    check(!strcmp(s, "01101011010"), "timestamp_paper_fig4_example");
    /* d = 0 writes z = NT (10111 for 23) and nothing more; then kind 0,
     * function hit at address 0 (reset state holds {0,0}) = 000. */
    p = trc_params_paper();
    r = R(0, TRC_ENTRY, 0, 0);
    enc_raw(&p, &r, 1, b);
    bits_of(b, 9, s);
    check(!strcmp(s, "101110000"), "timestamp_zero_delta");
    /* d = 1: z = 22 = 10110, no bits below the leading one */
    r = R(1, TRC_ENTRY, 0, 0);
    enc_raw(&p, &r, 1, b);
    bits_of(b, 9, s);
    check(!strcmp(s, "101100000"), "timestamp_delta_one");
    /* d = 2^23-1: z = 0 = 00000, then 22 ones */
    r = R((1u << 23) - 1, TRC_ENTRY, 0, 0);
    enc_raw(&p, &r, 1, b);
    bits_of(b, 27, s);
    check(!strcmp(s, "000001111111111111111111111"), "timestamp_delta_max");
    /* NT a power of two (16): NZ = 5; d = 0 writes 10000 */
    p = P(16, 15, 7, 16, 3);
    r = R(0, TRC_ENTRY, 0, 0);
    enc_raw(&p, &r, 1, b);
    bits_of(b, 5, s);
    check(!strcmp(s, "10000"), "timestamp_nt_power_of_two");
}

static void test_function_dict(void)
{
    trc_params p = trc_params_paper();
    uint8_t b[256];
    char s[600];
    /* Each record has delta 0 (10111) and kind 0; then the function code. */
    trc_record r[] = {
        R(0, TRC_ENTRY, 2, 0),   /* hit 2 ({0,2}); entry 2 becomes {1,2} */
        R(0, TRC_EXIT, 2, 0),    /* hit 2; back to {0,2} */
        R(0, TRC_EXIT, 3, 0),    /* miss: 111 + 1 000000000000011; {0,3} -> wp 0 */
        R(0, TRC_ENTRY, 3, 0),   /* entries 0 and 3 both {0,3}: lowest = 0 */
        R(0, TRC_ENTRY, 3, 0),   /* entry 0 is {1,3} now; entry 3 still {0,3} */
    };
    size_t n = enc_raw(&p, r, 5, b);
    bits_of(b, 9 * 2 + 25 + 9 * 2, s);
    const char *want = "101110010" "101110010"
                       "101110111" "1000000000000011"
                       "101110000" "101110011";
    check(!strcmp(s, want), "function_hit_flip_miss_lowest_address");
    trc_record out[16];
    size_t got;
    trc_stats st;
    trc_error e = dec_chunked(&p, b, n, 3, out, &got, &st);
    check(e == TRC_OK && got == 5 && same(out, r, 5),
          "function_dict_decodes_back");
    check(st.hits[0] == 4 && st.lookups[0] == 5, "function_dict_hit_count");

    /* FIFO: 8 distinct misses; the 8th lands in entry 0 again (wp mod 7), so
     * after it the 1st key is gone and the 2nd is at address 1. */
    trc_record m[10];
    for (int i = 0; i < 8; i++)
        m[i] = R(0, TRC_ENTRY, 100 + (uint32_t)i, 0);
    m[8] = R(0, TRC_EXIT, 101, 0); /* stored flipped: {1,101} at entry 1 */
    m[9] = R(0, TRC_EXIT, 100, 0); /* evicted: miss */
    n = enc_raw(&p, m, 10, b);
    /* record 8 starts after 8 records of 5+1+3+16 = 25 bits */
    bits_of(b + 0, 8 * 25 + 9 + 9, s);
    check(!strncmp(s + 200, "101110001" "101110111", 18),
          "function_fifo_wraps_modulo_size");
    e = dec_chunked(&p, b, n, 5, out, &got, &st);
    check(e == TRC_OK && got == 10 && same(out, m, 9) &&
              out[9].kind == TRC_EXIT && out[9].a == 100 && st.hits[0] == 1,
          "function_fifo_decodes_back");
}

static void test_os_dict_and_reserved(void)
{
    trc_params p = trc_params_paper();
    uint8_t b[256];
    char s[600];
    trc_record r[] = {
        R(0, TRC_OS, 1, 5),  /* type hit 1 = 001, value hit 5 = 101 */
        R(0, TRC_OS, 1, 5),  /* no flag: same addresses again */
        R(0, TRC_OS, 9, 300),/* misses: 111 0001001, 111 0000000100101100 */
        R(0, TRC_OS, 9, 300),/* type 9 and value 300 at address 0 */
    };
    enc_raw(&p, r, 4, b);
    bits_of(b, 12 + 12 + 6 + 10 + 19 + 12, s);
    check(!strcmp(s, "101111001101" "101111001101"
                     "101111" "1110001001" "1110000000100101100"
                     "101111000000"),
          "os_dict_hits_and_misses");
    /* END: 10111 1, type 126 misses (111 1111110), value 0 hits (000),
     * then zero padding to the byte boundary. 22 bits -> 3 bytes. */
    trc_encoder e;
    size_t len;
    trc_encoder_init(&e, &p);
    trc_encode_end(&e, b, TRC_MAX_RECORD_BYTES, &len);
    bits_of(b, 24, s);
    check(len == 3 && !strcmp(s, "101111" "1111111110" "000" "00000"),
          "end_record_and_padding");
    /* SYNC resets the dictionaries: the same miss is a miss again after it */
    trc_record m = R(0, TRC_ENTRY, 77, 0);
    size_t at = 0;
    trc_encoder_init(&e, &p);
    trc_encode_raw(&e, &m, b, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    trc_encode_sync(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    trc_encode_raw(&e, &m, b + at, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    trc_encode_end(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
    at += len;
    trc_record out[4];
    size_t got;
    trc_stats st;
    trc_error err = dec_chunked(&p, b, at, 2, out, &got, &st);
    check(err == TRC_OK && got == 2 && st.sync == 1 && st.end == 1 &&
              st.hits[0] == 0 && st.lookups[0] == 2,
          "sync_resets_dictionaries");
    /* Without SYNC the second one hits (and was stored with exit flipped). */
    trc_record two[2] = {m, R(0, TRC_EXIT, 77, 0)};
    at = enc_raw(&p, two, 2, b);
    err = dec_chunked(&p, b, at, 2, out, &got, &st);
    check(err == TRC_OK && got == 2 && st.hits[0] == 1, "miss_stores_flipped_flag");
}

static void test_time_ext(void)
{
    trc_params p = P(4, 8, 3, 4, 2); /* max delta 15 */
    check(trc_time_ext_count(&p, 15) == 0 && trc_time_ext_count(&p, 16) == 1 &&
              trc_time_ext_count(&p, 30) == 1 && trc_time_ext_count(&p, 31) == 2 &&
              trc_time_ext_count(&p, 0) == 0,
          "time_ext_count_rule");
    trc_record r = R(40, TRC_EXIT, 200, 0);
    trc_record low = trc_lower(&p, &r);
    trc_record ext = trc_time_ext_record(&p);
    check(low.delta == 10 && ext.delta == 15 && ext.a == 7 && ext.b == 0 &&
              ext.kind == TRC_OS,
          "time_ext_lowering_40_is_15_15_10");
    trc_record l = R(3, TRC_LOST, 9, 0);
    low = trc_lower(&p, &l);
    check(low.kind == TRC_OS && low.a == 4 && low.b == 9, "lost_lowers_to_type_lost");
    uint8_t b[256];
    trc_error err;
    trc_record in[3] = {r, R(0, TRC_ENTRY, 1, 0), l};
    size_t n = enc_trace(&p, in, 3, b, TRC_MAX_RECORD_BYTES, &err);
    trc_record out[4];
    size_t got;
    trc_stats st;
    err = dec_chunked(&p, b, n, 1, out, &got, &st);
    check(err == TRC_OK && got == 3 && same(out, in, 3) &&
              st.time_ext == 2 && st.lost == 1,
          "time_ext_and_lost_round_trip");

    /* Long gaps (format.md 4.2): q = (D - 1) / 15 above 64 is written as one
     * TIME_EXT of value j per set bit j of q, highest first. */
    uint64_t d70 = 70 * 15 + 3; /* q = 70 = 1000110: values 6, 2, 1 */
    trc_record e0 = trc_time_ext_nth(&p, d70, 0), e2 = trc_time_ext_nth(&p, d70, 2);
    check(trc_time_ext_count(&p, 64 * 15 + 1) == 64 &&
              trc_time_ext_nth(&p, 64 * 15 + 1, 63).b == 0 &&
              trc_time_ext_count(&p, d70) == 3 && e0.b == 6 && e0.delta == 15 &&
              trc_time_ext_nth(&p, d70, 1).b == 2 && e2.b == 1 &&
              trc_lower(&p, &(trc_record){d70, 1, 0, TRC_ENTRY}).delta == 3,
          "time_ext_long_gap_rule");
    /* VAL_W 4 allows values up to 15: q < 2^16; VAL_W 16 any 64-bit delta */
    check(trc_record_check(&p, &(trc_record){15 * 65535 + 1, 1, 0, TRC_ENTRY}) ==
              TRC_OK &&
              trc_record_check(&p, &(trc_record){15 * 65536 + 1, 1, 0, TRC_ENTRY}) ==
              TRC_ERR_FIELD,
          "time_ext_long_gap_limit_small_val_w");
    trc_params pp = trc_params_paper(), sp = trc_params_stack();
    trc_params pn = P(2, 4, 3, 16, 1);
    const trc_params *ps[3] = {&pp, &sp, &pn};
    int ok = 1;
    for (int k = 0; k < 3; k++) {
        trc_record big[4] = {R(UINT64_MAX, TRC_ENTRY, 1, 0),
                             R(UINT64_C(1) << 63, TRC_EXIT, 1, 0),
                             R(0, TRC_OS, 1, 2),
                             R(UINT64_MAX - 12345, TRC_LOST, 3, 0)};
        uint8_t bb[4096];
        trc_record back[8];
        size_t nb = enc_trace(ps[k], big, 4, bb, TRC_MAX_RECORD_BYTES, &err);
        ok &= err == TRC_OK && nb < 4 * 65 * TRC_MAX_RECORD_BYTES;
        ok &= dec_chunked(ps[k], bb, nb, 3, back, &got, &st) == TRC_OK &&
              got == 4 && same(back, big, 4);
    }
    check(ok, "time_ext_long_gap_round_trip_2_64");
}

static void test_checks(void)
{
    trc_params p = trc_params_paper();
    trc_record bad_id = R(0, TRC_ENTRY, 1u << 15, 0);
    trc_record reserved = R(0, TRC_OS, 124, 0);
    trc_record bad_val = R(0, TRC_OS, 3, 1u << 16);
    trc_record bad_kind = R(0, 7, 0, 0);
    check(trc_record_check(&p, &bad_id) == TRC_ERR_FIELD &&
              trc_record_check(&p, &reserved) == TRC_ERR_RESERVED &&
              trc_record_check(&p, &bad_val) == TRC_ERR_FIELD &&
              trc_record_check(&p, &bad_kind) == TRC_ERR_KIND,
          "record_check_rejects");
    trc_record raw_big = R(1u << 23, TRC_ENTRY, 0, 0);
    check(trc_raw_check(&p, &raw_big) == TRC_ERR_FIELD &&
              trc_raw_check(&p, &reserved) == TRC_OK,
          "raw_check_delta_and_reserved");
    uint8_t b[64];
    size_t used, len;
    trc_encoder e;
    trc_encoder_init(&e, &p);
    trc_record two[2] = {R(5, TRC_ENTRY, 1, 0), reserved};
    trc_error err = trc_encode(&e, two, 2, &used, b, sizeof b, &len);
    check(err == TRC_ERR_RESERVED && used == 1, "encode_stops_at_bad_record");
    check(trc_encode(&e, two, 1, &used, b, 8, &len) == TRC_ERR_DST_SMALL,
          "encode_rejects_small_buffer");
}

static void test_corrupt(void)
{
    trc_params p = trc_params_paper();
    trc_record out[64];
    size_t got;
    /* z = 24 (11000) > NT = 23 */
    uint8_t z_bad[] = {0xc0, 0, 0, 0};
    check(dec_chunked(&p, z_bad, 4, 4, out, &got, NULL) == TRC_ERR_CORRUPT,
          "corrupt_leading_zero_count");
    /* END with a set padding bit: 101111 1111111110 000 00001 */
    uint8_t pad_bad[] = {0xbf, 0xfe, 0x01};
    check(dec_chunked(&p, pad_bad, 3, 4, out, &got, NULL) == TRC_ERR_PADDING,
          "corrupt_padding");
    /* TIME_EXT (type 127 miss) with value 1 (hit 001): 101111 1111111111 001 */
    uint8_t ext_bad[] = {0xbf, 0xff, 0xc8, 0};
    trc_decoder d1;
    size_t used1;
    trc_decoder_init(&d1, &p);
    d1.v1 = 1; /* container version 1: only value 0 */
    check(trc_decode(&d1, ext_bad, 4, &used1, out, 64, &got, 1) ==
              TRC_ERR_CORRUPT,
          "corrupt_time_ext_value_in_version_1");
    /* END (type 126 miss) with value 1: 101111 1111111110 001 */
    uint8_t end_bad[] = {0xbf, 0xfe, 0x20, 0};
    check(dec_chunked(&p, end_bad, 4, 4, out, &got, NULL) == TRC_ERR_CORRUPT,
          "corrupt_end_value");
    check(dec_chunked(&p, ext_bad, 0, 4, out, &got, NULL) == TRC_ERR_TRUNCATED,
          "empty_stream_is_truncated");

    /* Every strict prefix of a stream is truncated, and what it yields is a
     * prefix of the trace. */
    trc_record in[40];
    rng_state = 7;
    for (int i = 0; i < 40; i++)
        in[i] = R(rnd() % 5000, (unsigned)(rnd() % 2), (uint32_t)(rnd() % 12), 0);
    uint8_t b[2048];
    trc_error err;
    size_t n = enc_trace(&p, in, 40, b, 64, &err);
    int all = 1;
    for (size_t cut = 0; cut < n; cut++) {
        err = dec_chunked(&p, b, cut, 9, out, &got, NULL);
        all &= err == TRC_ERR_TRUNCATED && got <= 40 &&
               same(out, in, got);
    }
    check(all, "every_prefix_truncated_and_exact");
    err = dec_chunked(&p, b, n, 9, out, &got, NULL);
    check(err == TRC_OK && got == 40 && same(out, in, 40),
          "full_stream_decodes");

    /* Random bytes under random parameters: an error or records, no crash. */
    trc_record many[4096];
    uint8_t junk[1024];
    int survived = 1;
    for (int t = 0; t < 2000; t++) {
        for (size_t i = 0; i < sizeof junk; i++)
            junk[i] = (uint8_t)rnd();
        trc_params q = P(2 + (unsigned)(rnd() % 31), 1 + (unsigned)(rnd() % 31),
                         3 + (unsigned)(rnd() % 14), 1 + (unsigned)(rnd() % 32),
                         1);
        q.nd_f = 1 + (unsigned)(rnd() % (q.fid_w < 8 ? q.fid_w : 8));
        q.nd_t = 1 + (unsigned)(rnd() % (q.type_w < 8 ? q.type_w : 8));
        q.nd_v = 1 + (unsigned)(rnd() % (q.val_w < 8 ? q.val_w : 8));
        size_t len = 1 + (size_t)(rnd() % sizeof junk);
        trc_decoder d;
        size_t used;
        trc_decoder_init(&d, &q);
        err = trc_decode(&d, junk, len, &used, many, 4096, &got, 1);
        survived &= used <= len && got <= 4096;
    }
    check(survived, "random_bytes_never_crash");
}

/* A random trace with the shapes real traces have: deltas of 0, small,
 * around 2^NT and far beyond; ids that repeat; OS and LOST records. */
static void random_trace(const trc_params *p, trc_record *r, size_t n)
{
    uint64_t dmax = (UINT64_C(1) << p->nt) - 1;
    uint32_t fmask = (uint32_t)((UINT64_C(1) << p->fid_w) - 1);
    uint32_t vmask = (uint32_t)((UINT64_C(1) << p->val_w) - 1);
    uint32_t ntypes = (1u << p->type_w) - 4;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned)(rnd() % 100);
        uint64_t d = c < 10 ? 0 : c < 80 ? rnd() % 64
                   : c < 90 ? dmax - 2 + rnd() % 5
                   : c < 97 ? rnd() % (dmax * 3 + 1) : dmax * (1 + rnd() % 40);
        unsigned k = (unsigned)(rnd() % 100);
        uint32_t hot = (uint32_t)(rnd() % 10);
        if (k < 80)
            r[i] = R(d, k & 1 ? TRC_EXIT : TRC_ENTRY,
                     (k < 60 ? hot : (uint32_t)rnd()) & fmask, 0);
        else if (k < 97)
            r[i] = R(d, TRC_OS, (uint32_t)(rnd() % (k < 90 ? 3 : ntypes)),
                     (k < 90 ? hot : (uint32_t)rnd()) & vmask);
        else
            r[i] = R(d, TRC_LOST, (uint32_t)rnd() & vmask, 0);
        if (k == 99)
            r[i].delta = 0;
    }
}

/* Encodes a random trace of N records (seeded with rng), with a small output
 * buffer unless seed is 1, decodes it in chunks (1 byte when seed is 2), and
 * says whether the records came back. loop: repeat a 40-record pattern from
 * seed 3 on, so that stack mode's predictions hit. */
enum { RT_N = 3000 };
static int round_trip_ok(const trc_params *p, unsigned seed, unsigned rng,
                         int loop)
{
    static trc_record in[RT_N], out[RT_N + 8];
    static uint8_t b[RT_N * 40];
    rng_state = rng;
    random_trace(p, in, RT_N);
    if (loop && seed >= 3)
        for (size_t i = 40; i < RT_N; i++)
            in[i] = in[i % 40];
    trc_error err;
    size_t cap = seed == 1 ? sizeof b : TRC_MAX_RECORD_BYTES + rnd() % 50;
    size_t n = enc_trace(p, in, RT_N, b, cap, &err);
    size_t got;
    err = dec_chunked(p, b, n, seed == 2 ? 1 : 200, out, &got, NULL);
    return err == TRC_OK && got == RT_N && same(in, out, RT_N);
}

static void test_random_round_trips(void)
{
    static const unsigned sets[][5] = {
        {23, 15, 7, 16, 3}, {2, 1, 3, 1, 1},   {8, 8, 4, 8, 2},
        {16, 15, 7, 16, 4}, {32, 31, 16, 32, 8}, {23, 8, 7, 16, 3},
        {20, 12, 5, 9, 5},  {17, 20, 9, 24, 6},  {24, 15, 7, 16, 1},
    };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        trc_params p = P(sets[s][0], sets[s][1], sets[s][2], sets[s][3],
                         sets[s][4]);
        int ok = 1;
        for (unsigned seed = 1; seed <= 4; seed++)
            ok &= round_trip_ok(&p, seed, seed * 1000 + (unsigned)s, 0);
        char name[96];
        snprintf(name, sizeof name, "round_trip_random_nt%u_fid%u_t%u_v%u_nd%u",
                 sets[s][0], sets[s][1], sets[s][2], sets[s][3], sets[s][4]);
        check(ok, name);
    }
}

/* Decodes s[0..len) in one call (where the decoder's runs take the common
 * records) into whole, and again one byte a call (which never takes a run)
 * into bytewise; says whether both gave n records and no error, the same
 * records and the same trc_stats, which *st gets. */
static int whole_same_as_bytewise(const trc_params *p, const uint8_t *s,
                                  size_t len, trc_record *whole,
                                  trc_record *bytewise, size_t n, trc_stats *st)
{
    static trc_decoder d1, d2;
    size_t used, got1 = 0, got2 = 0, pos = 0;
    trc_decoder_init(&d1, p);
    trc_error err = trc_decode(&d1, s, len, &used, whole, n + 8, &got1, 1);
    int ok = err == TRC_OK && got1 == n;
    trc_decoder_init(&d2, p);
    for (size_t avail = 1; err == TRC_OK && pos < len;) {
        size_t got;
        int final = pos + avail == len;
        err = trc_decode(&d2, s + pos, avail, &used, bytewise + got2,
                         n + 8 - got2, &got, final);
        got2 += got;
        pos += used;
        if (final && !used && !got)
            break; /* no progress on the last bytes (dst full): fails below */
        avail = used ? 1 : avail + 1;
        avail = avail < len - pos ? avail : len - pos;
    }
    *st = d1.st;
    return ok && err == TRC_OK && got2 == n && same(whole, bytewise, n) &&
           memcmp(&d1.st, &d2.st, sizeof d1.st) == 0;
}

/* The decoder takes paper mode's common records many at a time when at
 * least TRC_MAX_RECORD_BYTES of input are left, and one at a time
 * otherwise. Fed one byte per call it only ever takes the second path:
 * records and every figure of trc_stats must come out the same either way,
 * for the paper's widths (the run with constant widths), NT 12 and the
 * 16/10/5/9 set (the run with the stream's widths), and two sets whose
 * records do not fit the run's 57 bits. */
static void test_paper_run_same_as_single(void)
{
    static const unsigned sets[][5] = {
        {23, 15, 7, 16, 3}, {12, 15, 7, 16, 3}, {23, 15, 7, 16, 4},
        {16, 10, 5, 9, 2},  {32, 31, 16, 32, 8},
    };
    enum { N = 1000 }; /* one byte a call copies the decoder per record */
    static trc_record in[N], whole[N + 8], bytewise[N + 8];
    static uint8_t b[N * 40];
    int ok = 1;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        trc_params p = P(sets[s][0], sets[s][1], sets[s][2], sets[s][3],
                         sets[s][4]);
        rng_state = 77 + (unsigned)s;
        random_trace(&p, in, N);
        trc_error err;
        size_t n = enc_trace(&p, in, N, b, sizeof b, &err);
        trc_stats st;
        ok &= err == TRC_OK &&
              whole_same_as_bytewise(&p, b, n, whole, bytewise, N, &st) &&
              same(in, whole, N) && st.function + st.os > N / 2;
    }
    check(ok, "paper_run_same_as_single_records");
}

/* A trace that stack mode predicts well, with the records that leave its
 * run: calls and returns of a seeded program (a repeated call pattern with
 * random detours, so the stack both fills and empties), deltas that repeat,
 * step by one, change length or are 0, OS records of repeated types, LOST
 * records, and now and then a delta that needs TIME_EXT records; two
 * thirds of the function records take the delta of their function after
 * the previous record's id, which steps by one up or down or stays (stack
 * mode 2's NEAR phases). */
static void call_trace(const trc_params *p, trc_record *r, size_t n)
{
    uint64_t dmax = (UINT64_C(1) << p->nt) - 1;
    uint32_t stack[40], depth = 0, fmask = (1u << p->fid_w) - 1u;
    uint64_t d = 5, fdelta[64];
    for (unsigned k = 0; k < 64u; k++)
        fdelta[k] = 20u + 7u * k;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned)(rnd() % 1000);
        d = c < 500 ? d : c < 700 ? d + (rnd() & 1) * 2 - 1 : c < 990 ? rnd() % 3000
            : c < 995 ? 0 : dmax + rnd() % (dmax * 3);
        d = d > dmax && c < 995 ? 7 : d;
        unsigned k = (unsigned)(rnd() % 100);
        uint32_t f = (uint32_t)(i % 23 < 20 ? i % 23 : rnd() & fmask);
        if (k < 45 && depth < 40) {
            stack[depth++] = f;
            r[i] = R(d, TRC_ENTRY, f, 0);
        } else if (k < 90 && depth) {
            r[i] = R(d, TRC_EXIT, stack[--depth], 0);
        } else if (k < 93) {
            r[i] = R(d, TRC_EXIT, f, 0); /* not the top's */
        } else if (k < 99) {
            r[i] = R(d, TRC_OS, k % 3, (uint32_t)(rnd() % 4));
        } else {
            r[i] = R(d, TRC_LOST, (uint32_t)(rnd() % 9), 0);
        }
        /* Two thirds of the function records: the delta of this function
         * after the previous id, one up or down from its last or the same
         * (stack mode 2's NEAR phases). */
        if (r[i].kind <= TRC_EXIT && r[i].delta <= dmax && rnd() % 3 != 0) {
            uint64_t *fd = &fdelta[(r[i].a * 7u + (i ? r[i - 1].a : 0u)) % 64u];
            *fd = *fd < 2 ? 2 : *fd + (rnd() % 3) - 1;
            r[i].delta = *fd;
        }
    }
}

/* The three stack-mode coders with runs of their own: stack mode, stack
 * mode 2 without and with fresh entries. */
static const char *const run_names[3] = {"stack", "stack2_no_fresh", "stack2"};

/* Encoders and decoders take stack mode's common records in a run of their
 * own for the modes' default parameters (see run_kind() in model/). The
 * reference is the record-at-a-time path: trc_encode_raw() of each lowered
 * record, and trc_decode() fed one byte a call. Streams, records and every
 * figure of trc_stats must be the same, with a roomy output buffer and
 * with one of a few records a call. */
static void test_stack_run_same_as_single(void)
{
    enum { N = 4000 };
    static trc_record in[N], whole[N + 8], bytewise[N + 8];
    static uint8_t a[N * 40], b[N * 40];
    /* stack mode, stack mode 2 without and with fresh entries */
    trc_params ps[3] = {trc_params_stack(), trc_params_stack2(), trc_params_stack2()};
    ps[1].fe = 0;
    ps[2].fe = 1;
    for (int k = 0; k < 3; k++) {
        const trc_params *p = &ps[k];
        int ok = 1;
        for (unsigned seed = 1; seed <= 3; seed++) {
            rng_state = 300 + seed;
            call_trace(p, in, N);
            trc_encoder e;
            size_t len, at = 0;
            trc_encoder_init(&e, p);
            for (size_t i = 0; i < N; i++) {
                uint64_t q = trc_time_ext_count(p, in[i].delta);
                for (uint64_t j = 0; j < q; j++) {
                    trc_record x = trc_time_ext_nth(p, in[i].delta, j);
                    trc_encode_raw(&e, &x, a + at, TRC_MAX_RECORD_BYTES, &len);
                    at += len;
                }
                trc_record low = trc_lower(p, &in[i]);
                trc_encode_raw(&e, &low, a + at, TRC_MAX_RECORD_BYTES, &len);
                at += len;
            }
            trc_encode_end(&e, a + at, TRC_MAX_RECORD_BYTES, &len);
            at += len;
            trc_error err;
            size_t cap = seed == 1 ? sizeof b : TRC_MAX_RECORD_BYTES + 20 * seed;
            size_t n = enc_trace(p, in, N, b, cap, &err);
            ok &= err == TRC_OK && n == at && memcmp(a, b, n) == 0;
            trc_stats st;
            ok &= whole_same_as_bytewise(p, b, n, whole, bytewise, N, &st) &&
                  same(in, whole, N) && st.predicted > N / 5 &&
                  st.top_exits > 0 && st.time_ext > 0 && st.lost > 0;
        }
        char name[64];
        snprintf(name, sizeof name, "%s_run_same_as_single_records", run_names[k]);
        check(ok, name);
    }
}

/* A SYNC every 37 (or 3) records: each one's reset of the predictor waits for the
 * next record, and near the end of each call's input the decoder rolls
 * back to where the last SAFE_BITS begin, logging the table entries the
 * records change (or, when a SYNC's reset comes first, keeping the tables
 * whole). Two traces: call_trace() with an OS record every fifth, and a
 * loop of seven records whose OS record reads, in stack mode, an entry
 * that it does not write (the next record does), and is now and then the
 * last before a SYNC. Decoded in one call, one byte a call, in chunks of
 * up to 97 bytes and in chunks of fixed sizes with room for every record
 * (so that each call ends in a cut record), the records and every figure
 * must be the same. */
static void test_stack_sync_rollback(void)
{
    enum { N = 3000 };
    static trc_record in[N], whole[N + 8], bytewise[N + 8], chunked[N + 8];
    static uint8_t b[N * 40];
    trc_params ps[3] = {trc_params_stack(), trc_params_stack2(), trc_params_stack2()};
    ps[1].fe = 0;
    ps[2].fe = 1;
    /* k 0..7: stack, stack2 in turn; 8..11: stack2 with fresh entries */
    for (int k = 0; k < 12; k++) {
        int v = k < 8 ? k & 1 : 2, calls = k < 8 ? (k & 3) < 2 : !(k & 1);
        const trc_params *p = &ps[v];
        size_t every = k < 4 || k == 8 || k == 9 ? 37 : 3; /* 3: several SYNCs in SAFE_BITS */
        rng_state = 900 + (unsigned)k;
        if (calls) {
            call_trace(p, in, N);
            for (size_t i = 2; i < N; i += 5)
                if (in[i].delta <= 1000)
                    in[i] = R(in[i].delta, TRC_OS, (uint32_t)(i % 3), (uint32_t)(i % 4));
        } else {
            static const unsigned kind[7] = {TRC_ENTRY, TRC_ENTRY, TRC_EXIT, TRC_EXIT,
                                             TRC_ENTRY, TRC_EXIT, TRC_OS};
            static const uint32_t id[7] = {1, 2, 2, 1, 3, 3, 1};
            for (size_t i = 0; i < N; i++)
                in[i] = R(5u + i % 7u, kind[i % 7], id[i % 7], kind[i % 7] == TRC_OS ? 2u : 0u);
        }
        trc_encoder e;
        size_t at = 0, len, used;
        trc_encoder_init(&e, p);
        int ok = 1;
        for (size_t i = 0; i < N && ok; i += every) {
            size_t m = N - i < every ? N - i : every;
            ok &= trc_encode(&e, in + i, m, &used, b + at, sizeof b - at, &len) == TRC_OK &&
                  used == m;
            at += len;
            ok &= trc_encode_sync(&e, b + at, sizeof b - at, &len) == TRC_OK;
            at += len;
        }
        trc_stats st, st3;
        size_t got;
        ok &= whole_same_as_bytewise(p, b, at, whole, bytewise, N, &st) &&
              same(in, whole, N) && st.sync == (N + every - 1) / every &&
              (every < 37 || st.predicted > N / (p->fe ? 200 : 50));
        ok &= dec_chunked(p, b, at, 97, chunked, &got, &st3) == TRC_OK && got == N &&
              same(in, chunked, N) && !memcmp(&st, &st3, sizeof st);
        for (size_t step = 23; step <= 160; step += 19) {
            static trc_decoder d;
            size_t pos = 0, avail = 0, n = 0;
            trc_error err = TRC_OK;
            trc_decoder_init(&d, p);
            while (err == TRC_OK && pos < at && n < N + 8) {
                avail = avail + step < at - pos ? avail + step : at - pos;
                int final = pos + avail == at;
                err = trc_decode(&d, b + pos, avail, &used, chunked + n, N + 8 - n, &got,
                                 final);
                n += got;
                pos += used;
                avail -= used;
                if (final && !got && !used)
                    break;
            }
            ok &= err == TRC_OK && n == N && same(in, chunked, N) &&
                  !memcmp(&st, &d.st, sizeof st);
        }
        char name[64];
        snprintf(name, sizeof name, "%s_sync_rollback_same_%s_every%zu",
                 v == 2 ? "stack2_fresh" : v ? "stack2" : "stack", calls ? "calls" : "loop",
                 every);
        check(ok, name);
    }
}

/* The runs stop at a record that trc_record_check() rejects (a function
 * record with b set, or an id wider than FID_W), and trc_encode() reports
 * it at that record, as the record-at-a-time path does. */
static void test_stack_run_rejects(void)
{
    enum { N = 40, BAD = 30 };
    static uint8_t out[N * 40];
    trc_params ps[3] = {trc_params_stack(), trc_params_stack2(), trc_params_stack2()};
    ps[1].fe = 0;
    ps[2].fe = 1;
    for (int k = 0; k < 3; k++) {
        const trc_params *p = &ps[k];
        int ok = 1;
        for (int bad = 0; bad < 2; bad++) {
            trc_record in[N];
            for (unsigned i = 0; i < N; i++) {
                trc_record r = {.delta = 5u + i % 3u, .a = i / 2u % 7u,
                                .b = 0, .kind = i % 2u};
                in[i] = r;
            }
            if (bad)
                in[BAD].a = 1u << p->fid_w;
            else
                in[BAD].b = 1;
            trc_encoder e;
            size_t used, len;
            trc_encoder_init(&e, p);
            trc_error err = trc_encode(&e, in, N, &used, out, sizeof out, &len);
            ok &= err != TRC_OK && err == trc_record_check(p, &in[BAD]) &&
                  used == BAD;
        }
        char name[64];
        snprintf(name, sizeof name, "%s_run_rejects_bad_records", run_names[k]);
        check(ok, name);
    }
}

static void test_text(void)
{
    trc_params p = trc_params_paper();
    trc_record r;
    int is;
    size_t col;
    const char *l1 = "  12\tE  0x1f  \r";
    check(trc_text_parse(&p, l1, strlen(l1), &r, &is, &col) == TRC_OK && is &&
              r.delta == 12 && r.kind == TRC_ENTRY && r.a == 31,
          "text_parse_blanks_hex_crlf");
    check(trc_text_parse(&p, "# hi", 4, &r, &is, &col) == TRC_OK && !is &&
              trc_text_parse(&p, "  ", 2, &r, &is, &col) == TRC_OK && !is,
          "text_comment_and_blank");
    const char *l2 = "18446744073709551615 O 123 65535";
    check(trc_text_parse(&p, l2, strlen(l2), &r, &is, &col) == TRC_OK &&
              r.delta == UINT64_MAX && r.a == 123 && r.b == 65535,
          "text_limits_accepted");
    struct { const char *line; trc_error err; size_t col; } bad[] = {
        {"18446744073709551616 E 1", TRC_ERR_FIELD, 1},
        {"5 Q 1", TRC_ERR_SYNTAX, 3},
        {"5 EX 1", TRC_ERR_SYNTAX, 3},
        {"5 E", TRC_ERR_SYNTAX, 4},
        {"5 E 1 2", TRC_ERR_SYNTAX, 7},
        {"5 O 1", TRC_ERR_SYNTAX, 6},
        {"5 E 32768", TRC_ERR_FIELD, 5},
        {"5 O 124 0", TRC_ERR_RESERVED, 5},
        {"5 O 3 65536", TRC_ERR_FIELD, 7},
        {"5 L 65536", TRC_ERR_FIELD, 5},
        {"-5 E 1", TRC_ERR_SYNTAX, 1},
        {"5 E 1x", TRC_ERR_SYNTAX, 6},
    };
    int all = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trc_error e = trc_text_parse(&p, bad[i].line, strlen(bad[i].line), &r,
                                     &is, &col);
        if (e != bad[i].err || col != bad[i].col) {
            printf("  line '%s': got %s col %zu\n", bad[i].line,
                   trc_error_name(e), col);
            all = 0;
        }
    }
    check(all, "text_errors_name_kind_and_column");
    char buf[TRC_TEXT_LINE_MAX];
    trc_record f = R(UINT64_MAX, TRC_OS, 4294967295u, 4294967295u);
    size_t n = trc_text_format(&f, buf);
    check(n == 45 && !memcmp(buf, "18446744073709551615 O 4294967295 4294967295\n", n),
          "text_format_longest_line");
    f = R(0, TRC_LOST, 3, 0);
    n = trc_text_format(&f, buf);
    check(n == 6 && !memcmp(buf, "0 L 3\n", 6), "text_format_lost");
}

/* Stack mode (docs/format.md 4.7). The expected bits below were worked out
 * by hand from the format text, symbol by symbol; see the comments. */
static void test_stack_worked_example(void)
{
    trc_params p = trc_params_stack(); /* NT 23, SK 9, SD 16 */
    trc_record r[] = {
        R(3, TRC_ENTRY, 0, 0), R(3, TRC_EXIT, 0, 0), R(4, TRC_ENTRY, 0, 0),
        R(2, TRC_EXIT, 0, 0),
    };
    uint8_t b[64];
    char s[600];
    size_t n = enc_raw(&p, r, 4, b);
    bits_of(b, n * 8, s);
    const char *want =
        /* E0 d3: index 0, reset entry predicts E0; d: L+2 (kb 0), rank 6
         * of [EQ NP NEAR L0 L+1 L-1 L+2 ...], then 1 bit below the top. */
        "1111110" "1"
        /* X0 d3: index 0 again {E0, pd 3, kb 1, noisy, hit}: NP at rank 8,
         * EQ at rank 6 of the noisy order, then class exit-of-top 0. */
        "111111110" "1111110" "0"
        /* E0 d4: top empty, prev X0: index 1, reset entry predicts E0;
         * L+3 (kb 0) at rank 8, then 2 bits. */
        "111111110" "00"
        /* X0 d2: index 0 {X0, pd 3, kb 2, near, miss}: predicted; NEAR at
         * rank 2, sign 1 (d = pd - 1). */
        "110" "1"
        /* END: index 1 {E0, pd 4, kb 1, noisy, hit}: NP rank 8, delta 0
         * is ESC, the last of 11 ranks (ten ones), z = 23; class OS 11,
         * type 126 misses (111 1111110), value 0 hits (000); one pad bit. */
        "111111110" "1111111111" "10111" "11" "111" "1111110" "000" "0";
    check(n == 10 && !strcmp(s, want), "stack_worked_example_bits");
    trc_record out[8];
    size_t got;
    trc_stats st;
    trc_error e = dec_chunked(&p, b, n, 3, out, &got, &st);
    check(e == TRC_OK && got == 4 && same(out, r, 4) && st.end == 1,
          "stack_worked_example_decodes");
    check(8 * n == st.coded_bits[TRC_F_TIMESTAMP] + st.coded_bits[TRC_F_FUNCTION] +
                       st.coded_bits[TRC_F_TYPE] + st.coded_bits[TRC_F_VALUE] +
                       st.kind_bits + st.pad_bits,
          "stack_stats_add_up");
    /* Predicted: both entries and the second exit; the first exit is the
     * top's. Deltas: L+2, EQ, L+3, NEAR, then END's ESC. */
    check(st.predicted == 3 && st.top_exits == 1 && st.lookups[0] == 0 &&
              st.function == 4 && st.delta_sym[0] == 1 && st.delta_sym[1] == 1 &&
              st.delta_sym[2] == 2 && st.delta_sym[3] == 1,
          "stack_stats_predictions");
}

static void test_stack_round_trips(void)
{
    /* nt fid tw vw nd sk sd: corners of every range */
    static const unsigned sets[][7] = {
        {23, 15, 7, 16, 3, 9, 16}, {2, 1, 3, 1, 1, 4, 1},  {8, 8, 4, 8, 2, 5, 3},
        {32, 31, 16, 32, 8, 12, 64}, {12, 6, 7, 16, 3, 4, 2}, {23, 15, 7, 16, 3, 12, 1},
    };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        trc_params p = P(sets[s][0], sets[s][1], sets[s][2], sets[s][3],
                         sets[s][4]);
        p.mode = TRC_MODE_STACK;
        p.sk = sets[s][5];
        p.sd = sets[s][6];
        int ok = trc_params_check(&p) == TRC_OK;
        for (unsigned seed = 1; seed <= 4; seed++)
            ok &= round_trip_ok(&p, seed, seed * 7919 + (unsigned)s, 1);
        char name[96];
        snprintf(name, sizeof name, "stack_round_trip_nt%u_fid%u_sk%u_sd%u",
                 sets[s][0], sets[s][1], sets[s][5], sets[s][6]);
        check(ok, name);
    }
}

static void test_stack_sync_and_errors(void)
{
    trc_params p = trc_params_stack();
    enum { N = 200 };
    trc_record in[N];
    rng_state = 77;
    random_trace(&p, in, N);
    for (size_t i = 0; i < N; i++)
        if (in[i].delta > 1000 || in[i].kind == TRC_LOST)
            in[i] = R(in[i].delta % 1000, TRC_ENTRY, 3, 0);
    static uint8_t a[N * 40], b[N * 80];
    trc_encoder e;
    size_t len, at = 0, alen = 0, used;
    /* A alone, then A, SYNC, A: after the SYNC the bytes repeat A's. */
    trc_encoder_init(&e, &p);
    trc_encode(&e, in, N, &used, a, sizeof a, &alen);
    trc_encode_sync(&e, a + alen, TRC_MAX_RECORD_BYTES, &len);
    alen += len;
    trc_encoder_init(&e, &p);
    for (int k = 0; k < 2; k++) {
        trc_encode(&e, in, N, &used, b + at, sizeof b - at, &len);
        at += len;
        trc_encode_sync(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
        at += len;
    }
    check(at == 2 * alen && !memcmp(a, b, alen) && !memcmp(a, b + alen, alen),
          "stack_sync_resets_predictor");

    /* kb + j out of 1..NT: from the reset state (kb 0) L-1 is rank 5 of
     * [EQ NP NEAR L0 L+1 L-1 ...] with a predicted E0. */
    uint8_t bad[] = {0xF8, 0x00, 0x00, 0x00};
    trc_record out[4];
    size_t got;
    check(dec_chunked(&p, bad, sizeof bad, 4, out, &got, NULL) == TRC_ERR_CORRUPT,
          "stack_length_out_of_range_corrupt");

    uint8_t h[TRC_HEADER_BYTES];
    trc_params q;
    unsigned mode;
    check(trc_header_write(&p, TRC_MODE_STACK, h) == TRC_OK && h[5] == 1 &&
              h[14] == 9 && h[15] == 16 &&
              trc_header_read(h, sizeof h, &q, &mode) == TRC_OK &&
              mode == TRC_MODE_STACK && !memcmp(&p, &q, sizeof p),
          "stack_header_round_trip");
    check(trc_header_write(&p, TRC_MODE_PAPER, h) == TRC_ERR_PARAM,
          "header_mode_must_match_params");
    trc_params pp = trc_params_paper();
    trc_header_write(&pp, TRC_MODE_PAPER, h);
    h[14] = 9;
    check(trc_header_read(h, sizeof h, &q, &mode) == TRC_ERR_HEADER,
          "paper_header_with_table_bits_rejected");
    p.sk = 13;
    check(trc_params_check(&p) == TRC_ERR_PARAM, "stack_params_range");
}

/* Stack mode 2 (docs/format.md 4.8). The bits were worked out by hand from
 * the format text, as the table in 4.8 shows them. */
static void test_stack2_worked_example(void)
{
    trc_params p = trc_params_stack2(); /* SK 12, SD 16, SO 9, ND 4,3,4 */
    p.fe = 0; /* the example of the rules without fresh entries */
    trc_record r[] = {
        R(3, TRC_ENTRY, 0, 0), R(4, TRC_ENTRY, 0, 0), R(3, TRC_ENTRY, 0, 0),
        R(9, TRC_OS, 1, 7),    R(9, TRC_OS, 1, 7),    R(9, TRC_OS, 1, 7),
        R(2, TRC_EXIT, 0, 0),
    };
    uint8_t b[64];
    char s[600];
    size_t n = enc_raw(&p, r, 7, b);
    bits_of(b, n * 8, s);
    const char *want =
        /* E0 d3: idx 0, reset entry predicts E0; L+2 at rank 6, 1 bit. */
        "1111110" "1"
        /* E0 d4: {E0, pd 3, kb 1, noisy, hit}: NEAR at rank 7, up (0). */
        "11111110" "0"
        /* E0 d3: {E0, pd 4, kb 2, near, hit}, phase up: down is NEARp. */
        "10"
        /* O 1 7 d9: NP at rank 4 (after NEARo), class 11; OS entry 0 is a
         * reset entry: NP, L+4 (rank 9) and 3 bits, type 1 and value 7 hit. */
        "11110" "11" "10" "1111111110" "001" "001" "0111"
        /* O 1 7 d9: after an OS record; OS entry 135, reset: not
         * predicted, class OS = nc: NP. */
        "10" "1111111110" "001" "001" "0111"
        /* O 1 7 d9: OS entry 135 {1, 7, pd 9, kb 1, noisy}: predicted, EQ
         * at rank 7 of [L0 NP L+1 L-1 L+2 L-2 L+3 EQ ...]. */
        "11111110"
        /* X0 d2: a function record, nc = OS: NPX, the last of 13 ranks;
         * idx 0 {E0, pd 3, kb 2, near, hit}: NP at rank 4, exit of top 0,
         * phase down: d = 2 is NEARo, rank 2. */
        "111111111111" "11110" "0" "110"
        /* END: idx 1 (reset), phase down: NP at rank 1, class 11; OS entry
         * 135 {1, 7, pd 9, kb 2, near}: NP, ESC (ten ones), z = 23; type 126
         * misses, value 0 hits; 2 pad bits. */
        "10" "11" "10" "1111111111" "10111" "111" "1111110" "0000" "00";
    check(n == 17 && !strcmp(s, want), "stack2_worked_example_bits");
    trc_record out[8];
    size_t got;
    trc_stats st;
    trc_error e = dec_chunked(&p, b, n, 3, out, &got, &st);
    check(e == TRC_OK && got == 7 && same(out, r, 7) && st.end == 1,
          "stack2_worked_example_decodes");
    check(8 * n == st.coded_bits[TRC_F_TIMESTAMP] + st.coded_bits[TRC_F_FUNCTION] +
                       st.coded_bits[TRC_F_TYPE] + st.coded_bits[TRC_F_VALUE] +
                       st.kind_bits + st.pad_bits,
          "stack2_stats_add_up");
    check(st.predicted == 3 && st.top_exits == 1 && st.os_predicted == 1 &&
              st.delta_sym[0] == 1 && st.delta_sym[1] == 3 &&
              st.delta_sym[2] == 3 && st.delta_sym[3] == 1,
          "stack2_stats_predictions");
}

/* Stack mode 2 with a time quantum of 100 ticks (docs/format.md 4.8, its
 * second worked example), bits worked out by hand from the format text. */
/* A stack mode 2 parameter kept in the header's flags: p's header has the
 * flags byte want and reads back as p; *refused: the same byte in a stack
 * mode header is refused. */
static int stack2_flag_round_trip(const trc_params *p, uint8_t want, int *refused)
{
    uint8_t h[TRC_HEADER_BYTES];
    trc_params q, s1 = trc_params_stack();
    unsigned mode;
    int ok = trc_header_write(p, TRC_MODE_STACK2, h) == TRC_OK && h[13] == want &&
             trc_header_read(h, sizeof h, &q, &mode) == TRC_OK && !memcmp(&q, p, sizeof q);
    trc_header_write(&s1, TRC_MODE_STACK, h);
    h[13] = want;
    *refused = trc_header_read(h, sizeof h, &q, &mode) == TRC_ERR_HEADER;
    return ok;
}

static void test_stack2_quantum_example(void)
{
    trc_params p = trc_params_stack2();
    p.tq = 100;
    p.fe = 0; /* as the example in 4.8: without fresh entries */
    trc_record r[] = {
        R(900, TRC_OS, 1, 7), R(950, TRC_OS, 1, 7), R(900, TRC_OS, 1, 7),
    };
    uint8_t b[64];
    char s[600];
    size_t n = enc_raw(&p, r, 3, b);
    bits_of(b, n * 8, s);
    const char *want =
        /* O 1 7 d900, u = 9: function entry 0 (reset): NP at rank 1, class
         * 11; OS entry 0 (reset): NP, L+4 (rank 9) and 3 bits of 9, type 1
         * and value 7 hit. */
        "10" "11" "10" "1111111110" "001" "001" "0111"
        /* O 1 7 d950, not a multiple: OS entry 135 (reset): NP (class OS =
         * nc), ESC (the last of 11 ranks), z = 31: raw, then 950's paper
         * code (z = 13, 9 bits); type and value hit. u = 9 updates. */
        "10" "1111111111" "11111" "01101" "110110110" "001" "0111"
        /* O 1 7 d900: entry 135 {1, 7, pd 9, kb 1, noisy}: predicted, EQ at
         * rank 7. */
        "11111110"
        /* END: entry 135 {pd 9, kb 2, near}: NP, u = 0 is ESC, z = 23;
         * type 126 misses, value 0 hits; 1 pad bit. */
        "10" "1111111111" "10111" "111" "1111110" "0000" "0";
    check(n == 13 && !strcmp(s, want), "stack2_quantum_example_bits");
    trc_record out[4];
    size_t got;
    trc_error e = dec_chunked(&p, b, n, 3, out, &got, NULL);
    check(e == TRC_OK && got == 3 && same(out, r, 3), "stack2_quantum_example_decodes");
    /* input a byte at a time: byte 5 ends inside the raw delta's z bits */
    int whole = 1;
    for (int k = 0; k < 20; k++)
        whole &= dec_chunked(&p, b, n, 1, out, &got, NULL) == TRC_OK && got == 3 &&
                 same(out, r, 3);
    check(whole, "stack2_quantum_raw_z_across_chunks");
    /* u x TQ past NT bits: an ESC of u = 2^22 (z = 0) from the reset state */
    uint8_t big[] = {0xBB, 0xFF, 0x00, 0x00, 0x00, 0x00};
    check(dec_chunked(&p, big, sizeof big, 6, out, &got, NULL) == TRC_ERR_CORRUPT,
          "stack2_quantum_overflow_corrupt");
    int refused;
    check(stack2_flag_round_trip(&p, 0x80, &refused), "stack2_quantum_header_round_trip");
    check(refused, "quantum_flag_outside_stack2_rejected");
    trc_params pp = trc_params_stack();
    pp.tq = 100;
    p.tq = 50;
    trc_params p31 = trc_params_stack2();
    p31.nt = 31;
    p31.tq = 10;
    check(trc_params_check(&pp) == TRC_ERR_PARAM && trc_params_check(&p) == TRC_ERR_PARAM &&
              trc_params_check(&p31) == TRC_ERR_PARAM,
          "quantum_params_range");
}

static void test_stack2_fresh_example(void)
{
    trc_params p = trc_params_stack2();
    p.fe = 1;
    trc_record r[] = {
        R(3, TRC_ENTRY, 0, 0), R(3, TRC_ENTRY, 0, 0), R(9, TRC_OS, 1, 7),
        R(9, TRC_OS, 1, 7),    R(9, TRC_OS, 1, 7),    R(2, TRC_EXIT, 0, 0),
    };
    uint8_t b[64];
    char s[600];
    size_t n = enc_raw(&p, r, 6, b);
    bits_of(b, n * 8, s);
    const char *want =
        /* E 0 d3: entry 0 is fresh: no NP, class 10, ESC's payload alone
         * (z = 21, 1 bit), key 0 hits at 0. Entry 0 becomes {E 0, pd 3, kb
         * 2 (d's bit length), noisy}. */
        "10" "10101" "1" "0000"
        /* E 0 d3: entry 0 predicts it; EQ at rank 7 of [L0 NP L+1 L-1 L+2
         * L-2 L+3 EQ ...]. */
        "11111110"
        /* O 1 7 d9: entry 0 {pd 3, kb 2, near, h 1}: NP at rank 3; class
         * 11; OS entry 0 is fresh: no NP, ESC's payload (z = 19, 3 bits);
         * type 1 and value 7 hit. */
        "1110" "11" "10011" "001" "001" "0111"
        /* O 1 7 d9: after an OS record, OS entry 135 is fresh: one bit, 0
         * for NP (class nc = OS); ESC's payload; type and value hit. */
        "0" "10011" "001" "001" "0111"
        /* O 1 7 d9: entry 135 {1, 7, pd 9, kb 4, noisy} predicts it: EQ at
         * rank 7 of its alphabet with NP and NPX. */
        "11111110"
        /* X 0 d2: entry 135 is not fresh: NPX (12 ones); entry 0: NP at
         * rank 3, class exit of top, NEAR (rank 1) down. */
        "111111111111" "1110" "0" "10" "1"
        /* END: entry 1 (prev X 0) is fresh: no NP, class 11; OS entry 135:
         * NP, ESC (the last of 11 ranks), z = 23; type 126 misses, value 0
         * hits; 2 pad bits. */
        "11" "10" "1111111111" "10111" "111" "1111110" "0000" "00";
    check(n == 15 && !strcmp(s, want), "stack2_fresh_example_bits");
    trc_record out[7];
    size_t got;
    int whole = 1;
    for (size_t k = 1; k <= n; k++)
        whole &= dec_chunked(&p, b, n, k, out, &got, NULL) == TRC_OK && got == 6 &&
                 same(out, r, 6);
    check(whole, "stack2_fresh_example_decodes");
    int refused;
    check(stack2_flag_round_trip(&p, 0x02, &refused), "stack2_fresh_header_round_trip");
    check(refused, "fresh_flag_outside_stack2_rejected");
    trc_params s1 = trc_params_stack();
    s1.fe = 1;
    p.fe = 2;
    check(trc_params_check(&s1) == TRC_ERR_PARAM && trc_params_check(&p) == TRC_ERR_PARAM,
          "fresh_params_range");
}

static void test_stack2_round_trips(void)
{
    /* nt fid tw vw ndf ndt ndv sk sd so: corners of every range */
    static const unsigned sets[][10] = {
        {23, 15, 7, 16, 4, 3, 4, 12, 16, 9}, {2, 1, 3, 1, 1, 1, 1, 4, 1, 4},
        {8, 8, 4, 8, 2, 2, 2, 5, 3, 12},     {32, 31, 16, 32, 8, 8, 8, 12, 64, 12},
        {12, 6, 7, 16, 3, 3, 3, 4, 2, 5},    {23, 15, 7, 16, 3, 3, 3, 9, 16, 4},
    };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        trc_params p = P(sets[s][0], sets[s][1], sets[s][2], sets[s][3],
                         sets[s][4]);
        p.nd_t = sets[s][5];
        p.nd_v = sets[s][6];
        p.mode = TRC_MODE_STACK2;
        p.sk = sets[s][7];
        p.sd = sets[s][8];
        p.so = sets[s][9];
        /* each with and without fresh entries */
        for (p.fe = 0; p.fe <= 1; p.fe++) {
            int ok = trc_params_check(&p) == TRC_OK;
            for (unsigned seed = 1; seed <= 4; seed++)
                ok &= round_trip_ok(&p, seed, seed * 7919 + (unsigned)s, 1);
            char name[96];
            snprintf(name, sizeof name, "stack2_round_trip_nt%u_fid%u_sk%u_sd%u_so%u%s",
                     sets[s][0], sets[s][1], sets[s][7], sets[s][8], sets[s][9],
                     p.fe ? "_fresh" : "");
            check(ok, name);
        }
    }
}

static void test_stack2_sync_and_header(void)
{
    trc_params p = trc_params_stack2();
    enum { N = 300 };
    trc_record in[N];
    rng_state = 78;
    random_trace(&p, in, N);
    for (size_t i = 0; i < N; i++)
        if (in[i].delta > 1000 || in[i].kind == TRC_LOST)
            in[i] = R(in[i].delta % 1000, i % 3 ? TRC_OS : TRC_ENTRY, 3, 0);
    static uint8_t a[N * 40], b[N * 80];
    trc_encoder e;
    size_t len, at = 0, alen = 0, used;
    /* A alone, then A, SYNC, A: after the SYNC the bytes repeat A's, so the
     * OS table, po, pk and the phase were reset too. */
    trc_encoder_init(&e, &p);
    trc_encode(&e, in, N, &used, a, sizeof a, &alen);
    trc_encode_sync(&e, a + alen, TRC_MAX_RECORD_BYTES, &len);
    alen += len;
    trc_encoder_init(&e, &p);
    for (int k = 0; k < 2; k++) {
        trc_encode(&e, in, N, &used, b + at, sizeof b - at, &len);
        at += len;
        trc_encode_sync(&e, b + at, TRC_MAX_RECORD_BYTES, &len);
        at += len;
    }
    check(at == 2 * alen && !memcmp(a, b, alen) && !memcmp(a, b + alen, alen),
          "stack2_sync_resets_predictor");

    uint8_t h[TRC_HEADER_BYTES];
    trc_params q;
    unsigned mode;
    check(trc_header_write(&p, TRC_MODE_STACK2, h) == TRC_OK && h[5] == 2 &&
              h[14] == (12 | 9 << 4) && h[15] == 16 &&
              trc_header_read(h, sizeof h, &q, &mode) == TRC_OK &&
              mode == TRC_MODE_STACK2 && !memcmp(&p, &q, sizeof p),
          "stack2_header_round_trip");
    trc_params s1 = trc_params_stack();
    trc_header_write(&s1, TRC_MODE_STACK, h);
    h[14] |= 9 << 4; /* an SO nibble in a stack mode header: SK 153 */
    check(trc_header_read(h, sizeof h, &q, &mode) == TRC_ERR_HEADER,
          "stack_header_with_os_bits_rejected");
    h[14] = 9;
    h[5] = 3;
    check(trc_header_read(h, sizeof h, &q, &mode) == TRC_ERR_VERSION,
          "mode_3_rejected");
    q = p;
    q.so = 3;
    check(trc_params_check(&q) == TRC_ERR_PARAM, "stack2_so_range");
    q.so = 0;
    check(trc_params_check(&q) == TRC_ERR_PARAM, "stack2_needs_so");
    s1.so = 9;
    check(trc_params_check(&s1) == TRC_ERR_PARAM, "stack_mode_rejects_so");
}

static void test_container_and_bin(void)
{
    trc_params p = P(16, 8, 5, 12, 2), q;
    uint8_t h[TRC_HEADER_BYTES];
    unsigned mode;
    trc_header_write(&p, TRC_MODE_PAPER, h);
    check(trc_header_read(h, sizeof h, &q, &mode) == TRC_OK &&
              !memcmp(&p, &q, sizeof p) && mode == 0,
          "header_round_trip");
    check(h[0] == 0x89 && h[1] == 'T' && h[4] == 2 && h[6] == 16 &&
              trc_header_version(h) == 2,
          "header_layout");
    uint8_t h1[TRC_HEADER_BYTES];
    memcpy(h1, h, sizeof h);
    h1[4] = 1;
    check(trc_header_read(h1, sizeof h1, &q, &mode) == TRC_OK &&
              trc_header_version(h1) == 1,
          "header_version_1_still_read");
    check(trc_header_read(h, 10, &q, &mode) == TRC_ERR_TRUNCATED,
          "header_truncated");
    uint8_t hb[TRC_HEADER_BYTES];
    memcpy(hb, h, sizeof h);
    hb[1] = 'X';
    check(trc_header_read(hb, sizeof hb, &q, &mode) == TRC_ERR_MAGIC, "header_magic");
    memcpy(hb, h, sizeof h);
    hb[4] = 9;
    check(trc_header_read(hb, sizeof hb, &q, &mode) == TRC_ERR_VERSION, "header_version");
    memcpy(hb, h, sizeof h);
    hb[6] = 40;
    check(trc_header_read(hb, sizeof hb, &q, &mode) == TRC_ERR_HEADER, "header_bad_param");

    uint8_t w[6];
    trc_record r = R(3, TRC_ENTRY, 5, 0), back;
    trc_bin_pack(&r, w);
    int ok = !memcmp(w, "\x00\x00\x03\x00\x00\x05", 6);
    r.kind = TRC_EXIT;
    trc_bin_pack(&r, w);
    ok &= !memcmp(w, "\x00\x00\x03\x80\x00\x05", 6);
    ok &= trc_bin_unpack(w, &back) == TRC_OK && same(&back, &r, 1);
    r = R(1, TRC_OS, 1, 0x1234);
    trc_bin_pack(&r, w);
    ok &= !memcmp(w, "\x80\x00\x01\x01\x12\x34", 6);
    ok &= trc_bin_unpack(w, &back) == TRC_OK && same(&back, &r, 1);
    check(ok, "bin_v1_layout");
    check(trc_bin_unpack((const uint8_t *)"\x00\x00\x00\x01\x00\x00", &back) ==
              TRC_ERR_FIELD,
          "bin_v1_rejects_stray_bits");
}

static void test_frames(void)
{
    check(trc_crc32(0, (const uint8_t *)"123456789", 9) == 0xCBF43926u,
          "crc32_check_value");
    trc_frame_info f = {7, 28672, 123456789012ull, 5000, 4096, 0xdeadbeef}, g;
    uint8_t h[TRC_FRAME_HEADER_BYTES];
    trc_frame_header_write(&f, h);
    check(trc_frame_header_read(h, sizeof h, &g) == TRC_OK && g.index == 7 &&
              g.records_before == 28672 && g.time_before == 123456789012ull &&
              g.payload_bytes == 5000 && g.records == 4096 &&
              g.payload_crc == 0xdeadbeef,
          "frame_header_round_trip");
    check(h[0] == 0xF7 && h[1] == 'T' && h[4] == 0 && h[7] == 7,
          "frame_header_layout");
    int all = 1;
    for (int bit = 0; bit < 8 * TRC_FRAME_HEADER_BYTES; bit++) {
        h[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        trc_error e = trc_frame_header_read(h, sizeof h, &g);
        all &= e == (bit < 32 ? TRC_ERR_MAGIC : TRC_ERR_CHECK);
        h[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    check(all, "frame_header_every_bit_flip_detected");
    check(trc_frame_header_read(h, 39, &g) == TRC_ERR_TRUNCATED,
          "frame_header_truncated");
    trc_params p = trc_params_paper(), q;
    unsigned mode, flags;
    trc_header_write_ex(&p, TRC_MODE_PAPER, TRC_FLAG_FRAMED, h);
    check(trc_header_read_ex(h, TRC_HEADER_BYTES, &q, &mode, &flags) == TRC_OK &&
              flags == TRC_FLAG_FRAMED,
          "container_framed_flag");
    h[13] = 2;
    check(trc_header_read_ex(h, TRC_HEADER_BYTES, &q, &mode, &flags) ==
              TRC_ERR_HEADER,
          "container_unknown_flag_rejected");
}

int main(void)
{
    test_params();
    test_timestamp();
    test_function_dict();
    test_os_dict_and_reserved();
    test_time_ext();
    test_checks();
    test_corrupt();
    test_random_round_trips();
    test_paper_run_same_as_single();
    test_stack_worked_example();
    test_stack_round_trips();
    test_stack_sync_and_errors();
    test_stack_run_same_as_single();
    test_stack_sync_rollback();
    test_stack_run_rejects();
    test_stack2_worked_example();
    test_stack2_quantum_example();
    test_stack2_fresh_example();
    test_stack2_round_trips();
    test_stack2_sync_and_header();
    test_text();
    test_container_and_bin();
    test_frames();
    return unit_exit("unit_model");
}
