/*
 * cmd_ftrace.c - `trc import-ftrace`: ftrace text (the tracefs `trace` file or
 * `trace-cmd report` output) to OS info records, optionally merged by time
 * with a capture-library trace. Mapping, time base and merge rules:
 * docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftrace.h"
#include "host_common.h"

typedef struct {
    const cli_args *a;
    const char *in, *out, *merge;
    uint64_t tick;
    host_trace cap;     /* the capture trace (--merge) */
    uint64_t t0_tick;   /* the output's time base */
    uint64_t nfunc, clipped, written_os, backwards;
} job;

/* Maps and CPU filter from the options. 0 ok, 2 bad usage. */
static int setup(ft_import *m, const cli_args *a)
{
    if (!cli_given(a, OPT_NO_DEFAULT_MAP))
        ft_default_map(m, &a->p);
    for (size_t k = 0; k < a->nmap; k++)
        if (ft_map(m, a->map[k], &a->p)) {
            cli_error("import-ftrace: bad --map '%s' (EVENT=TYPE[:FIELD], TYPE "
                      "below %u; a new event needs its FIELD)", a->map[k],
                      TRC_TYPE_LOST(&a->p));
            return 2;
        }
    if (cli_given(a, OPT_CPU) && ft_cpus(m, a->str[OPT_CPU])) {
        cli_error("import-ftrace: bad --cpu '%s' (e.g. 0 or 0,2-3, below %d)",
                  a->str[OPT_CPU], FT_MAX_CPUS);
        return 2;
    }
    return 0;
}

/* Opens the capture trace and its time base, which decides the tick. */
static int open_capture(job *j)
{
    const cli_args *a = j->a;
    if (host_trace_open(&j->cap, a, j->merge))
        return 1;
    if (memcmp(cli_reader_params(j->cap.rd), &a->p, sizeof a->p)) {
        cli_error("import-ftrace: %s uses other format parameters; give the "
                  "same ones", j->merge);
        return 1;
    }
    if (cli_given(a, OPT_MERGE_T0)) {
        j->cap.tb.known = 1;
        j->cap.tb.t0_ns = a->num[OPT_MERGE_T0];
    }
    if (!j->cap.tb.known) {
        cli_error("import-ftrace: %s has no time base (no '# trc-timebase' "
                  "line in it or in its .sym map); give --merge-t0 NS", j->merge);
        return 1;
    }
    if (j->cap.tb.tick_ns && j->cap.tb.tick_ns != j->tick) {
        if (cli_given(a, OPT_TICK)) {
            cli_error("import-ftrace: --tick %" PRIu64 " but %s has tick "
                      "%" PRIu64 " ns", j->tick, j->merge, j->cap.tb.tick_ns);
            return 1;
        }
        j->tick = j->cap.tb.tick_ns;
    }
    return 0;
}

static int read_ftrace(ft_import *m, const job *j)
{
    FILE *f = cli_in_open(j->in);
    if (!f)
        return 1;
    char *line = NULL;
    size_t lcap = 0;
    int rc = 0;
    while (getline(&line, &lcap, f) >= 0) {
        m->lines++;
        if (ft_line(m, line, &j->a->p) < 0) {
            cli_error("import-ftrace: %s:%" PRIu64 ": out of memory", j->in,
                      m->lines);
            rc = 1;
            break;
        }
        if ((m->lines & 0xFFFFF) == 0)
            fprintf(stderr, "import-ftrace: %" PRIu64 " lines\n", m->lines);
    }
    free(line);
    if (!rc && ferror(f)) {
        cli_in_error(f, j->in);
        rc = 1;
    }
    if (f != stdin)
        fclose(f);
    return rc;
}

static int has_events(const ft_import *m)
{
    for (size_t i = 0; i < m->nev; i++)
        if (m->ev[i].seen)
            return 1;
    return m->range != 0;
}

/* The output's time quantum: --quantum as given; in stack mode 2 into a
 * .trc without it or --merge, the one compress would find (the largest of
 * 1000, 100 and 10 ticks that divides every delta: 100 for ftrace's
 * microseconds at 10 ns ticks), from the OS events' ticks as write_merged()
 * makes their deltas. A capture's records (--merge) are read once: 1. */
static unsigned os_quantum(const ft_import *m, const job *j)
{
    trc_params p = j->a->p;
    p.tq = 10u;
    if (p.mode != TRC_MODE_STACK2 || j->merge || cli_given(j->a, OPT_QUANTUM) ||
        !host_writer_is_trc(j->out) || trc_params_check(&p) != TRC_OK)
        return j->a->p.tq;
    unsigned q = 1000u;
    uint64_t prev = j->t0_tick;
    for (size_t k = 0; k < m->nos && q > 1u; k++) {
        uint64_t at = m->os[k].ns / j->tick;
        at = at < prev ? prev : at;
        while (q > 1u && (at - prev) % q)
            q /= 10u;
        prev = at;
    }
    return q;
}

/* Writes the OS records, merged by absolute tick with the capture's. */
static int write_merged(ft_import *m, job *j, host_writer *w)
{
    int clip = cli_given(j->a, OPT_CLIP);
    uint64_t prev = j->t0_tick, cap_tick = j->merge ? j->cap.tb.t0_ns / j->tick : 0;
    size_t k = 0;
    trc_record cr;
    int have_cr = 0, started = 0;
    for (size_t i = 0; i < m->nos; i++)
        m->os[i].rec = UINT64_MAX;
    if (j->merge) {
        int r = cli_reader_next(j->cap.rd, &cr);
        if (r < 0)
            return 1;
        have_cr = r > 0;
    }
    while (k < m->nos || have_cr) {
        trc_record r;
        uint64_t at, os_at = k < m->nos ? m->os[k].ns / j->tick : 0;
        /* the capture's absolute tick; beyond 2^64 it is surely after */
        uint64_t c_at = have_cr ? cap_tick + cr.delta : 0;
        if (have_cr && c_at < cap_tick)
            c_at = UINT64_MAX;
        if (k < m->nos && (!have_cr || os_at <= c_at)) {
            at = os_at;
            k++;
            if (j->merge && clip && (!started || !have_cr)) {
                j->clipped++;
                continue;
            }
            r.kind = TRC_OS;
            r.a = m->os[k - 1].type;
            r.b = m->os[k - 1].value;
            m->os[k - 1].rec = j->written_os + j->nfunc;
            j->written_os++;
        } else {
            at = cap_tick = c_at;
            r = cr;
            started = 1;
            j->nfunc++;
            int nx = cli_reader_next(j->cap.rd, &cr);
            if (nx < 0)
                return 1;
            have_cr = nx > 0;
        }
        if (at < prev) {
            j->backwards++;
            at = prev;
        }
        r.delta = at - prev;
        prev = at;
        if (host_writer_put(w, &r))
            return 1;
    }
    return 0;
}

/* The OS context table (docs/host-tools.md): one line per OS record of the
 * output, "RECORD TYPE VALUE KEY=VALUE...", to --context FILE or beside a
 * regular-file OUT (its ending replaced by .osctx). */
static int write_context(const ft_import *m, const job *j)
{
    const char *given = j->a->str[OPT_CONTEXT];
    struct stat st;
    if (!given && (stat(j->out, &st) || !S_ISREG(st.st_mode) || !j->written_os))
        return 0;
    char *side = given ? NULL : host_sidecar_named(j->out, ".osctx");
    const char *path = given ? given : side;
    const char *ins[] = {j->in, j->out, j->merge ? j->merge : NULL, NULL};
    cli_out *o = path ? cli_out_open(path, ins) : NULL;
    if (!o) {
        free(side);
        return -1;
    }
    FILE *f = cli_out_file(o);
    fprintf(f, "# trc-osctx v1: RECORD TYPE VALUE KEY=VALUE... (values "
            "%%-escaped); OS context of %s from trc import-ftrace of %s\n",
            j->out, j->in);
    for (size_t i = 0; i < m->nos; i++) {
        const ft_os *x = &m->os[i];
        if (x->rec == UINT64_MAX)
            continue;
        fprintf(f, "%" PRIu64 " %" PRIu32 " %" PRIu32 " %.*s", x->rec, x->type,
                x->value, (int)x->ctx_len, m->ctx + x->ctx);
        if (x->has_dur)
            fprintf(f, " dur_ns=%" PRIu64, x->dur_ns);
        fputc('\n', f);
    }
    int rc = cli_out_close(o, 1);
    if (!rc)
        fprintf(stderr, "  wrote %s (OS context of %" PRIu64 " records)\n",
                path, j->written_os);
    free(side);
    return rc;
}

/* Report: every event name with what became of it. */
static void report(const ft_import *m, const job *j)
{
    uint64_t total = 0, other = 0;
    for (size_t i = 0; i < m->nev; i++)
        total += m->ev[i].seen;
    fprintf(stderr, "import-ftrace: %s: %" PRIu64 " events, tick %" PRIu64
            " ns, OS records written %" PRIu64 "\n", j->in, total, j->tick,
            j->written_os);
    for (size_t i = 0; i < m->nev; i++) {
        const ft_event *e = &m->ev[i];
        if (!e->seen)
            continue;
        if (e->mapped) {
            fprintf(stderr, "  %-22s %8" PRIu64 "  -> type %" PRIu32 " (%s):"
                    " %" PRIu64 " records", e->name, e->seen, e->type, e->field,
                    e->out);
        } else if (!strcmp(e->name, "irq_handler_exit") ||
                   !strcmp(e->name, "softirq_exit")) {
            fprintf(stderr, "  %-22s %8" PRIu64 "  -> durations of the %s "
                    "records (OS context)", e->name, e->seen,
                    e->name[0] == 'i' ? "irq_handler_entry" : "softirq_entry");
        } else {
            fprintf(stderr, "  %-22s %8" PRIu64 "  not mapped", e->name, e->seen);
            other += e->seen - e->cpu_out;
        }
        if (e->cpu_out)
            fprintf(stderr, ", %" PRIu64 " on other CPUs", e->cpu_out);
        if (e->novalue)
            fprintf(stderr, ", %" PRIu64 " without field %s", e->novalue, e->field);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  other (unmapped) events: %" PRIu64 "\n", other);
    if (m->unparsed)
        fprintf(stderr, "  warning: %" PRIu64 " lines are not event lines\n",
                m->unparsed);
    if (m->range)
        fprintf(stderr, "  warning: %" PRIu64 " events with a timestamp beyond "
                "2^64 - 1 ns dropped\n", m->range);
    if (m->cut)
        fprintf(stderr, "  warning: %" PRIu64 " values cut to %u bits\n", m->cut,
                j->a->p.val_w);
    if (j->backwards)
        fprintf(stderr, "  warning: time went backwards %" PRIu64 " times "
                "(delta 0 written)\n", j->backwards);
    if (m->exits_used || m->exits_unmatched)
        fprintf(stderr, "  irq/softirq exits: %" PRIu64 " give their entry's "
                "duration, %" PRIu64 " without an open entry\n", m->exits_used,
                m->exits_unmatched);
    if (!j->written_os)
        fprintf(stderr, "  warning: no OS record written (no mapped event%s)\n",
                m->cpu_filter ? " on the CPUs of --cpu" : "");
    if (j->merge)
        fprintf(stderr, "  merged %" PRIu64 " capture records; %" PRIu64
                " OS records outside the capture clipped\n", j->nfunc, j->clipped);
}

/* OUT's symbol map (only for a regular file OUT): the output's time base,
 * so that it survives compression, and with --merge the capture's map
 * lines (function names, threads), so the mixed trace shows names. */
static int write_out_symmap(const job *j, const host_timebase *tb)
{
    struct stat st;
    if (stat(j->out, &st) || !S_ISREG(st.st_mode))
        return 0;
    char *path = host_sidecar_path(j->out);
    char *csym = j->merge ? host_sidecar_symmap(j->merge) : NULL;
    const char *ins[] = {j->in, j->out, j->merge ? j->merge : NULL, NULL};
    cli_out *o = path ? cli_out_open(path, ins) : NULL;
    FILE *c = csym ? cli_in_open(csym) : NULL;
    int rc = 0;
    if (!path || (csym && !c)) {
        rc = path ? -1 : 0;
    } else if (!o) {
        rc = -1;
    } else {
        FILE *f = cli_out_file(o);
        char line[1024];
        fputs("# trc-symmap v1: ID NAME ADDRESS MODULE OFFSET\n", f);
        host_timebase_format(tb, line, sizeof line);
        fputs(line, f);
        while (c && fgets(line, sizeof line, c))
            if (strncmp(line, "# trc-symmap", 12) && strncmp(line, "# trc-timebase", 14))
                fputs(line, f);
        if (c && ferror(c)) {
            cli_in_error(c, csym);
            rc = -1;
        }
        if (cli_out_close(o, rc == 0))
            rc = -1;
        else if (rc == 0)
            fprintf(stderr, "  wrote %s (time base%s)\n", path,
                    c ? " and the capture's symbols" : "");
        o = NULL;
    }
    cli_out_close(o, 0);
    if (c && c != stdin)
        fclose(c);
    free(path);
    free(csym);
    return rc;
}

int cmd_import_ftrace(const cli_args *a)
{
    static ft_import m;
    memset(&m, 0, sizeof m);
    job j;
    memset(&j, 0, sizeof j);
    j.a = a;
    j.in = a->pos[0];
    j.out = a->pos[1];
    j.merge = a->str[OPT_MERGE];
    j.tick = cli_given(a, OPT_TICK) ? a->num[OPT_TICK] : 10;
    if (!j.merge && (cli_given(a, OPT_MERGE_T0) || cli_given(a, OPT_CLIP)))
        return cli_reject(a, cli_given(a, OPT_CLIP) ? OPT_CLIP : OPT_MERGE_T0,
                          "needs --merge");
    int rc = setup(&m, a);
    if (!rc && j.merge && open_capture(&j))
        rc = 1;
    if (!rc)
        rc = read_ftrace(&m, &j);
    if (!rc && !has_events(&m)) {
        cli_error("import-ftrace: %s: no ftrace event lines in %" PRIu64 " lines "
                  "(expected the tracefs trace file or trace-cmd report output: "
                  "'TASK-PID [CPU] SECONDS.FRACTION: EVENT: ARGS')", j.in,
                  m.lines);
        rc = 1;
    }
    host_writer *w = NULL;
    host_timebase otb = {1, 0, j.tick};
    if (!rc) {
        /* Output time base: the capture's t0 when merging (earlier if an OS
         * event comes first and is kept), else the first OS event. */
        uint64_t first = m.nos ? m.os[0].ns / j.tick : 0;
        j.t0_tick = j.merge ? j.cap.tb.t0_ns / j.tick : first;
        if (j.merge && !cli_given(a, OPT_CLIP) && m.nos && first < j.t0_tick)
            j.t0_tick = first;
        otb.t0_ns = j.t0_tick * j.tick;
        char comment[1024];
        int cl = snprintf(comment, sizeof comment - 128,
                          "# trace text v1; trc import-ftrace of %s%s%s\n", j.in,
                          j.merge ? " merged with " : "", j.merge ? j.merge : "");
        if (cl < 0 || cl >= (int)sizeof comment - 128)
            cl = snprintf(comment, sizeof comment, "# trace text v1; trc import-ftrace\n");
        host_timebase_format(&otb, comment + cl, sizeof comment - (size_t)cl);
        const char *ins[] = {j.in, j.merge, NULL};
        trc_params op = a->p;
        op.tq = os_quantum(&m, &j);
        if (!(w = host_writer_open(j.out, &op, comment, ins)))
            rc = 1;
    }
    if (!rc)
        rc = write_merged(&m, &j, w);
    if (host_writer_close(w, rc == 0))
        rc = 1;
    if (w || rc == 0)
        report(&m, &j);
    if (!rc && write_out_symmap(&j, &otb))
        rc = 1;
    if (!rc && write_context(&m, &j))
        rc = 1;
    host_trace_close(&j.cap);
    ft_free(&m);
    return rc;
}
