/*
 * wl.h - the bundled demo workload: a small word-statistics program in four
 * modules (text, table, sort, calc) with recursion (quicksort, the expression
 * parser) and longjmp error recovery (calc), so that its trace exercises what
 * the host tools must handle. Deterministic: a seed gives the same output.
 */
#ifndef WL_H
#define WL_H

#include <stddef.h>
#include <stdint.h>

/* text: a seeded generator of words and expressions, and a tokenizer */
typedef struct {
    uint64_t state;
} wl_rng;
uint32_t wl_rand(wl_rng *r);
size_t wl_make_text(wl_rng *r, char *buf, size_t cap);
size_t wl_next_word(const char *s, size_t len, size_t *pos, char *word, size_t cap);

/* table: a chained hash table counting words */
typedef struct wl_entry {
    char *word;
    uint32_t count;
    struct wl_entry *next;
} wl_entry;
typedef struct {
    wl_entry **slot;
    size_t nslot, n;
} wl_table;
void wl_table_init(wl_table *t, size_t nslot);
void wl_table_add(wl_table *t, const char *word);
size_t wl_table_list(const wl_table *t, wl_entry **out, size_t cap);
void wl_table_free(wl_table *t);

/* sort: recursive quicksort of entries by count, then word */
void wl_sort(wl_entry **v, size_t n);

/* calc: a recursive-descent evaluator; errors unwind with longjmp */
int wl_calc(const char *expr, long *value); /* 0 ok, -1 error */

#endif
