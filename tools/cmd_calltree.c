/*
 * cmd_calltree.c - `trc calltree`: the calling-context tree of a trace with
 * self and total time per node, printed "name (self / total)" indented by
 * depth (seed paper 002), one tree per thread, and per CPU for a trace of
 * several CPUs (--cpu picks them); the abstractions are in calltree_tree.c.
 * Unmatched exits, longjmp and recursion: docs/host-tools.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

#define INDENT_MAX 64

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
    /* two spaces a level; deeper than INDENT_MAX levels the depth is written
     * instead, so the output stays linear in the tree's size */
    for (long d = 0; d < depth && d < INDENT_MAX; d++)
        fputs("  ", f);
    if (depth > INDENT_MAX)
        fprintf(f, "[%ld] ", depth);
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

/* ---- Building the tree ------------------------------------------------------ */

typedef struct {
    uint64_t nrec, unmatched_exit, unwound, open_at_end, lost;
} counts;

/* The root node of the current thread (made with the thread). */
static size_t root_of(host_pairs *hp)
{
    return (size_t)host_pairs_cur(hp)->user;
}

/* One CPU's pairing and time (each CPU has its own time line). */
typedef struct {
    host_pairs hp;
    uint64_t now;
    int used; /* it has records */
} cpu_state;

static int build(tree *t, cpu_state *cs, const unsigned char *ok, cli_reader *rd,
                 uint32_t thread_type, counts *c)
{
    trc_record r;
    int rr, is_new;
    while ((rr = cli_reader_next(rd, &r)) > 0) {
        if ((++c->nrec & 0x3FFFFF) == 0)
            fprintf(stderr, "calltree: %" PRIu64 " records\n", c->nrec);
        unsigned cpu = cli_reader_cpu(rd);
        if (!ok[cpu])
            continue;
        host_pairs *hp = &cs[cpu].hp;
        uint64_t *now = &cs[cpu].now;
        if (!cs[cpu].used) {
            if (host_pairs_init(hp))
                return -1;
            host_pairs_cur(hp)->user = node_new(t, NONE, ROOT_FN);
            cs[cpu].used = 1;
        }
        *now += r.delta;
        host_thread *th = host_pairs_cur(hp);
        if (r.kind == TRC_ENTRY) {
            size_t parent = th->depth ? (size_t)th->st[th->depth - 1].tag
                                      : root_of(hp);
            size_t node_at = th->depth < HOST_MAX_DEPTH ? child_of(t, parent, r.a)
                                                        : parent;
            if (host_pairs_entry(hp, r.a, node_at, *now) < 0)
                return -1;
            t->n[node_at].calls += th->deep == 0;
        } else if (r.kind == TRC_EXIT) {
            long n = host_pairs_exit(hp, r.a);
            if (n == 0)
                c->unmatched_exit++; /* entered before the trace, or lost */
            /* the match and the frames above it (left by longjmp) end here */
            for (long k = 0; k < n; k++) {
                host_frame *fr = &th->st[th->depth + (size_t)k];
                t->n[fr->tag].total += *now - fr->start;
            }
            if (n > 1)
                c->unwound += (uint64_t)n - 1;
        } else if (r.kind == TRC_OS && thread_type && r.a == thread_type) {
            if (host_pairs_thread(hp, r.b, &is_new))
                return -1;
            if (is_new)
                host_pairs_cur(hp)->user = node_new(t, NONE, ROOT_FN);
        } else if (r.kind == TRC_LOST) {
            c->lost += r.a;
        }
    }
    return rr < 0 ? -1 : 0;
}

/* Frames open at the end end at the last time; roots span their calls. */
static void close_open(tree *t, host_pairs *hp, uint64_t now, counts *c)
{
    for (size_t k = 0; k < hp->nth; k++) {
        host_thread *th = &hp->th[k];
        for (size_t d = th->depth; d-- > 0;) {
            t->n[th->st[d].tag].total += now - th->st[d].start;
            c->open_at_end++;
        }
        th->depth = 0;
        node *root = &t->n[th->user];
        for (size_t j = 0; j < root->nkid; j++)
            root->total += t->n[root->kid[j]].total;
    }
}

/* (compute_self(t) first, once for all CPUs.) */
static void transform_and_print(tree *t, host_pairs *hp, const opts *o, int cpu)
{
    for (size_t k = 0; k < hp->nth; k++) {
        size_t root = (size_t)hp->th[k].user;
        if (o->method2)
            merge_modules(t, o, root);
        if (o->nmodname)
            mark_mixed(t, o, root);
        if (o->min_fraction > 0)
            for (size_t j = 0; j < t->n[root].nkid; j++)
                select_fraction(t, o, t->n[root].kid[j]);
    }
    size_t calls = 0;
    for (size_t k = 0; k < hp->nth; k++)
        calls += t->n[hp->th[k].user].nkid;
    if (cpu >= 0 && !calls)
        return; /* a CPU without function records has no tree */
    if (cpu >= 0)
        printf("# cpu %d\n", cpu);
    for (size_t k = 0; k < hp->nth; k++) {
        size_t root = (size_t)hp->th[k].user;
        if (hp->nth > 1) {
            if (!t->n[root].nkid)
                continue;
            printf("# thread %" PRIu32 "\n", hp->th[k].id);
        }
        sort_tree = t;
        if (t->n[root].nkid > 1)
            qsort(t->n[root].kid, t->n[root].nkid, sizeof(size_t), by_total);
        for (size_t j = 0; j < t->n[root].nkid; j++)
            print_node(stdout, t, o, t->n[root].kid[j], 0);
    }
}

int cmd_calltree(const cli_args *a)
{
    if (cli_given(a, OPT_NO_MERGE) && !cli_given(a, OPT_MODULES))
        return cli_reject(a, OPT_NO_MERGE, "needs --modules");
    opts o;
    memset(&o, 0, sizeof o);
    o.max_depth = cli_given(a, OPT_DEPTH) ? (long)a->num[OPT_DEPTH] : -1;
    o.min_fraction = cli_given(a, OPT_MIN_FRACTION) ? a->frac : 0;
    o.calls = cli_given(a, OPT_CALLS);
    o.unit = cli_given(a, OPT_UNIT) ? (int)a->num[OPT_UNIT] : 0;
    host_trace tr;
    if (host_trace_open(&tr, a, a->pos[0]))
        return 1;
    o.sym = tr.sym;
    o.tick_ns = tr.tick_ns;
    if (o.unit != 0)
        host_trace_note(&tr, "calltree", a->pos[0]);
    if (cli_given(a, OPT_MODULES)) {
        if (load_modules(&o, a->str[OPT_MODULES])) {
            modules_free(&o);
            host_trace_close(&tr);
            return 1;
        }
        o.method2 = !cli_given(a, OPT_NO_MERGE);
    }
    tree t;
    memset(&t, 0, sizeof t);
    static cpu_state cs[TRC_CPU_MAX];
    unsigned char ok[TRC_CPU_MAX];
    unsigned ncpu = cli_reader_cpus(tr.rd);
    memset(cs, 0, sizeof cs);
    counts c;
    memset(&c, 0, sizeof c);
    size_t roots = 0;
    int rc = host_cpus(a, ncpu, ok) || build(&t, cs, ok, tr.rd, host_thread_type(a), &c);
    if (!rc) {
        /* one tree per CPU (a heading each when the trace has several) */
        for (unsigned k = 0; k < ncpu; k++)
            if (cs[k].used)
                close_open(&t, &cs[k].hp, cs[k].now, &c);
        compute_self(&t);
        for (unsigned k = 0; k < ncpu; k++) {
            if (!cs[k].used)
                continue;
            transform_and_print(&t, &cs[k].hp, &o, ncpu > 1 ? (int)k : -1);
            roots += cs[k].hp.nth;
        }
        fflush(stdout);
        fprintf(stderr, "calltree: %" PRIu64 " records, %zu nodes, %" PRIu64
                " exits without entry (ignored), %" PRIu64 " entries unwound by "
                "a later exit, %" PRIu64 " open at the end, %" PRIu64 " lost\n",
                c.nrec, t.nn - roots, c.unmatched_exit, c.unwound,
                c.open_at_end, c.lost);
        uint64_t too_deep = 0;
        for (unsigned k = 0; k < ncpu; k++)
            too_deep += cs[k].hp.too_deep;
        if (too_deep)
            fprintf(stderr, "calltree: %" PRIu64 " entries deeper than %d "
                    "levels counted in their caller's time\n", too_deep,
                    HOST_MAX_DEPTH);
    }
    for (unsigned k = 0; k < ncpu; k++)
        if (cs[k].used)
            host_pairs_free(&cs[k].hp);
    tree_free(&t);
    modules_free(&o);
    host_trace_close(&tr);
    return rc ? 1 : 0;
}
