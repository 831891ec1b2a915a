/*
 * cmd_export.c - `trc export`: a trace to formats that viewers open.
 *   --perfetto OUT.json  Chrome/Perfetto trace-event JSON (export_json.c)
 *   --ctf DIR            CTF 1.8 for babeltrace2 (export_ctf.c)
 * Every trace record becomes exactly one event. The trace is read twice:
 * pass 1 (here) pairs entries with exits and keeps one flag byte per record;
 * standard input is copied to a temporary file first. How unmatched entries
 * and exits are shown (never invented, never dropped): docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"

int src_open(trace *t)
{
    if (!t->spool) {
        cli_reader_close(t->tr.rd);
        t->tr.rd = cli_open_trace(t->a, t->in);
        return t->tr.rd ? 0 : -1;
    }
    cli_reader_close(t->tr.rd);
    t->tr.rd = NULL;
    int fd = dup(fileno(t->spool));
    FILE *f = fd >= 0 && lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        cli_error("%s: cannot read the copy of standard input: %s", t->in,
                  strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    t->tr.rd = cli_reader_from(f, t->in, &t->a->p, cli_given(t->a, OPT_RAW));
    return t->tr.rd ? 0 : -1;
}

int src_next(trace *t, trc_record *r)
{
    return cli_reader_next(t->tr.rd, r);
}

int src_end(trace *t)
{
    trc_record r;
    int got = cli_reader_next(t->tr.rd, &r);
    if (got > 0)
        cli_error("%s: more than the %zu records of the first pass: the input "
                  "changed while it was read", t->in, t->n);
    return got == 0 ? 0 : -1;
}

unsigned src_cpu(const trace *t)
{
    return cli_reader_cpu(t->tr.rd);
}

/* Standard input cannot be read twice: it is copied to a temporary file. */
static int spool_stdin(trace *t)
{
    FILE *in = cli_in_open("-");
    if (!in)
        return -1;
    if (!(t->spool = tmpfile())) {
        cli_error("-: cannot make a temporary copy: %s", strerror(errno));
        cli_in_close(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    int rc = 0;
    while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, t->spool) != n)
            rc = -1;
    if (!rc && ferror(in)) {
        cli_in_error(in, "-");
        cli_in_close(in);
        return -1;
    }
    cli_in_close(in);
    if (rc || fflush(t->spool)) {
        cli_error("-: cannot make a temporary copy: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static int add_thread(trace *t, size_t *cap, uint32_t id)
{
    if (t->nthread == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        uint32_t *n = realloc(t->thread, nc * sizeof *n);
        if (!n)
            return -1;
        t->thread = n;
        *cap = nc;
    }
    t->thread[t->nthread++] = id;
    return 0;
}

/* Pass 1: flags each record (matched pair, open at the end, else shown as an
 * instant) with the pairing shared with calltree (host_pairs.c), each CPU's
 * records on their own (several CPUs). */
static int add_unwound(trace *t, size_t *cap, uint64_t rec, uint64_t end)
{
    if (t->nunw == *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        unwound_end *n = realloc(t->unw, nc * sizeof *n);
        if (!n)
            return -1;
        t->unw = n;
        *cap = nc;
    }
    t->unw[t->nunw].rec = rec;
    t->unw[t->nunw++].end = end;
    return 0;
}

static int by_rec(const void *a, const void *b)
{
    const unwound_end *x = a, *y = b;
    return (x->rec > y->rec) - (x->rec < y->rec);
}

uint64_t unwound_end_of(const trace *t, size_t *k, uint64_t i)
{
    while (*k < t->nunw && t->unw[*k].rec < i)
        (*k)++;
    return *k < t->nunw && t->unw[*k].rec == i ? t->unw[*k].end : 0;
}

static int pair(trace *t)
{
    static host_pairs hps[TRC_CPU_MAX];
    unsigned char used[TRC_CPU_MAX];
    host_pairs *hpp;
    uint64_t now[TRC_CPU_MAX] = {0}; /* each CPU's time line */
    size_t fcap = 0, thcap = 0, ucap = 0;
    int r = 0, is_new;
    trc_record rec;
    cli_progress_phase("export pass 1 (pairing)");
    memset(used, 0, sizeof used);
    if (src_open(t) || add_thread(t, &thcap, 0))
        goto fail;
    t->ncpu = cli_reader_cpus(t->tr.rd);
    if (host_cpus(t->a, t->ncpu, t->cpu_ok))
        goto fail;
    for (t->n = 0; (r = src_next(t, &rec)) > 0; t->n++) {
        unsigned cpu = src_cpu(t);
        if (!used[cpu] && host_pairs_init(&hps[cpu]))
            goto fail;
        used[cpu] = 1;
        hpp = &hps[cpu];
        size_t i = t->n;
        if (i == fcap) {
            size_t nc = fcap ? 2 * fcap : 1 << 16;
            uint8_t *nf = realloc(t->flag, nc);
            if (!nf)
                goto oom;
            t->flag = nf;
            fcap = nc;
        }
        t->flag[i] = 0;
        now[cpu] += rec.delta;
        if (rec.kind == TRC_ENTRY) {
            int pushed = host_pairs_entry(hpp, rec.a, i, 0);
            if (pushed < 0)
                goto fail;
            if (!pushed)
                t->flag[i] = F_DEEP;
        } else if (rec.kind == TRC_EXIT) {
            long n = host_pairs_exit(hpp, rec.a);
            host_thread *th = host_pairs_cur(hpp);
            if (n < 0)
                t->flag[i] = F_DEEP;
            if (n == 0)
                t->unmatched_exit++;
            if (n > 0) {
                t->unwound += (uint64_t)n - 1;
                t->flag[th->st[th->depth].tag] = F_MATCH;
                t->flag[i] = F_MATCH;
                /* the frames above it, left by longjmp, end here */
                for (long k = 1; k < n; k++) {
                    uint64_t tag = th->st[th->depth + (size_t)k].tag;
                    t->flag[tag] = F_UNWOUND;
                    if (add_unwound(t, &ucap, tag, now[cpu]))
                        goto oom;
                }
            }
        } else if (rec.kind == TRC_OS && t->thread_type &&
                   rec.a == t->thread_type) {
            if (host_pairs_thread(hpp, rec.b, &is_new) ||
                (is_new && rec.b != 0 && add_thread(t, &thcap, rec.b)))
                goto oom;
        }
    }
    if (r < 0)
        goto fail;
    for (unsigned c = 0; c < TRC_CPU_MAX; c++) {
        host_pairs *h = &hps[c];
        if (!used[c])
            continue;
        for (size_t k = 0; k < h->nth; k++) {
            for (size_t d = 0; d < h->th[k].depth; d++)
                t->flag[h->th[k].st[d].tag] = F_OPEN;
            t->open_end += h->th[k].depth;
        }
        t->too_deep += h->too_deep;
        host_pairs_free(h);
    }
    if (t->nunw > 1)
        qsort(t->unw, t->nunw, sizeof *t->unw, by_rec);
    return 0;
oom:
    cli_error("export: out of memory");
fail:
    for (unsigned c = 0; c < TRC_CPU_MAX; c++)
        if (used[c])
            host_pairs_free(&hps[c]);
    return -1;
}

int cmd_export(const cli_args *a)
{
    const char *json = a->str[OPT_PERFETTO], *ctf = a->str[OPT_CTF];
    if (!json && !ctf) {
        cli_error("export: say --perfetto F.json and/or --ctf DIR");
        return 2;
    }
    if (!json && (cli_given(a, OPT_ABSOLUTE) || cli_given(a, OPT_OS_COUNTERS)))
        return cli_reject(a, cli_given(a, OPT_ABSOLUTE) ? OPT_ABSOLUTE
                                                        : OPT_OS_COUNTERS,
                          "applies to --perfetto only");
    trace t;
    memset(&t, 0, sizeof t);
    t.a = a;
    t.in = a->pos[0];
    t.thread_type = host_thread_type(a);
    int rc = 1;
    if (!strcmp(t.in, "-") && spool_stdin(&t))
        goto done;
    /* the symbol map and time base; the reader is opened again per pass */
    if (t.spool ? src_open(&t) : host_trace_open(&t.tr, a, t.in))
        goto done;
    if (t.spool && host_trace_setup(&t.tr, a, t.in))
        goto done;
    t.t0_known = t.tr.tb.known;
    t.t0_ns = t.tr.tb.t0_ns;
    host_trace_note(&t.tr, "export", t.in);
    if (cli_given(a, OPT_ABSOLUTE) && !t.t0_known) {
        cli_error("export: --absolute: %s has no time base (no '# trc-timebase' "
                  "line in it or in its symbol map)", t.in);
        rc = 2;
        goto done;
    }
    if (a->str[OPT_CONTEXT] && !(t.ctx_path = strdup(a->str[OPT_CONTEXT])))
        goto done;
    /* beside the trace: X.osctx, also compressed */
    static const char *const ctx_ext[] = {".osctx", ".osctx.xz", ".osctx.zst"};
    for (size_t k = 0; !a->str[OPT_CONTEXT] && !t.ctx_path && k < 3; k++)
        t.ctx_path = host_sidecar_existing(t.in, ctx_ext[k]);
    if (pair(&t))
        goto done;
    rc = 0;
    if (json && export_json(&t, json))
        rc = 1;
    if (ctf && export_ctf(&t, ctf))
        rc = 1;
    fprintf(stderr, "export: %zu records -> %zu events; %" PRIu64
            " exits without entry shown as instants, %" PRIu64 " entries "
            "unwound by longjmp ended at the exit that unwound them, %" PRIu64
            " entries open at the end\n", t.n, t.n, t.unmatched_exit,
            t.unwound, t.open_end);
    if (t.ctx_path)
        fprintf(stderr, "export: OS context of %" PRIu64 " records from %s\n",
                t.ctx_records, t.ctx_path);
    if (t.too_deep)
        fprintf(stderr, "export: %" PRIu64 " entries deeper than %d levels "
                "shown as instants\n", t.too_deep, HOST_MAX_DEPTH);
done:
    host_trace_close(&t.tr);
    if (t.spool)
        fclose(t.spool);
    free(t.flag);
    free(t.thread);
    free(t.unw);
    free(t.ctx_path);
    return rc;
}
