/*
 * calltree.h - the calling-context tree of `trc calltree` and seed paper
 * 002's two abstractions on it. Internal to tools/.
 */
#ifndef CALLTREE_H
#define CALLTREE_H

#include <stddef.h>
#include <stdint.h>

#include "host_common.h"

#define NONE ((size_t)-1)
#define ROOT_FN UINT32_MAX

typedef struct {
    uint32_t fn;
    size_t parent;
    uint64_t total, self, calls;
    uint64_t dropped;  /* children folded into self by method 1 */
    size_t *kid;
    size_t nkid, capkid;
    int mixed; /* subtree holds a module other than this node's */
} node;

typedef struct {
    node *n;
    size_t nn, capn;
    size_t *hash; /* (parent, fn) -> node, open addressing */
    size_t hcap;
} tree;

typedef struct {
    uint32_t fn, mod;
} fn_module;

typedef struct {
    const host_symmap *sym;
    fn_module *mod;  /* sorted by fn */
    size_t nmod_fn;
    char **modname;
    size_t nmodname;
    double min_fraction;
    int method2;
    long max_depth;
    int calls;
    uint64_t tick_ns;
    int unit; /* 0 ticks, 1 ns, 2 us, 3 ms */
} opts;

size_t node_new(tree *t, size_t parent, uint32_t fn);
/* The child of parent for fn, made when new. */
size_t child_of(tree *t, size_t parent, uint32_t fn);
void tree_free(tree *t);

/* Module map: lines "MODULE FUNC..." (names or ids). 0 ok, -1 error. */
int load_modules(opts *o, const char *path);
uint64_t module_of(const opts *o, uint32_t fn);
void modules_free(opts *o);

void compute_self(tree *t);
void merge_modules(tree *t, const opts *o, size_t p);
uint64_t mark_mixed(tree *t, const opts *o, size_t n);
int by_total(const void *a, const void *b);
extern const tree *sort_tree;
void select_fraction(tree *t, const opts *o, size_t p);

#endif /* CALLTREE_H */
