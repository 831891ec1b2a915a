/*
 * trc_bench.c - speed of the C model on one core: encodes and decodes a trace
 * held in memory (no I/O, no text parsing in the timed part), best of R runs.
 * Usage: trc_bench TRACE.txt [RUNS]. Prints one line of key=value figures.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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
        if (len == cap)
            r = realloc(r, (cap *= 2) * sizeof *r);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trc_bench TRACE.txt [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    trc_params p = trc_params_paper();
    size_t n;
    trc_record *in = load(argv[1], &p, &n);
    if (!in)
        return 1;
    size_t cap = n * 20 + 1024;
    uint8_t *buf = malloc(cap);
    trc_record *out = malloc((n + 1) * sizeof *out);
    if (!buf || !out)
        return 1;
    double best_enc = 1e9, best_dec = 1e9;
    size_t bytes = 0;
    for (int k = 0; k < runs; k++) {
        trc_encoder e;
        size_t used, len;
        trc_encoder_init(&e, &p);
        double t0 = now();
        trc_encode(&e, in, n, &used, buf, cap, &len);
        size_t tail;
        trc_encode_end(&e, buf + len, cap - len, &tail);
        double t1 = now();
        bytes = len + tail;
        if (used != n)
            return 1;
        if (t1 - t0 < best_enc)
            best_enc = t1 - t0;

        trc_decoder d;
        size_t got;
        trc_decoder_init(&d, &p);
        t0 = now();
        trc_error err = trc_decode(&d, buf, bytes, &used, out, n + 1, &got, 1);
        t1 = now();
        if (err != TRC_OK || got != n) {
            fprintf(stderr, "decode: %s, %zu of %zu records\n",
                    trc_error_name(err), got, n);
            return 1;
        }
        if (t1 - t0 < best_dec)
            best_dec = t1 - t0;
    }
    for (size_t i = 0; i < n; i++)
        if (in[i].delta != out[i].delta || in[i].kind != out[i].kind ||
            in[i].a != out[i].a || in[i].b != out[i].b) {
            fprintf(stderr, "mismatch at record %zu\n", i);
            return 1;
        }
    printf("records=%zu bytes=%zu bits_per_record=%.3f enc_mrec_s=%.1f "
           "dec_mrec_s=%.1f\n",
           n, bytes, 8.0 * (double)bytes / (double)n, n / best_enc / 1e6,
           n / best_dec / 1e6);
    free(in);
    free(buf);
    free(out);
    return 0;
}
