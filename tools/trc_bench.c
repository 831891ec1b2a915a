/*
 * trc_bench.c - speed of the C model on one core beside lz4 -1 and zstd -1,
 * all in this one process on the same records, so that a busy machine slows
 * them alike and their ratio stays meaningful. The trace is parsed once; the
 * timed parts see records (trc) or their trace bin v1 bytes (lz4, zstd)
 * already in memory, and write to memory. Each of RUNS rounds times every
 * codec once, in turn; the best round of each is kept. Every round trip is
 * checked.
 *
 * Usage: trc_bench TRACE.txt [RUNS [CODEC]]; CODEC runs that codec alone,
 * "none" none (for instruction counts under valgrind: the difference to
 * "none" is the codec's). Prints a line for the trace, then one line of
 * key=value figures per codec: paper, stack and stack2 (the model,
 * paper field widths, trc_params_*() defaults), lz4-1 (an LZ4 frame as
 * `lz4 -1` writes it: 4 MB independent blocks, content checksum) and zstd-1
 * (a frame as `zstd -1` writes it: content size, checksum).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lz4frame.h>
#include <zstd.h>

#include "trc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static trc_record *load(const char *path, const trc_params *p, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    trc_record *r = malloc(cap * sizeof *r);
    char line[256];
    unsigned long lineno = 0;
    while (r && fgets(line, sizeof line, f)) {
        int is;
        size_t col;
        lineno++;
        if (len == cap) {
            trc_record *g = realloc(r, (cap *= 2) * sizeof *r);
            if (!g) {
                fprintf(stderr, "%s:%lu: out of memory\n", path, lineno);
                free(r);
            }
            r = g;
        }
        if (!r)
            break;
        trc_error e = trc_text_parse(p, line, strcspn(line, "\n"), &r[len],
                                     &is, &col);
        if (e != TRC_OK) {
            fprintf(stderr, "%s:%lu:%zu: %s\n", path, lineno, col,
                    trc_error_text(e));
            free(r);
            r = NULL;
        }
        len += r && is;
    }
    fclose(f);
    *n = len;
    return r;
}

/* Trace bin v1 of the records, as `trc convert --to bin` writes it. */
static uint8_t *to_bin(const trc_record *in, size_t n, size_t *len)
{
    trc_params p = trc_params_paper();
    size_t words = 0;
    for (size_t i = 0; i < n; i++)
        words += 1u + (size_t)trc_time_ext_count(&p, in[i].delta);
    uint8_t *out = malloc(words * TRC_BIN_BYTES + 1), *w = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t k, x = trc_time_ext_count(&p, in[i].delta);
        for (k = 0; k < x; k++, w += TRC_BIN_BYTES) {
            trc_record ext = trc_time_ext_nth(&p, in[i].delta, k);
            trc_bin_pack(&ext, w);
        }
        trc_record low = trc_lower(&p, &in[i]);
        if (trc_bin_pack(&low, w) != TRC_OK) {
            free(out);
            return NULL;
        }
        w += TRC_BIN_BYTES;
    }
    *len = words * TRC_BIN_BYTES;
    return out;
}

typedef struct {
    const char *name;
    double enc, dec; /* best seconds */
    size_t bytes;
} figure;

static void best(double *b, double t)
{
    if (t < *b)
        *b = t;
}

/* One round of the model in params p: encode, decode, compare. */
static int run_trc(figure *f, const trc_params *p, const trc_record *in,
                   size_t n, uint8_t *buf, size_t cap, trc_record *out)
{
    trc_encoder e;
    size_t used, len, tail;
    if (trc_encoder_init(&e, p) != TRC_OK)
        return 1;
    double t0 = now();
    trc_encode(&e, in, n, &used, buf, cap, &len);
    trc_encode_end(&e, buf + len, cap - len, &tail);
    double t1 = now();
    if (used != n) {
        fprintf(stderr, "%s: encode stopped at record %zu of %zu\n", f->name,
                used, n);
        return 1;
    }
    best(&f->enc, t1 - t0);
    f->bytes = len + tail;

    trc_decoder d;
    size_t got;
    trc_decoder_init(&d, p);
    t0 = now();
    trc_error err = trc_decode(&d, buf, f->bytes, &used, out, n + 1, &got, 1);
    t1 = now();
    if (err != TRC_OK || got != n) {
        fprintf(stderr, "%s: decode: %s, %zu of %zu records\n", f->name,
                trc_error_name(err), got, n);
        return 1;
    }
    best(&f->dec, t1 - t0);
    for (size_t i = 0; i < n; i++)
        if (in[i].delta != out[i].delta || in[i].kind != out[i].kind ||
            in[i].a != out[i].a || in[i].b != out[i].b) {
            fprintf(stderr, "%s: mismatch at record %zu\n", f->name, i);
            return 1;
        }
    return 0;
}

static int run_lz4(figure *f, const uint8_t *bin, size_t len, uint8_t *buf,
                   size_t cap, uint8_t *back)
{
    LZ4F_preferences_t pr;
    memset(&pr, 0, sizeof pr);
    pr.frameInfo.blockSizeID = LZ4F_max4MB;
    pr.frameInfo.blockMode = LZ4F_blockIndependent;
    pr.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    pr.compressionLevel = 1;
    double t0 = now();
    size_t c = LZ4F_compressFrame(buf, cap, bin, len, &pr);
    double t1 = now();
    if (LZ4F_isError(c)) {
        fprintf(stderr, "lz4: %s\n", LZ4F_getErrorName(c));
        return 1;
    }
    best(&f->enc, t1 - t0);
    f->bytes = c;

    LZ4F_dctx *d;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        return 1;
    size_t out = len + 1, in = c;
    t0 = now();
    size_t r = LZ4F_decompress(d, back, &out, buf, &in, NULL);
    t1 = now();
    LZ4F_freeDecompressionContext(d);
    if (LZ4F_isError(r) || r != 0 || in != c || out != len ||
        memcmp(back, bin, len) != 0) {
        fprintf(stderr, "lz4: round trip failed\n");
        return 1;
    }
    best(&f->dec, t1 - t0);
    return 0;
}

static int run_zstd(figure *f, ZSTD_CCtx *cc, ZSTD_DCtx *dc,
                    const uint8_t *bin, size_t len, uint8_t *buf, size_t cap,
                    uint8_t *back)
{
    double t0 = now();
    size_t c = ZSTD_compress2(cc, buf, cap, bin, len);
    double t1 = now();
    if (ZSTD_isError(c)) {
        fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(c));
        return 1;
    }
    best(&f->enc, t1 - t0);
    f->bytes = c;
    t0 = now();
    size_t r = ZSTD_decompressDCtx(dc, back, len + 1, buf, c);
    t1 = now();
    if (ZSTD_isError(r) || r != len || memcmp(back, bin, len) != 0) {
        fprintf(stderr, "zstd: round trip failed\n");
        return 1;
    }
    best(&f->dec, t1 - t0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: trc_bench TRACE.txt [RUNS [CODEC]]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1) {
        fprintf(stderr, "trc_bench: RUNS must be a positive number\n");
        return 2;
    }
    trc_params pp = trc_params_paper();
    trc_params ps[3] = {pp, trc_params_stack(), trc_params_stack2()};
    size_t n, blen = 0;
    trc_record *in = load(argv[1], &pp, &n);
    if (!in)
        return 1;
    uint8_t *bin = to_bin(in, n, &blen);
    if (!bin) {
        fprintf(stderr, "%s: cannot make trace bin v1\n", argv[1]);
        return 1;
    }
    /* Room for the largest of: trc (at most TRC_MAX_RECORD_BYTES a trace
     * record and its TIME_EXT records), lz4, zstd. */
    size_t cap = (blen / TRC_BIN_BYTES + 2) * TRC_MAX_RECORD_BYTES;
    if (cap < LZ4F_compressFrameBound(blen, NULL) + 1024)
        cap = LZ4F_compressFrameBound(blen, NULL) + 1024;
    if (cap < ZSTD_compressBound(blen))
        cap = ZSTD_compressBound(blen);
    uint8_t *buf = malloc(cap), *back = malloc(blen + 1);
    trc_record *out = malloc((n + 1) * sizeof *out);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if (!buf || !back || !out || !cc || !dc) {
        fprintf(stderr, "trc_bench: out of memory\n");
        return 1;
    }
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);

    figure fig[5] = {{"paper", 1e9, 1e9, 0}, {"stack", 1e9, 1e9, 0},
                     {"stack2", 1e9, 1e9, 0}, {"lz4-1", 1e9, 1e9, 0},
                     {"zstd-1", 1e9, 1e9, 0}};
    int on[5] = {1, 1, 1, 1, 1};
    if (argc > 3) {
        int known = !strcmp(argv[3], "none");
        for (int m = 0; m < 5; m++) {
            on[m] = !strcmp(argv[3], fig[m].name);
            known |= on[m];
        }
        if (!known) {
            fprintf(stderr, "trc_bench: unknown codec '%s' (paper, stack, "
                            "stack2, lz4-1, zstd-1, none)\n", argv[3]);
            return 2;
        }
    }
    for (int k = 0; k < runs; k++) {
        for (int m = 0; m < 3; m++)
            if (on[m] && run_trc(&fig[m], &ps[m], in, n, buf, cap, out))
                return 1;
        if ((on[3] && run_lz4(&fig[3], bin, blen, buf, cap, back)) ||
            (on[4] && run_zstd(&fig[4], cc, dc, bin, blen, buf, cap, back)))
            return 1;
    }
    printf("trace=%s records=%zu bin_bytes=%zu runs=%d\n", argv[1], n, blen,
           runs);
    for (int m = 0; m < 5; m++)
        if (on[m])
            printf("codec=%s bytes=%zu bits_per_record=%.3f enc_mrec_s=%.1f "
                   "dec_mrec_s=%.1f enc_mb_s=%.1f dec_mb_s=%.1f\n",
                   fig[m].name, fig[m].bytes,
                   8.0 * (double)fig[m].bytes / (double)n,
                   (double)n / fig[m].enc / 1e6, (double)n / fig[m].dec / 1e6,
                   (double)blen / fig[m].enc / 1e6,
                   (double)blen / fig[m].dec / 1e6);
    ZSTD_freeCCtx(cc);
    ZSTD_freeDCtx(dc);
    free(in);
    free(bin);
    free(buf);
    free(back);
    free(out);
    return 0;
}
