/* wl_table.c - module "table": a chained hash table of word counts. */
#include <stdlib.h>
#include <string.h>

#include "wl.h"

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void wl_table_init(wl_table *t, size_t nslot)
{
    t->slot = calloc(nslot, sizeof *t->slot);
    t->nslot = t->slot ? nslot : 0;
    t->n = 0;
}

static wl_entry *find(const wl_table *t, const char *word, uint32_t h)
{
    for (wl_entry *e = t->slot[h % t->nslot]; e; e = e->next)
        if (!strcmp(e->word, word))
            return e;
    return NULL;
}

void wl_table_add(wl_table *t, const char *word)
{
    if (!t->nslot)
        return;
    uint32_t h = hash(word);
    wl_entry *e = find(t, word, h);
    if (e) {
        e->count++;
        return;
    }
    e = malloc(sizeof *e);
    if (!e || !(e->word = strdup(word))) {
        free(e);
        return;
    }
    e->count = 1;
    e->next = t->slot[h % t->nslot];
    t->slot[h % t->nslot] = e;
    t->n++;
}

size_t wl_table_list(const wl_table *t, wl_entry **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nslot; i++)
        for (wl_entry *e = t->slot[i]; e && n < cap; e = e->next)
            out[n++] = e;
    return n;
}

void wl_table_free(wl_table *t)
{
    for (size_t i = 0; i < t->nslot; i++)
        for (wl_entry *e = t->slot[i], *nx; e; e = nx) {
            nx = e->next;
            free(e->word);
            free(e);
        }
    free(t->slot);
}
