/*
 * export_json.c - `trc export --perfetto`: Chrome/Perfetto trace-event JSON
 * (B/E slices, OS records as instant or counter events); every trace record
 * becomes exactly one event (docs/host-tools.md). A trace of several CPUs
 * has one process per CPU (pid = CPU + 1), each with its threads' tracks and
 * its OS records track, on its own time line (docs/format.md 4.9).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

/* Output goes through a local buffer (jbuf, export.h): stdio's per-call
 * locking would cost more than the formatting on traces of millions of
 * events. */
void jflush(jbuf *j)
{
    fwrite(j->b, 1, j->n, j->f);
    j->n = 0;
}

void jwrite(jbuf *j, const char *s, size_t n)
{
    if (sizeof j->b - j->n < n) {
        jflush(j);
        if (n > sizeof j->b) {
            fwrite(s, 1, n, j->f);
            return;
        }
    }
    memcpy(j->b + j->n, s, n);
    j->n += n;
}

void jputs(const char *s, jbuf *j) /* fputs's order */
{
    jwrite(j, s, strlen(s));
}

void jprintf(jbuf *j, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        jwrite(j, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void json_str(jbuf *f, const char *s)
{
    jwrite(f, "\"", 1);
    for (; *s; s++) {
        size_t run = strcspn(s, "\"\\\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"
                                "\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15"
                                "\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
        jwrite(f, s, run);
        s += run;
        if (!*s)
            break;
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            jprintf(f, "\\%c", c);
        else
            jprintf(f, "\\u%04x", c);
    }
    jwrite(f, "\"", 1);
}

/* Decimal digits of v into the end of buf; returns where they start. */
static char *digits(char *end, unsigned __int128 v)
{
    do {
        *--end = (char)('0' + (unsigned)(v % 10u));
        v /= 10u;
    } while (v);
    return end;
}

void put_u64(jbuf *f, uint64_t v)
{
    char b[24];
    b[23] = 0;
    jputs(digits(b + 23, v), f);
}

/* ts in microseconds with ns digits, exact (no floating point; beyond
 * 2^64 ns too). */
void json_ts(jbuf *f, unsigned __int128 ns)
{
    char b[48];
    b[47] = 0;
    char *p = digits(b + 47, ns % 1000u);
    while (p > b + 44)
        *--p = '0';
    *--p = '.';
    p = digits(p, ns / 1000u);
    jputs(p, f);
}

/* The args of a function slice: its id, symbol and address. */
static void fn_args(jbuf *f, const host_symmap *sym, uint32_t id,
                    const char *name)
{
    uint64_t addr;
    jputs(",\"args\":{\"id\":", f);
    put_u64(f, id);
    jputs(",\"symbol\":", f);
    json_str(f, name);
    if (host_symmap_addr(sym, id, &addr))
        jprintf(f, ",\"address\":\"0x%" PRIx64 "\"", addr);
}

/* A function entry or exit: a B/E pair, an X for a frame left by longjmp
 * (it ends at the exit that unwound it), B for one open at the end, an
 * instant for the rest. */
static void fn_event(trace *t, jbuf *f, const trc_record *r, uint8_t fl,
                     unsigned __int128 ns, unsigned pid, uint32_t tid,
                     uint64_t now, size_t *uk, size_t i)
{
    char buf[24];
    const char *name = host_fn_name(t->tr.sym, r->a, buf);
    jputs("\"name\":", f);
    json_str(f, name);
    if (fl & F_DEEP) {
        jputs(",\"cat\":\"too_deep\",\"ph\":\"i\",\"s\":\"t\"", f);
    } else if (fl & F_MATCH) {
        jputs(r->kind == TRC_ENTRY ? ",\"ph\":\"B\"" : ",\"ph\":\"E\"", f);
    } else if (fl & F_UNWOUND) {
        uint64_t end = unwound_end_of(t, uk, i);
        jputs(",\"cat\":\"unwound\",\"ph\":\"X\",\"dur\":", f);
        json_ts(f, (unsigned __int128)(end - now) * t->tr.tick_ns);
    } else if (fl & F_OPEN) {
        jputs(",\"cat\":\"function\",\"ph\":\"B\"", f);
    } else {
        jputs(",\"cat\":\"unmatched\",\"ph\":\"i\",\"s\":\"t\"", f);
    }
    jputs(",\"ts\":", f);
    json_ts(f, ns);
    jputs(",\"pid\":", f);
    put_u64(f, pid);
    jputs(",\"tid\":", f);
    put_u64(f, tid);
    if (r->kind == TRC_EXIT && (fl & F_MATCH)) { /* the common case, short */
        jwrite(f, "}", 1);
        return;
    }
    fn_args(f, t->tr.sym, r->a, name);
    if (fl & F_UNWOUND)
        jputs(",\"record\":\"entry left by longjmp: ends at the exit of a "
              "caller that unwound it\"", f);
    else if (!(fl & (F_MATCH | F_DEEP)) && r->kind == TRC_EXIT)
        jputs(",\"record\":\"exit without entry\"", f);
    else if (fl & F_OPEN)
        jputs(",\"record\":\"entry still open at the end\"", f);
    jputs("}}", f);
}

static void os_event(trace *t, jbuf *f, const trc_record *r,
                     unsigned __int128 ns, unsigned pid, int counters)
{
    char buf[24];
    int thread = t->thread_type && r->a == t->thread_type;
    jputs("\"name\":", f);
    json_str(f, host_os_name(r->a, buf));
    if (counters && !thread)
        jprintf(f, ",\"cat\":\"os\",\"ph\":\"C\"");
    else
        jprintf(f, ",\"cat\":\"os\",\"ph\":\"i\",\"s\":\"t\"");
    jprintf(f, ",\"ts\":");
    json_ts(f, ns);
    if (counters && !thread) /* one series per counter track: the value only */
        jprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"value\":%" PRIu32 "}}",
                pid, OS_TID, r->b);
    else
        jprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                ",\"type\":%" PRIu32 "}}", pid, OS_TID, r->b, r->a);
}

int export_json(trace *t, const char *out)
{
    const char *syms = t->a->str[OPT_SYMS];
    const char *ins[] = {t->in, syms ? syms : t->in, t->ctx_path, NULL};
    cli_out *o = cli_out_open(out, ins);
    if (!o)
        return -1;
    static jbuf jb;
    jbuf *f = &jb;
    jb.f = cli_out_file(o);
    jb.n = 0;
    const host_symmap *sym = t->tr.sym;
    int absolute = cli_given(t->a, OPT_ABSOLUTE);
    int counters = cli_given(t->a, OPT_OS_COUNTERS);
    uint64_t tick_ns = t->tr.tick_ns;
    uint64_t base = absolute && t->t0_known ? t->t0_ns : 0;
    osctx cx;
    os_tracks *ot = NULL;
    if (osctx_open(&cx, t->ctx_path) || !(ot = os_tracks_new())) {
        osctx_close(&cx);
        cli_out_close(o, 0);
        return -1;
    }
    jprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_str(f, t->in);
    jprintf(f, ",\"tick_ns\":%" PRIu64 ",\"t0_ns\":%" PRIu64 ",\"records\":%zu"
            ",\"unmatched_exits\":%" PRIu64 ",\"unwound_entries\":%" PRIu64
            ",\"open_at_end\":%" PRIu64 "%s},\n\"traceEvents\":[\n",
            tick_ns, t->t0_known ? t->t0_ns : 0, t->n, t->unmatched_exit,
            t->unwound, t->open_end,
            t->tr.tick_assumed ? ",\"tick_assumed\":true" : "");
    /* one process per CPU (pid = CPU + 1), each with its OS records track */
    for (unsigned c = 0, first = 1; c < t->ncpu; c++) {
        if (!t->cpu_ok[c])
            continue;
        char pname[4096];
        if (t->ncpu > 1)
            snprintf(pname, sizeof pname, "%s: CPU %u", t->in, c);
        else
            snprintf(pname, sizeof pname, "%s", t->in);
        jprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                "\"args\":{\"name\":", first ? "" : ",\n", c + 1);
        first = 0;
        json_str(f, pname);
        jprintf(f, "}},\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
                "\"args\":{\"name\":\"OS records\"}}", c + 1, OS_TID);
    }
    /* per CPU: its thread now, its time line */
    uint32_t tids_now[TRC_CPU_MAX] = {0};
    uint64_t nows[TRC_CPU_MAX] = {0}, now = 0;
    long *tids = calloc(t->nthread ? t->nthread : 1, sizeof *tids);
    for (size_t k = 0; tids && k < t->nthread; k++)
        tids[k] = host_symmap_tid(sym, t->thread[k]);
    if (!tids || os_tracks_watch(ot, tids, t->nthread)) {
        free(tids);
        os_tracks_free(ot);
        osctx_close(&cx);
        cli_out_close(o, 0);
        return -1;
    }
    cli_progress_phase("export --perfetto");
    int rr = src_open(t), bad = rr < 0;
    trc_record rec;
    const trc_record *r = &rec;
    size_t uk = 0;
    t->ctx_records = 0;
    for (size_t i = 0; !bad && i < t->n && (rr = src_next(t, &rec)) > 0; i++) {
        unsigned cpu = src_cpu(t), pid = cpu + 1;
        if (!t->cpu_ok[cpu]) { /* not exported; the context table still moves */
            osctx_entry e;
            if (r->kind == TRC_OS && osctx_at(&cx, i, r, &e) < 0)
                bad = 1;
            continue;
        }
        uint32_t tid = tids_now[cpu];
        now = nows[cpu] += r->delta;
        unsigned __int128 ns = base + (unsigned __int128)now * tick_ns;
        if (r->kind == TRC_OS) {
            osctx_entry e;
            int c = osctx_at(&cx, i, r, &e), w = 0;
            if (c > 0 && (w = os_tracks_event(ot, f, ns, i, r, &e)) > 0) {
                t->ctx_records++;
            } else if (c < 0 || w < 0) {
                bad = 1;
            } else {
                jputs(",\n{", f);
                os_event(t, f, r, ns, pid, counters);
            }
            if (t->thread_type && r->a == t->thread_type)
                tids_now[cpu] = r->b;
        } else if (r->kind == TRC_ENTRY || r->kind == TRC_EXIT) {
            jputs(",\n{", f);
            fn_event(t, f, r, t->flag[i], ns, pid, tid, now, &uk, i);
        } else {
            jputs(",\n{", f);
            jprintf(f, "\"name\":\"lost %" PRIu32 " records\",\"cat\":\"lost\","
                    "\"ph\":\"i\",\"s\":\"g\",\"ts\":", r->a);
            json_ts(f, ns);
            jprintf(f, ",\"pid\":%u,\"tid\":%" PRIu32 ",\"args\":{\"count\":%"
                    PRIu32 "}}", pid, tid, r->a);
        }
    }
    if (!bad && rr > 0 && src_end(t))
        rr = -1;
    if (!bad && rr >= 0 && osctx_finish(&cx, t->n))
        bad = 1;
    os_tracks_finish(ot, f, base + (unsigned __int128)now * tick_ns);
    /* the capture's threads, named by the OS context's comm when it has one */
    for (size_t k = 0; k < t->nthread * t->ncpu; k++) {
        unsigned c = (unsigned)(k / t->nthread);
        uint32_t th = t->thread[k % t->nthread];
        const char *comm = os_tracks_comm(ot, tids[k % t->nthread]);
        if (!t->cpu_ok[c])
            continue;
        jprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%"
                PRIu32 ",\"args\":{\"name\":", c + 1, th);
        char name[160];
        if (comm)
            snprintf(name, sizeof name, "%s (thread %" PRIu32 ", tid %ld)", comm,
                     th, tids[k % t->nthread]);
        else if (tids[k % t->nthread])
            snprintf(name, sizeof name, "thread %" PRIu32 " (tid %ld)", th,
                     tids[k % t->nthread]);
        else
            snprintf(name, sizeof name, "thread %" PRIu32, th);
        json_str(f, name);
        jputs("}}", f);
    }
    free(tids);
    jputs("\n]}\n", f);
    jflush(f);
    os_tracks_free(ot);
    osctx_close(&cx);
    return cli_out_close(o, rr >= 0 && !bad) || rr < 0 || bad ? -1 : 0;
}
