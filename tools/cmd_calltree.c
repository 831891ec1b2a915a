/*
 * cmd_calltree.c - `trc calltree`: the calling-context tree of a trace with
 * self and total time per node, printed "name (self / total)" indented by
 * depth (seed paper 002), and that paper's two abstractions:
 *   method 1 (--min-fraction F): keep the children that cover F of the
 *     caller's total, intermediate nodes first, then by total time;
 *   method 2 (--modules MAP): merge callees of the caller's module into it.
 * Unmatched exits, longjmp unwinding and recursion: docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    size_t node;
    uint64_t start;
} frame;

typedef struct {
    uint32_t thread;
    size_t root;
    frame *st;
    size_t depth, cap;
} thread_state;

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

static size_t node_new(tree *t, size_t parent, uint32_t fn)
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

static size_t child_of(tree *t, size_t parent, uint32_t fn)
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

/* ---- Options and module map ------------------------------------------------ */

typedef struct {
    const host_symmap *sym;
    uint32_t *mod; /* module index by function id, UINT32_MAX = own module */
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

static uint64_t module_of(const opts *o, uint32_t fn)
{
    if (fn < o->nmod_fn && o->mod[fn] != UINT32_MAX)
        return o->mod[fn];
    return (uint64_t)o->nmodname + fn; /* its own module */
}

/* Lines "MODULE FUNC..." or "MODULE: FUNC..."; FUNC a name or numeric id. */
static int load_modules(opts *o, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("%s: cannot open module map", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
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
        o->modname = realloc(o->modname, (o->nmodname + 1) * sizeof *o->modname);
        if (!o->modname || !(o->modname[o->nmodname] = strdup(m)))
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
            if (id >= o->nmod_fn) {
                size_t nn = o->nmod_fn ? o->nmod_fn : 256;
                while (nn <= id)
                    nn *= 2;
                o->mod = realloc(o->mod, nn * sizeof *o->mod);
                if (!o->mod)
                    oom();
                for (size_t k = o->nmod_fn; k < nn; k++)
                    o->mod[k] = UINT32_MAX;
                o->nmod_fn = nn;
            }
            o->mod[id] = mi;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- Tree transformations ------------------------------------------------ */

static void compute_self(tree *t)
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
            size_t nk = t->n[c].nkid;
            size_t *ks = t->n[c].kid;
            t->n[c].kid = NULL;
            t->n[c].nkid = t->n[c].capkid = 0;
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
        size_t nk = t->n[c].nkid;
        size_t *ks = t->n[c].kid;
        t->n[c].kid = NULL;
        t->n[c].nkid = t->n[c].capkid = 0;
        for (size_t j = 0; j < nk; j++)
            absorb(t, o, p, ks[j]);
        free(ks);
    } else {
        add_combine(t, p, c);
    }
}

static void merge_modules(tree *t, const opts *o, size_t p)
{
    size_t nk = t->n[p].nkid;
    size_t *ks = t->n[p].kid;
    t->n[p].kid = NULL;
    t->n[p].nkid = t->n[p].capkid = 0;
    for (size_t j = 0; j < nk; j++)
        absorb(t, o, p, ks[j]);
    free(ks);
    for (size_t j = 0; j < t->n[p].nkid; j++)
        merge_modules(t, o, t->n[p].kid[j]);
}

/* mixed: the subtree below n holds a module other than n's own. Returns the
 * subtree's single module, or UINT64_MAX when mixed. */
static uint64_t mark_mixed(tree *t, const opts *o, size_t n)
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

static const tree *sort_tree;
static int by_total(const void *a, const void *b)
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
static void select_fraction(tree *t, const opts *o, size_t p)
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

/* ---- Printing ------------------------------------------------------------- */

static void put_time(FILE *f, const opts *o, uint64_t ticks)
{
    if (o->unit == 0) {
        fprintf(f, "%" PRIu64, ticks);
        return;
    }
    double ns = (double)ticks * (double)o->tick_ns;
    if (o->unit == 1)
        fprintf(f, "%.0f", ns);
    else
        fprintf(f, "%.3f", o->unit == 2 ? ns / 1e3 : ns / 1e6);
}

static void print_node(FILE *f, tree *t, const opts *o, size_t i, long depth)
{
    node *n = &t->n[i];
    char buf[24];
    for (long d = 0; d < depth; d++)
        fputs("  ", f);
    fputs(host_fn_name(o->sym, n->fn, buf), f);
    if (o->nmodname) {
        uint64_t m = module_of(o, n->fn);
        if (m < o->nmodname)
            fprintf(f, " [%s]", o->modname[m]);
    }
    fputs(" (", f);
    put_time(f, o, n->self);
    fputs(" / ", f);
    put_time(f, o, n->total);
    fputc(')', f);
    if (o->calls)
        fprintf(f, " x%" PRIu64, n->calls);
    if (o->calls && n->dropped)
        fprintf(f, " +%" PRIu64 " folded", n->dropped);
    fputc('\n', f);
    if (o->max_depth >= 0 && depth + 1 >= o->max_depth)
        return;
    sort_tree = t;
    if (n->nkid > 1)
        qsort(n->kid, n->nkid, sizeof *n->kid, by_total);
    for (size_t j = 0; j < t->n[i].nkid; j++)
        print_node(f, t, o, t->n[i].kid[j], depth + 1);
}

static void usage(void)
{
    fprintf(stderr,
        "usage: trc calltree IN [--syms MAP] [--min-fraction F] [--modules MAP]\n"
        "         [--no-merge] [--depth N] [--calls] [--unit ticks|ns|us|ms]\n"
        "         [--tick NS] [--thread-type T] [--raw] [params]\n"
        "  --modules MAP: method 2 (merge); with --no-merge the map only marks\n"
        "  the intermediate nodes method 1 keeps first\n"
        "  prints \"name (self / total)\" indented by depth\n");
}

static thread_state *thread_get(tree *t, thread_state **ts, size_t *nts,
                                uint32_t id)
{
    for (size_t i = 0; i < *nts; i++)
        if ((*ts)[i].thread == id)
            return &(*ts)[i];
    *ts = realloc(*ts, (*nts + 1) * sizeof **ts);
    if (!*ts)
        oom();
    thread_state *s = &(*ts)[(*nts)++];
    memset(s, 0, sizeof *s);
    s->thread = id;
    s->root = node_new(t, NONE, ROOT_FN);
    return s;
}

int cmd_calltree(int argc, char **argv)
{
    trc_params p = trc_params_paper();
    int given = 0, raw = 0, no_merge = 0;
    const char *in = NULL, *syms = NULL, *modules = NULL;
    uint64_t thread_type = HOST_OS_THREAD, tick = 0;
    opts o;
    memset(&o, 0, sizeof o);
    o.max_depth = -1;

    for (int i = 1; i < argc;) {
        int r = cli_param_option(argc, argv, &i, &p, &given);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (!strcmp(a, "--syms") && v) {
            syms = v;
        } else if (!strcmp(a, "--modules") && v) {
            modules = v;
        } else if (!strcmp(a, "--min-fraction") && v) {
            char *end;
            o.min_fraction = strtod(v, &end);
            if (*end || !(o.min_fraction > 0 && o.min_fraction <= 1)) {
                cli_error("calltree: --min-fraction takes 0 < F <= 1");
                return 2;
            }
        } else if (!strcmp(a, "--depth") && v && !host_parse_u64(v, &x)) {
            o.max_depth = (long)x;
        } else if (!strcmp(a, "--tick") && v && !host_parse_u64(v, &x) && x) {
            tick = x;
        } else if (!strcmp(a, "--thread-type") && v && !host_parse_u64(v, &x)) {
            thread_type = x; /* 0 disables */
        } else if (!strcmp(a, "--unit") && v) {
            static const char *const u[] = {"ticks", "ns", "us", "ms"};
            o.unit = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(v, u[k]))
                    o.unit = k;
            if (o.unit < 0) {
                cli_error("calltree: --unit ticks|ns|us|ms");
                return 2;
            }
        } else if (!strcmp(a, "--no-merge")) {
            no_merge = 1;
            i++;
            continue;
        } else if (!strcmp(a, "--calls")) {
            o.calls = 1;
            i++;
            continue;
        } else if (!strcmp(a, "--raw")) {
            raw = 1;
            i++;
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            cli_error("calltree: unknown option or bad value '%s'", a);
            usage();
            return 2;
        } else if (!in) {
            in = a;
            i++;
            continue;
        } else {
            usage();
            return 2;
        }
        i += 2;
    }
    if (!in) {
        usage();
        return 2;
    }

    char *side = syms ? NULL : host_sidecar_symmap(in);
    host_symmap *sm = NULL;
    if (syms || side) {
        sm = host_symmap_load(syms ? syms : side);
        free(side);
        if (!sm)
            return 1;
    }
    o.sym = sm;
    host_timebase tb = host_symmap_timebase(sm);
    if (!tb.tick_ns)
        host_timebase_from_file(in, &tb);
    o.tick_ns = tick ? tick : tb.tick_ns ? tb.tick_ns : 10;
    if (modules) {
        if (load_modules(&o, modules)) {
            for (size_t i = 0; i < o.nmodname; i++)
                free(o.modname[i]);
            free(o.modname);
            free(o.mod);
            host_symmap_free(sm);
            return 1;
        }
        o.method2 = !no_merge;
    }

    cli_reader *rd = cli_reader_open(in, &p, raw);
    if (!rd) {
        host_symmap_free(sm);
        return 1;
    }
    tree t;
    memset(&t, 0, sizeof t);
    thread_state *ts = NULL;
    size_t nts = 0;
    thread_state *cur = thread_get(&t, &ts, &nts, 0);
    uint64_t now = 0, nrec = 0, unmatched_exit = 0, unwound = 0, lost = 0;
    trc_record r;
    int rr;
    while ((rr = cli_reader_next(rd, &r)) > 0) {
        now += r.delta;
        nrec++;
        if ((nrec & 0x3FFFFF) == 0)
            fprintf(stderr, "calltree: %" PRIu64 " records\n", nrec);
        if (r.kind == TRC_ENTRY) {
            size_t parent = cur->depth ? cur->st[cur->depth - 1].node : cur->root;
            size_t c = child_of(&t, parent, r.a);
            t.n[c].calls++;
            if (cur->depth == cur->cap) {
                cur->cap = cur->cap ? cur->cap * 2 : 256;
                cur->st = realloc(cur->st, cur->cap * sizeof *cur->st);
                if (!cur->st)
                    oom();
            }
            cur->st[cur->depth].node = c;
            cur->st[cur->depth].start = now;
            cur->depth++;
        } else if (r.kind == TRC_EXIT) {
            size_t d = cur->depth;
            while (d > 0 && t.n[cur->st[d - 1].node].fn != r.a)
                d--;
            if (d == 0) {
                unmatched_exit++; /* entered before the trace, or lost */
                continue;
            }
            /* Frames above the match were left by longjmp: they end here. */
            while (cur->depth >= d) {
                frame *fr = &cur->st[--cur->depth];
                t.n[fr->node].total += now - fr->start;
                if (cur->depth >= d)
                    unwound++;
            }
        } else if (r.kind == TRC_OS) {
            if (thread_type && r.a == thread_type) {
                cur = thread_get(&t, &ts, &nts, r.b);
            }
        } else if (r.kind == TRC_LOST) {
            lost += r.a;
        }
    }
    cli_reader_close(rd);
    int rc = 0;
    if (rr < 0) {
        rc = 1;
        for (size_t k = 0; k < nts; k++)
            free(ts[k].st);
        goto done;
    }
    uint64_t open_at_end = 0;
    for (size_t k = 0; k < nts; k++) {
        while (ts[k].depth) {
            frame *fr = &ts[k].st[--ts[k].depth];
            t.n[fr->node].total += now - fr->start;
            open_at_end++;
        }
        free(ts[k].st);
        /* The thread's root spans its top-level calls. */
        node *root = &t.n[ts[k].root];
        for (size_t j = 0; j < root->nkid; j++)
            root->total += t.n[root->kid[j]].total;
    }
    compute_self(&t);
    for (size_t k = 0; k < nts; k++) {
        if (o.method2)
            merge_modules(&t, &o, ts[k].root);
        if (o.nmodname)
            mark_mixed(&t, &o, ts[k].root);
        if (o.min_fraction > 0) {
            node *root = &t.n[ts[k].root];
            for (size_t j = 0; j < root->nkid; j++)
                select_fraction(&t, &o, root->kid[j]);
        }
    }

    for (size_t k = 0; k < nts; k++) {
        node *root = &t.n[ts[k].root];
        if (nts > 1) {
            if (!root->nkid)
                continue;
            printf("# thread %" PRIu32 "\n", ts[k].thread);
        }
        sort_tree = &t;
        if (root->nkid > 1)
            qsort(root->kid, root->nkid, sizeof *root->kid, by_total);
        for (size_t j = 0; j < t.n[ts[k].root].nkid; j++)
            print_node(stdout, &t, &o, t.n[ts[k].root].kid[j], 0);
    }
    fflush(stdout);
    fprintf(stderr, "calltree: %" PRIu64 " records, %zu nodes, %" PRIu64
            " exits without entry (ignored), %" PRIu64 " entries unwound by a "
            "later exit, %" PRIu64 " open at the end, %" PRIu64 " lost\n",
            nrec, t.nn - nts, unmatched_exit, unwound, open_at_end, lost);
done:
    for (size_t i = 0; i < t.nn; i++)
        free(t.n[i].kid);
    free(t.n);
    free(t.hash);
    free(ts);
    for (size_t i = 0; i < o.nmodname; i++)
        free(o.modname[i]);
    free(o.modname);
    free(o.mod);
    host_symmap_free(sm);
    return rc;
}
