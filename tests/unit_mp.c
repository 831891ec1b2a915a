/*
 * unit_mp.c - unit tests of streams of several CPUs (docs/format.md 4.9): the
 * worked example's bits (written out by hand from the format rules), switch
 * codes with extra bits, one CPU equal to the single-CPU coder byte for byte,
 * seeded random round trips with SYNC and chunked input, corrupt and cut
 * streams, the version 3 header, the text CPU column and the record writer.
 * Prints "ok NAME" / "not ok NAME".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trc.h"
#include "unit.h"

static trc_params mp_params(unsigned cpus)
{
    trc_params p = trc_params_paper();
    p.cpus = cpus;
    return p;
}

static trc_record rec(uint64_t delta, unsigned kind, uint32_t a, uint32_t b)
{
    trc_record r = {delta, a, b, kind};
    return r;
}

/* The coders are large: one of each, reused. */
static trc_mp_encoder enc;
static trc_mp_decoder dec;

/* Raw records of cpus cpu[i], then END; returns the byte count. */
static size_t enc_raw(const trc_params *p, const trc_record *r, const unsigned *cpu,
                      size_t n, uint8_t *out)
{
    size_t len, at = 0;
    trc_mp_encoder_init(&enc, p);
    for (size_t i = 0; i < n; i++) {
        trc_mp_encode_raw(&enc, cpu[i], &r[i], out + at, TRC_MP_MIN_DST, &len);
        at += len;
    }
    trc_mp_encode_end(&enc, out + at, TRC_MP_MIN_DST, &len);
    return at + len;
}

/* Decodes s[0..len) in chunks of 1..maxchunk bytes with room for 1..5
 * records a call; returns the final error. */
static trc_error dec_chunked(const trc_params *p, const uint8_t *s, size_t len,
                             size_t maxchunk, trc_record *out, uint8_t *cpu,
                             size_t *n)
{
    size_t pos = 0, avail = 0;
    trc_mp_decoder_init(&dec, p);
    *n = 0;
    for (;;) {
        size_t grow = 1 + (size_t)(rnd() % maxchunk);
        avail = avail + grow > len - pos ? len - pos : avail + grow;
        int final = pos + avail == len;
        size_t used, got;
        trc_error e = trc_mp_decode(&dec, s + pos, avail, &used, out + *n, cpu + *n,
                                    1 + (size_t)(rnd() % 5), &got, final);
        *n += got;
        pos += used;
        avail -= used;
        if (e != TRC_OK)
            return e;
        if (final && got == 0 && used == 0)
            return TRC_OK;
    }
}

static int same(const trc_record *a, const trc_record *b)
{
    return a->delta == b->delta && a->kind == b->kind && a->a == b->a && a->b == b->b;
}

/* docs/format.md 4.9's worked example, bit for bit. */
static void test_worked_example(void)
{
    trc_params p = mp_params(2);
    trc_record r[4] = {rec(3, TRC_ENTRY, 2, 0), rec(3, TRC_ENTRY, 2, 0),
                       rec(4, TRC_EXIT, 2, 0), rec(6, TRC_EXIT, 2, 0)};
    unsigned cpu[4] = {0, 1, 1, 0};
    uint8_t out[64];
    char bits[700];
    size_t n = enc_raw(&p, r, cpu, 4, out);
    /* CPU 0 E 2 d3 | switch to 1 | CPU 1 E 2 d3 (its own dictionary: a hit)
     * | CPU 1 X 2 d4 | switch to 0 | CPU 0 X 2 d6 | END | padding */
    const char *want = "10101" "1" "0" "010"
                       "11001"
                       "10101" "1" "0" "010"
                       "10100" "00" "0" "010"
                       "11000"
                       "10100" "10" "0" "010"
                       "10111" "1" "111" "1111110" "000"
                       "0";
    bits_of(out, n * 8, bits);
    check(n == 9 && strcmp(bits, want) == 0, "mp_worked_example_bits");
    check(enc.switches == 2 && trc_switch_bits(&p) == 5, "mp_worked_example_switches");

    trc_record o[8];
    uint8_t oc[8];
    size_t got;
    trc_error e = dec_chunked(&p, out, n, 3, o, oc, &got);
    int ok = e == TRC_OK && got == 4;
    for (size_t i = 0; ok && i < 4; i++)
        ok = same(&o[i], &r[i]) && oc[i] == cpu[i];
    check(ok, "mp_worked_example_decodes");
}

/* NT 12 leaves 3 z values above NT: 4 CPUs need E = 1 extra bit. */
static void test_switch_ext_bits(void)
{
    trc_params p = mp_params(4);
    p.nt = 12;
    trc_record r = rec(0, TRC_ENTRY, 1, 0);
    uint8_t out[32];
    size_t len;
    char bits[64];
    trc_mp_encoder_init(&enc, &p);
    trc_mp_encode_raw(&enc, 3, &r, out, TRC_MP_MIN_DST, &len);
    /* (12 + 1) * 2 + 3 = 29 in NZ + E = 5 bits, then z = 12 in 4 bits
     * (delta 0), kind 0, address 1 of CPU 3's dictionary: 13 bits */
    bits_of(out, 8, bits);
    check(trc_switch_bits(&p) == 5 && len == 1 && strcmp(bits, "11101110") == 0 &&
              enc.cpu[3].nacc == 5 && (enc.cpu[3].acc & 0x1f) == 0x01,
          "mp_switch_code_extra_bits");
    p.cpus = 3;
    check(trc_switch_bits(&p) == 4, "mp_switch_code_no_extra_bits");
    p.nt = 14; /* 15 = NT + 1 fills 4 bits: one spare value, E = 3 for 8 */
    p.cpus = 8;
    check(trc_params_check(&p) == TRC_OK && trc_switch_bits(&p) == 7, "mp_switch_code_one_spare");
}

/* Random trace records: deltas small to huge, every kind. */
static trc_record rnd_rec(const trc_params *p)
{
    static const uint64_t big[] = {0, 1, 7, 100, 4000, (UINT64_C(1) << 23) - 1,
                                   UINT64_C(1) << 23, UINT64_C(70) << 23, UINT64_C(1) << 40};
    trc_record r;
    unsigned k = (unsigned)(rnd() % 16);
    r.delta = rnd() % 8 ? rnd() % 300 : big[rnd() % 9];
    r.kind = k < 6 ? TRC_ENTRY : k < 12 ? TRC_EXIT : k < 15 ? TRC_OS : TRC_LOST;
    r.a = (uint32_t)(rnd() % 12);
    r.b = r.kind == TRC_OS ? (uint32_t)(rnd() % 9) : 0;
    if (r.kind == TRC_OS)
        r.a %= TRC_TYPE_LOST(p);
    return r;
}

#define NR 3000

static trc_record tr[NR], got_r[NR + 8];
static unsigned tcpu[NR];
static uint8_t got_c[NR + 8];
static uint8_t buf[NR * 40];

/* Encodes tr/tcpu (runs of one CPU, trc_mp_encode with a dst of cap bytes),
 * then END. */
static size_t enc_trace(const trc_params *p, size_t n, size_t cap)
{
    size_t at = 0, i = 0;
    trc_mp_encoder_init(&enc, p);
    while (i < n) {
        size_t run = 1, used, len;
        while (i + run < n && tcpu[i + run] == tcpu[i])
            run++;
        trc_error e = trc_mp_encode(&enc, tcpu[i], tr + i, run, &used, buf + at, cap, &len);
        at += len;
        i += used;
        if (e != TRC_OK)
            return 0;
    }
    size_t len;
    trc_mp_encode_end(&enc, buf + at, TRC_MP_MIN_DST, &len);
    return at + len;
}

static void test_round_trips(void)
{
    int ok = 1;
    for (unsigned cpus = 1; cpus <= TRC_CPU_MAX && ok; cpus++) {
        for (unsigned nt = 12; nt <= 23 && ok; nt += 11) {
            trc_params p = mp_params(cpus);
            p.nt = nt;
            rng_state = cpus * 100u + nt;
            unsigned c = 0;
            for (size_t i = 0; i < NR; i++) {
                if (rnd() % 4 == 0)
                    c = (unsigned)(rnd() % cpus);
                tcpu[i] = c;
                tr[i] = rnd_rec(&p);
            }
            size_t len = enc_trace(&p, NR, TRC_MP_MIN_DST + (size_t)(rnd() % 40));
            size_t n;
            trc_error e = dec_chunked(&p, buf, len, 1 + cpus * 3, got_r, got_c, &n);
            ok = len > 0 && e == TRC_OK && n == NR;
            for (size_t i = 0; ok && i < NR; i++)
                ok = same(&got_r[i], &tr[i]) && got_c[i] == tcpu[i];
            if (!ok)
                printf("  cpus %u nt %u: len %zu err %s n %zu\n", cpus, nt, len,
                       trc_error_name(e), n);
        }
    }
    check(ok, "mp_round_trip_1_to_8_cpus");
}

/* One CPU through the multi-CPU coders is the single-CPU stream. */
static void test_one_cpu_identical(void)
{
    trc_params p = trc_params_paper();
    static uint8_t one[NR * 40];
    rng_state = 5;
    for (size_t i = 0; i < NR; i++) {
        tcpu[i] = 0;
        tr[i] = rnd_rec(&p);
    }
    size_t len = enc_trace(&p, NR, 4096);
    trc_encoder e;
    size_t at = 0, i = 0, used, l;
    trc_encoder_init(&e, &p);
    while (i < NR) {
        trc_encode(&e, tr + i, NR - i, &used, one + at, 4096, &l);
        at += l;
        i += used;
    }
    trc_encode_end(&e, one + at, TRC_MAX_RECORD_BYTES, &l);
    at += l;
    check(len == at && memcmp(buf, one, len) == 0, "mp_one_cpu_same_bytes");
}

/* SYNC: every CPU back to the reset state, CPU 0 current. */
static void test_sync(void)
{
    trc_params p = mp_params(3);
    trc_record r[6] = {rec(1, TRC_ENTRY, 9, 0), rec(2, TRC_ENTRY, 9, 0),
                       rec(0, TRC_OS, TRC_TYPE_SYNC(&p), 0), rec(5, TRC_ENTRY, 9, 0),
                       rec(1, TRC_ENTRY, 9, 0), rec(1, TRC_EXIT, 9, 0)};
    unsigned cpu[6] = {2, 1, 1, 1, 2, 0};
    uint8_t out[64];
    size_t n = enc_raw(&p, r, cpu, 6, out);
    /* after the SYNC, CPU 0 is current: the E 9 of CPU 1 needs a switch */
    size_t got;
    trc_error e = dec_chunked(&p, out, n, 2, got_r, got_c, &got);
    int ok = e == TRC_OK && got == 5 && enc.switches == 5;
    unsigned wantc[5] = {2, 1, 1, 2, 0};
    uint64_t wantd[5] = {1, 2, 5, 1, 1};
    for (size_t i = 0; ok && i < 5; i++)
        ok = got_c[i] == wantc[i] && got_r[i].delta == wantd[i];
    check(ok, "mp_sync_resets_every_cpu");
    /* E 9 after the SYNC misses in CPU 1's dictionary (reset): 3 + 16 bits */
    check(ok && dec.cpu[1].st.hits[0] == 0 && dec.cpu[2].st.hits[0] == 0,
          "mp_sync_dictionaries_reset");
}

static void test_corrupt(void)
{
    trc_params p = mp_params(3);
    uint8_t s[8];
    size_t used, n;
    trc_record o[8];
    /* switch to CPU 0 while CPU 0 is current: 11000 */
    memset(s, 0, sizeof s);
    s[0] = 0xC0;
    trc_mp_decoder_init(&dec, &p);
    check(trc_mp_decode(&dec, s, 8, &used, o, NULL, 4, &n, 1) == TRC_ERR_CORRUPT &&
              trc_mp_decoder_bit_offset(&dec) == 0,
          "mp_switch_to_current_is_corrupt");
    /* switch to CPU 3 of 3: 11011 */
    s[0] = 0xD8;
    trc_mp_decoder_init(&dec, &p);
    check(trc_mp_decode(&dec, s, 8, &used, o, NULL, 4, &n, 1) == TRC_ERR_CORRUPT,
          "mp_switch_past_cpus_is_corrupt");
    /* a lone switch to CPU 1 (11001) and zero padding: truncated after it */
    s[0] = 0xC8;
    trc_mp_decoder_init(&dec, &p);
    trc_error e = trc_mp_decode(&dec, s, 1, &used, o, NULL, 4, &n, 1);
    check(e == TRC_ERR_TRUNCATED, "mp_stream_cut_after_switch");
    /* one CPU: a z above NT stays an error */
    trc_params q = trc_params_paper();
    s[0] = 0xC8;
    trc_mp_decoder_init(&dec, &q);
    check(trc_mp_decode(&dec, s, 8, &used, o, NULL, 4, &n, 1) == TRC_ERR_CORRUPT,
          "mp_one_cpu_no_switch_code");
    /* cut anywhere: truncated, never a crash, and what decodes is a prefix */
    trc_record r[5] = {rec(3, TRC_ENTRY, 2, 0), rec(3, TRC_ENTRY, 7, 0),
                       rec(9, TRC_OS, 4, 4), rec(6, TRC_EXIT, 2, 0), rec(1, TRC_EXIT, 7, 0)};
    unsigned cpu[5] = {0, 2, 1, 0, 2};
    uint8_t out[64];
    size_t len = enc_raw(&p, r, cpu, 5, out);
    int ok = 1;
    for (size_t cut = 0; cut < len && ok; cut++) {
        trc_mp_decoder_init(&dec, &p);
        e = trc_mp_decode(&dec, out, cut, &used, o, got_c, 8, &n, 1);
        ok = e == TRC_ERR_TRUNCATED && n <= 5;
        for (size_t i = 0; ok && i < n; i++)
            ok = same(&o[i], &r[i]) && got_c[i] == cpu[i];
    }
    check(ok, "mp_every_cut_truncated");
}

static void test_params_header(void)
{
    trc_params p = mp_params(4);
    check(trc_params_check(&p) == TRC_OK, "mp_params_4_cpus");
    p.cpus = TRC_CPU_MAX + 1;
    check(trc_params_check(&p) == TRC_ERR_PARAM, "mp_params_too_many_cpus");
    p = trc_params_stack();
    p.cpus = 2;
    check(trc_params_check(&p) == TRC_ERR_PARAM, "mp_params_stack_mode_one_cpu_only");
    p = mp_params(2);
    p.nt = 15;
    check(trc_params_check(&p) == TRC_ERR_PARAM, "mp_params_nt_without_spare_z");
    p = mp_params(2);
    trc_encoder e1;
    check(trc_encoder_init(&e1, &p) == TRC_ERR_PARAM, "mp_single_encoder_refuses_cpus");
    {   /* a decoder whose init refused its parameters refuses every call */
        static trc_decoder d1;
        static trc_mp_decoder dm;
        static const uint8_t s[4] = {0x12, 0x34, 0x56, 0x78};
        trc_record out[4];
        uint8_t cpu[4];
        size_t u1 = 9, n1 = 9, um = 9, nm = 9;
        trc_params bad = mp_params(2);
        bad.nt = 15;
        trc_error e_1 = trc_decoder_init(&d1, &p); /* 2 CPUs: not for it */
        trc_error e_m = trc_mp_decoder_init(&dm, &bad);
        check(e_1 == TRC_ERR_PARAM &&
                  trc_decode(&d1, s, sizeof s, &u1, out, 4, &n1, 1) == TRC_ERR_PARAM &&
                  u1 == 0 && n1 == 0,
              "mp_single_decoder_refused_refuses_decode");
        check(e_m == TRC_ERR_PARAM &&
                  trc_mp_decode(&dm, s, sizeof s, &um, out, cpu, 4, &nm, 1) == TRC_ERR_PARAM &&
                  um == 0 && nm == 0,
              "mp_decoder_refused_refuses_decode");
    }

    uint8_t h[TRC_HEADER_BYTES];
    trc_params q;
    unsigned mode, flags;
    p = mp_params(5);
    int ok = trc_header_write(&p, 0, h) == TRC_OK && h[4] == 3 && h[13] == 8 &&
             trc_header_read_ex(h, 16, &q, &mode, &flags) == TRC_OK && q.cpus == 5 &&
             flags == 0;
    check(ok, "mp_header_version_3");
    p = trc_params_paper();
    ok = trc_header_write(&p, 0, h) == TRC_OK && h[4] == 2 && h[13] == 0 &&
         trc_header_read(h, 16, &q, &mode) == TRC_OK && trc_cpu_count(&q) == 1;
    check(ok, "mp_header_one_cpu_version_2");
    h[13] = 2; /* CPU bits in a version 2 header: unknown flags */
    check(trc_header_read(h, 16, &q, &mode) == TRC_ERR_HEADER, "mp_header_v2_rejects_cpu_bits");
    h[4] = 3;
    h[13] = 0; /* version 3 with one CPU */
    check(trc_header_read(h, 16, &q, &mode) == TRC_ERR_HEADER, "mp_header_v3_needs_cpus");
    h[13] = 3; /* version 3 framed */
    check(trc_header_read(h, 16, &q, &mode) == TRC_ERR_HEADER, "mp_header_v3_not_framed");
    h[4] = 4;
    h[13] = 2;
    check(trc_header_read(h, 16, &q, &mode) == TRC_ERR_VERSION, "mp_header_v4_unknown");
    p = mp_params(2);
    check(trc_header_write_ex(&p, 0, TRC_FLAG_FRAMED, h) == TRC_ERR_HEADER,
          "mp_header_no_frames");
}

static void test_text(void)
{
    trc_params p = mp_params(3);
    trc_record r;
    unsigned cpu;
    int is;
    size_t col;
    const char *l1 = "12 O 5 77 @2";
    int ok = trc_text_parse_ex(&p, l1, strlen(l1), &r, &cpu, &is, &col) == TRC_OK && is &&
             cpu == 2 && r.kind == TRC_OS && r.a == 5 && r.b == 77 && r.delta == 12;
    check(ok, "mp_text_cpu_column");
    const char *l2 = "4 E 1";
    ok = trc_text_parse_ex(&p, l2, strlen(l2), &r, &cpu, &is, &col) == TRC_OK && cpu == 0;
    check(ok, "mp_text_no_column_is_cpu_0");
    const char *l3 = "4 E 1 @3";
    check(trc_text_parse_ex(&p, l3, strlen(l3), &r, &cpu, &is, &col) == TRC_ERR_FIELD &&
              col == 7,
          "mp_text_cpu_out_of_range_column");
    trc_params one = trc_params_paper();
    const char *l4 = "4 X 1 @1";
    check(trc_text_parse(&one, l4, strlen(l4), &r, &is, &col) == TRC_ERR_FIELD,
          "mp_text_one_cpu_rejects_cpu_1");
    const char *l5 = "4 X 1 @ 1";
    check(trc_text_parse_ex(&p, l5, strlen(l5), &r, &cpu, &is, &col) == TRC_ERR_SYNTAX,
          "mp_text_cpu_syntax");
    char out[TRC_TEXT_LINE_MAX];
    trc_record w = rec(18446744073709551615u, TRC_OS, 4294967295u, 4294967295u);
    size_t n = trc_text_format_cpu(&w, 7, 8, out);
    check(n < TRC_TEXT_LINE_MAX &&
              memcmp(out, "18446744073709551615 O 4294967295 4294967295 @7\n", n) == 0,
          "mp_text_format_longest");
    w = rec(3, TRC_ENTRY, 1, 0);
    n = trc_text_format_cpu(&w, 0, 1, out);
    check(n == 6 && memcmp(out, "3 E 1\n", 6) == 0, "mp_text_format_one_cpu_plain");
}

/* The writer: a container of several CPUs decodes to its records. */
static struct {
    uint8_t b[1 << 16];
    size_t n;
} sink;
static int sink_write(void *ctx, const uint8_t *b, size_t len)
{
    (void)ctx;
    if (sink.n + len > sizeof sink.b)
        return -1;
    memcpy(sink.b + sink.n, b, len);
    sink.n += len;
    return 0;
}

static void test_writer(void)
{
    static trc_writer w;
    trc_params p = mp_params(4), q;
    unsigned mode;
    sink.n = 0;
    rng_state = 77;
    int ok = trc_writer_init(&w, &p, TRC_FORM_CONTAINER, 0, sink_write, NULL) == TRC_OK;
    for (size_t i = 0; i < 2000 && ok; i++) {
        tcpu[i] = (unsigned)(rnd() % 4);
        tr[i] = rnd_rec(&p);
        ok = trc_writer_put_cpu(&w, tcpu[i], &tr[i]) == TRC_OK;
    }
    ok = ok && trc_writer_put_cpu(&w, 4, &tr[0]) == TRC_ERR_FIELD;
    ok = ok && trc_writer_finish(&w) == TRC_OK;
    ok = ok && trc_header_read(sink.b, sink.n, &q, &mode) == TRC_OK && q.cpus == 4;
    size_t n;
    ok = ok && dec_chunked(&q, sink.b + 16, sink.n - 16, 64, got_r, got_c, &n) == TRC_OK &&
         n == 2000;
    for (size_t i = 0; ok && i < 2000; i++)
        ok = same(&got_r[i], &tr[i]) && got_c[i] == tcpu[i];
    check(ok, "mp_writer_container_round_trip");

    sink.n = 0;
    trc_writer_init(&w, &p, TRC_FORM_TEXT, 0, sink_write, NULL);
    trc_record a = rec(5, TRC_EXIT, 3, 0);
    trc_writer_put_cpu(&w, 3, &a);
    trc_writer_put(&w, &a);
    trc_writer_finish(&w);
    check(sink.n == 18 && memcmp(sink.b, "5 X 3 @3\n5 X 3 @0\n", 18) == 0,
          "mp_writer_text_cpu_column");
}

int main(void)
{
    test_worked_example();
    test_switch_ext_bits();
    test_round_trips();
    test_one_cpu_identical();
    test_sync();
    test_corrupt();
    test_params_header();
    test_text();
    test_writer();
    return unit_exit("unit_mp");
}
