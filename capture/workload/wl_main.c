/*
 * wl_main.c - driver of the demo workload: `wl [-n KB] [-t THREADS] [-e N]`.
 * Each thread generates KB kilobytes of seeded text, counts its words in a
 * hash table, sorts them and evaluates N generated expressions (some with
 * errors). Prints a checksum that is the same with and without
 * instrumentation.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl.h"

typedef struct {
    unsigned seed;
    size_t kb, nexpr;
    uint64_t sum;
} job;

static void make_expr(wl_rng *r, char *buf, size_t cap, int depth)
{
    size_t n = strlen(buf);
    if (n + 24 >= cap)
        return;
    if (depth > 3 || wl_rand(r) % 3 == 0) {
        snprintf(buf + n, cap - n, "%u", wl_rand(r) % 50);
        return;
    }
    static const char ops[] = "+-*/";
    int paren = wl_rand(r) % 2;
    if (paren)
        strcat(buf, "(");
    make_expr(r, buf, cap, depth + 1);
    n = strlen(buf);
    if (n + 4 < cap) {
        buf[n] = ops[wl_rand(r) % 4];
        buf[n + 1] = 0;
    }
    make_expr(r, buf, cap, depth + 1);
    if (paren && wl_rand(r) % 16)
        strcat(buf, ")"); /* sometimes missing: a syntax error */
}

static void *run(void *arg)
{
    job *j = arg;
    wl_rng r = {j->seed};
    size_t cap = j->kb * 1024;
    char *text = malloc(cap + 1);
    wl_table t;
    wl_table_init(&t, 4099);
    size_t len = wl_make_text(&r, text, cap), pos = 0;
    char word[32];
    while (wl_next_word(text, len, &pos, word, sizeof word))
        wl_table_add(&t, word);
    wl_entry **v = malloc(t.n * sizeof *v);
    size_t n = wl_table_list(&t, v, t.n);
    wl_sort(v, n);
    for (size_t i = 0; i < n && i < 8; i++)
        j->sum = j->sum * 31 + v[i]->count;
    for (size_t i = 0; i < j->nexpr; i++) {
        char e[256] = "";
        long val = 0;
        make_expr(&r, e, sizeof e, 0);
        j->sum = j->sum * 7 + (wl_calc(e, &val) ? 1000003u : (uint64_t)val);
    }
    free(v);
    wl_table_free(&t);
    free(text);
    return NULL;
}

int main(int argc, char **argv)
{
    size_t kb = 64, nexpr = 2000;
    int threads = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n"))
            kb = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "-t"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-e"))
            nexpr = strtoul(argv[i + 1], NULL, 10);
    }
    if (threads < 1 || threads > 64 || kb < 1) {
        fprintf(stderr, "usage: wl [-n KB] [-t THREADS 1..64] [-e EXPRESSIONS]\n");
        return 2;
    }
    job jobs[64];
    pthread_t tid[64];
    for (int i = 0; i < threads; i++) {
        jobs[i].seed = 12345u + (unsigned)i;
        jobs[i].kb = kb;
        jobs[i].nexpr = nexpr;
        jobs[i].sum = 0;
    }
    if (threads == 1) {
        run(&jobs[0]);
    } else {
        for (int i = 0; i < threads; i++)
            pthread_create(&tid[i], NULL, run, &jobs[i]);
        for (int i = 0; i < threads; i++)
            pthread_join(tid[i], NULL);
    }
    uint64_t sum = 0;
    for (int i = 0; i < threads; i++)
        sum = sum * 1000003u + jobs[i].sum;
    printf("wl: %d thread(s), %zu KB each, %zu expressions: checksum %016llx\n",
           threads, kb, nexpr, (unsigned long long)sum);
    return 0;
}
