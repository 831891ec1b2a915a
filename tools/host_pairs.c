/*
 * host_pairs.c - the entry/exit pairing of calltree and export: one call
 * stack per thread; an exit closes the innermost open entry of its function,
 * and the entries above it were left by longjmp.
 */
#include <stdlib.h>
#include <string.h>

#include "host_common.h"

int host_pairs_init(host_pairs *hp)
{
    memset(hp, 0, sizeof *hp);
    int is_new;
    return host_pairs_thread(hp, 0, &is_new);
}

static size_t thread_slot(const host_pairs *hp, uint32_t id)
{
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (hp->hcap - 1);
}

/* Thread values are looked up through a hash: a trace may switch between
 * many threads. */
static int hash_add(host_pairs *hp, size_t k)
{
    if (2 * (hp->nth + 1) > hp->hcap) {
        size_t nc = hp->hcap ? 2 * hp->hcap : 64;
        size_t *h = malloc(nc * sizeof *h);
        if (!h)
            return -1;
        for (size_t i = 0; i < nc; i++)
            h[i] = (size_t)-1;
        free(hp->hash);
        hp->hash = h;
        hp->hcap = nc;
        for (size_t i = 0; i < hp->nth; i++) {
            size_t s = thread_slot(hp, hp->th[i].id);
            while (h[s] != (size_t)-1)
                s = (s + 1) & (nc - 1);
            h[s] = i;
        }
    }
    size_t s = thread_slot(hp, hp->th[k].id);
    while (hp->hash[s] != (size_t)-1)
        s = (s + 1) & (hp->hcap - 1);
    hp->hash[s] = k;
    return 0;
}

int host_pairs_thread(host_pairs *hp, uint32_t id, int *is_new)
{
    *is_new = 0;
    if (hp->nth && hp->th[hp->cur].id == id)
        return 0;
    if (hp->hcap)
        for (size_t s = thread_slot(hp, id); hp->hash[s] != (size_t)-1;
             s = (s + 1) & (hp->hcap - 1))
            if (hp->th[hp->hash[s]].id == id) {
                hp->cur = hp->hash[s];
                return 0;
            }
    if (hp->nth == hp->cap) {
        size_t nc = hp->cap ? 2 * hp->cap : 8;
        host_thread *t = realloc(hp->th, nc * sizeof *t);
        if (!t) {
            cli_error("out of memory");
            return -1;
        }
        hp->th = t;
        hp->cap = nc;
    }
    memset(&hp->th[hp->nth], 0, sizeof hp->th[0]);
    hp->th[hp->nth].id = id;
    if (hash_add(hp, hp->nth)) {
        cli_error("out of memory");
        return -1;
    }
    hp->cur = hp->nth++;
    *is_new = 1;
    return 0;
}

int host_pairs_entry(host_pairs *hp, uint32_t fn, uint64_t tag, uint64_t start)
{
    host_thread *t = &hp->th[hp->cur];
    if (t->depth == HOST_MAX_DEPTH || t->deep) {
        t->deep++;
        hp->too_deep++;
        return 0;
    }
    if (t->depth == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 4;
        host_frame *s = realloc(t->st, nc * sizeof *s);
        if (!s) {
            cli_error("out of memory");
            return -1;
        }
        t->st = s;
        t->cap = nc;
    }
    t->st[t->depth].fn = fn;
    t->st[t->depth].tag = tag;
    t->st[t->depth].start = start;
    t->depth++;
    return 1;
}

long host_pairs_exit(host_pairs *hp, uint32_t fn)
{
    host_thread *t = &hp->th[hp->cur];
    if (t->deep) { /* the innermost open entry is beyond the limit */
        t->deep--;
        return -1;
    }
    size_t d = t->depth;
    while (d > 0 && t->st[d - 1].fn != fn)
        d--;
    if (d == 0)
        return 0;
    long n = (long)(t->depth - d + 1);
    t->depth = d - 1;
    return n;
}

void host_pairs_free(host_pairs *hp)
{
    for (size_t k = 0; k < hp->nth; k++)
        free(hp->th[k].st);
    free(hp->th);
    free(hp->hash);
    memset(hp, 0, sizeof *hp);
}
