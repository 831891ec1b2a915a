/* wl_sort.c - module "sort": recursive quicksort (the trace shows recursion). */
#include <string.h>

#include "wl.h"

static int before(const wl_entry *a, const wl_entry *b)
{
    if (a->count != b->count)
        return a->count > b->count;
    return strcmp(a->word, b->word) < 0;
}

static size_t partition(wl_entry **v, size_t n)
{
    wl_entry *pivot = v[n / 2], *t;
    v[n / 2] = v[n - 1];
    v[n - 1] = pivot;
    size_t s = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (before(v[i], pivot)) {
            t = v[i];
            v[i] = v[s];
            v[s++] = t;
        }
    v[n - 1] = v[s];
    v[s] = pivot;
    return s;
}

void wl_sort(wl_entry **v, size_t n)
{
    if (n < 2)
        return;
    size_t p = partition(v, n);
    wl_sort(v, p);
    wl_sort(v + p + 1, n - p - 1);
}
