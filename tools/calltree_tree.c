/*
 * calltree_tree.c - the calling-context tree of `trc calltree` (a node per
 * call path, found through a hash of (parent, function)), the module map,
 * and seed paper 002's two abstractions:
 *   method 1 (--min-fraction F): keep the children that cover F of the
 *     caller's total, intermediate nodes first, then by total time;
 *   method 2 (--modules MAP): merge callees of the caller's module into it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

static void oom(void)
{
    cli_error("calltree: out of memory");
    exit(1);
}


static size_t hslot(const tree *t, size_t parent, uint32_t fn)
{
    uint64_t h = ((uint64_t)parent * 0x9E3779B97F4A7C15u) ^ (fn * 0xC2B2AE3D27D4EB4Fu);
    h ^= h >> 29;
    return (size_t)h & (t->hcap - 1);
}

static void kid_add(tree *t, size_t p, size_t k)
{
    node *n = &t->n[p];
    if (n->nkid == n->capkid) {
        n->capkid = n->capkid ? n->capkid * 2 : 4;
        n->kid = realloc(n->kid, n->capkid * sizeof *n->kid);
        if (!n->kid)
            oom();
    }
    n->kid[n->nkid++] = k;
}

/* Takes p's children from it (p is left with none): the array, which the
 * caller frees, and their count in *nk. */
static size_t *kids_take(tree *t, size_t p, size_t *nk)
{
    size_t *ks = t->n[p].kid;
    *nk = t->n[p].nkid;
    t->n[p].kid = NULL;
    t->n[p].nkid = t->n[p].capkid = 0;
    return ks;
}

size_t node_new(tree *t, size_t parent, uint32_t fn)
{
    if (t->nn == t->capn) {
        t->capn = t->capn ? t->capn * 2 : 1024;
        t->n = realloc(t->n, t->capn * sizeof *t->n);
        if (!t->n)
            oom();
    }
    size_t i = t->nn++;
    memset(&t->n[i], 0, sizeof t->n[i]);
    t->n[i].fn = fn;
    t->n[i].parent = parent;
    if (parent != NONE)
        kid_add(t, parent, i);
    return i;
}

static void hash_grow(tree *t)
{
    size_t old = t->hcap;
    size_t *oh = t->hash;
    t->hcap = old ? old * 2 : 4096;
    t->hash = malloc(t->hcap * sizeof *t->hash);
    if (!t->hash)
        oom();
    for (size_t i = 0; i < t->hcap; i++)
        t->hash[i] = NONE;
    for (size_t i = 0; i < old; i++)
        if (oh[i] != NONE) {
            size_t s = hslot(t, t->n[oh[i]].parent, t->n[oh[i]].fn);
            while (t->hash[s] != NONE)
                s = (s + 1) & (t->hcap - 1);
            t->hash[s] = oh[i];
        }
    free(oh);
}

size_t child_of(tree *t, size_t parent, uint32_t fn)
{
    if (2 * (t->nn + 1) > t->hcap)
        hash_grow(t);
    size_t s = hslot(t, parent, fn);
    for (; t->hash[s] != NONE; s = (s + 1) & (t->hcap - 1)) {
        node *n = &t->n[t->hash[s]];
        if (n->parent == parent && n->fn == fn)
            return t->hash[s];
    }
    size_t i = node_new(t, parent, fn);
    t->hash[s] = i;
    return i;
}

/* ---- Module map ------------------------------------------------------------ */

static int by_fn(const void *a, const void *b)
{
    const fn_module *x = a, *y = b;
    return (x->fn > y->fn) - (x->fn < y->fn);
}

uint64_t module_of(const opts *o, uint32_t fn)
{
    size_t lo = 0, hi = o->nmod_fn;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->mod[mid].fn < fn)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < o->nmod_fn && o->mod[lo].fn == fn)
        return o->mod[lo].mod;
    return (uint64_t)o->nmodname + fn; /* its own module */
}

/* Lines "MODULE FUNC..." or "MODULE: FUNC..."; FUNC a name or numeric id.
 * A function named twice belongs to its last module. */
int load_modules(opts *o, const char *path)
{
    FILE *f = cli_in_open(path);
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0, capmod = 0, capname = 0;
    unsigned long ln = 0;
    int rc = 0;
    while (getline(&line, &cap, f) >= 0) {
        ln++;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#')
            continue;
        char *m = strtok(s, " \t\r\n");
        if (!m)
            continue;
        size_t ml = strlen(m);
        if (ml > 1 && m[ml - 1] == ':')
            m[ml - 1] = 0;
        if (o->nmodname == capname) {
            capname = capname ? 2 * capname : 16;
            o->modname = realloc(o->modname, capname * sizeof *o->modname);
            if (!o->modname)
                oom();
        }
        if (!(o->modname[o->nmodname] = strdup(m)))
            oom();
        uint32_t mi = (uint32_t)o->nmodname++;
        char *fn;
        while ((fn = strtok(NULL, " \t\r\n,")) != NULL) {
            uint32_t id;
            uint64_t v;
            if (host_symmap_find(o->sym, fn, &id)) {
                /* by name */
            } else if (!host_parse_u64(fn, &v) && v < UINT32_MAX) {
                id = (uint32_t)v;
            } else {
                cli_error("%s:%lu: function '%s' is neither a name in the "
                          "symbol map nor an id", path, ln, fn);
                rc = -1;
                continue;
            }
            if (o->nmod_fn == capmod) {
                capmod = capmod ? 2 * capmod : 256;
                o->mod = realloc(o->mod, capmod * sizeof *o->mod);
                if (!o->mod)
                    oom();
            }
            o->mod[o->nmod_fn].fn = id;
            o->mod[o->nmod_fn++].mod = mi;
        }
    }
    if (ferror(f)) {
        cli_in_error(f, path);
        rc = -1;
    }
    free(line);
    if (f != stdin)
        fclose(f);
    /* sorted by fn, the last line's module kept for a function named twice */
    fn_module *tmp = malloc((o->nmod_fn ? o->nmod_fn : 1) * sizeof *tmp);
    if (!tmp)
        oom();
    for (size_t w = 1; w < o->nmod_fn; w *= 2) { /* stable bottom-up merge */
        for (size_t i = 0; i < o->nmod_fn; i += 2 * w) {
            size_t a = i, am = i + w < o->nmod_fn ? i + w : o->nmod_fn, b = am;
            size_t bm = i + 2 * w < o->nmod_fn ? i + 2 * w : o->nmod_fn, k = i;
            while (a < am || b < bm)
                tmp[k++] = b >= bm || (a < am && by_fn(&o->mod[a], &o->mod[b]) <= 0)
                               ? o->mod[a++] : o->mod[b++];
        }
        memcpy(o->mod, tmp, o->nmod_fn * sizeof *tmp);
    }
    free(tmp);
    size_t k = 0;
    for (size_t i = 0; i < o->nmod_fn; i++) {
        if (k && o->mod[k - 1].fn == o->mod[i].fn)
            o->mod[k - 1] = o->mod[i];
        else
            o->mod[k++] = o->mod[i];
    }
    o->nmod_fn = k;
    return rc;
}

void modules_free(opts *o)
{
    for (size_t i = 0; i < o->nmodname; i++)
        free(o->modname[i]);
    free(o->modname);
    free(o->mod);
}

void tree_free(tree *t)
{
    for (size_t i = 0; i < t->nn; i++)
        free(t->n[i].kid);
    free(t->n);
    free(t->hash);
}

/* ---- Tree transformations ------------------------------------------------ */

void compute_self(tree *t)
{
    /* Children always have larger indices than their parent. */
    for (size_t i = 0; i < t->nn; i++)
        t->n[i].self = t->n[i].total;
    for (size_t i = t->nn; i-- > 0;)
        if (t->n[i].parent != NONE)
            t->n[t->n[i].parent].self -= t->n[i].total;
}

/* Adds subtree c under p, combining with a child of the same function. */
static void add_combine(tree *t, size_t p, size_t c)
{
    node *pn = &t->n[p];
    for (size_t k = 0; k < pn->nkid; k++) {
        size_t e = pn->kid[k];
        if (t->n[e].fn == t->n[c].fn) {
            t->n[e].total += t->n[c].total;
            t->n[e].self += t->n[c].self;
            t->n[e].calls += t->n[c].calls;
            size_t nk, *ks = kids_take(t, c, &nk);
            for (size_t j = 0; j < nk; j++)
                add_combine(t, e, ks[j]);
            free(ks);
            return;
        }
    }
    t->n[c].parent = p;
    kid_add(t, p, c);
}

/* Method 2: callees of p's module are absorbed into p (their self time is
 * added to p's), their other-module callees hang from p directly. */
static void absorb(tree *t, const opts *o, size_t p, size_t c)
{
    if (t->n[p].fn != ROOT_FN && module_of(o, t->n[c].fn) == module_of(o, t->n[p].fn)) {
        t->n[p].self += t->n[c].self;
        size_t nk, *ks = kids_take(t, c, &nk);
        for (size_t j = 0; j < nk; j++)
            absorb(t, o, p, ks[j]);
        free(ks);
    } else {
        add_combine(t, p, c);
    }
}

void merge_modules(tree *t, const opts *o, size_t p)
{
    size_t nk, *ks = kids_take(t, p, &nk);
    for (size_t j = 0; j < nk; j++)
        absorb(t, o, p, ks[j]);
    free(ks);
    for (size_t j = 0; j < t->n[p].nkid; j++)
        merge_modules(t, o, t->n[p].kid[j]);
}

/* mixed: the subtree below n holds a module other than n's own. Returns the
 * subtree's single module, or UINT64_MAX when mixed. */
uint64_t mark_mixed(tree *t, const opts *o, size_t n)
{
    uint64_t m = t->n[n].fn == ROOT_FN ? UINT64_MAX - 1 : module_of(o, t->n[n].fn);
    int mixed = 0;
    for (size_t j = 0; j < t->n[n].nkid; j++) {
        uint64_t k = mark_mixed(t, o, t->n[n].kid[j]);
        if (k != m)
            mixed = 1;
    }
    t->n[n].mixed = mixed;
    return mixed ? UINT64_MAX : m;
}

const tree *sort_tree;
int by_total(const void *a, const void *b)
{
    const node *x = &sort_tree->n[*(const size_t *)a];
    const node *y = &sort_tree->n[*(const size_t *)b];
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* Intermediate (mixed) children first when a module map is given, each
 * group by total time, largest first. */
static int by_select(const void *a, const void *b)
{
    const node *x = &sort_tree->n[*(const size_t *)a];
    const node *y = &sort_tree->n[*(const size_t *)b];
    if (x->mixed != y->mixed)
        return x->mixed ? -1 : 1;
    return by_total(a, b);
}

/* Method 1: keep children until they cover fraction f of p's total; the
 * others are folded into p's self time. */
void select_fraction(tree *t, const opts *o, size_t p)
{
    node *pn = &t->n[p];
    sort_tree = t;
    if (pn->nkid > 1)
        qsort(pn->kid, pn->nkid, sizeof *pn->kid, by_select);
    double need = o->min_fraction * (double)pn->total;
    uint64_t sum = 0;
    size_t keep = 0;
    while (keep < pn->nkid && (double)sum < need)
        sum += t->n[pn->kid[keep++]].total;
    for (size_t j = keep; j < pn->nkid; j++) {
        pn->self += t->n[pn->kid[j]].total;
        pn->dropped++;
    }
    pn->nkid = keep;
    for (size_t j = 0; j < keep; j++)
        select_fraction(t, o, t->n[p].kid[j]);
}
