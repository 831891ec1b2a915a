/*
 * export_json.c - `trc export --perfetto`: Chrome/Perfetto trace-event JSON
 * (B/E slices, OS records as instant or counter events); every trace record
 * becomes exactly one event (docs/host-tools.md). A trace of several CPUs
 * has one process per CPU (pid = CPU + 1), each with its threads' tracks and
 * its OS records track, on its own time line (docs/format.md 4.8).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

/* Output through a local buffer: stdio's per-call locking would cost more
 * than the formatting on traces of millions of events. */
typedef struct {
    FILE *f;
    size_t n;
    char b[1 << 16];
} jbuf;

static void jflush(jbuf *j)
{
    fwrite(j->b, 1, j->n, j->f);
    j->n = 0;
}

static void jwrite(jbuf *j, const char *s, size_t n)
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

static void jputs(const char *s, jbuf *j) /* fputs's order */
{
    jwrite(j, s, strlen(s));
}

static void jprintf(jbuf *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void jprintf(jbuf *j, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        jwrite(j, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void json_str(jbuf *f, const char *s)
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

static void put_u64(jbuf *f, uint64_t v)
{
    char b[24];
    b[23] = 0;
    jputs(digits(b + 23, v), f);
}

/* ts in microseconds with ns digits, exact (no floating point; beyond
 * 2^64 ns too). */
static void json_ts(jbuf *f, unsigned __int128 ns)
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

/* The process (one per CPU of the trace, pid = CPU + 1) and thread names. */
static void json_tracks(jbuf *f, const trace *t)
{
    int first = 1;
    for (unsigned c = 0; c < t->ncpu; c++) {
        if (!t->cpu_ok[c])
            continue;
        unsigned pid = c + 1;
        char name[4096];
        if (t->ncpu > 1)
            snprintf(name, sizeof name, "%s: CPU %u", t->in, c);
        else
            snprintf(name, sizeof name, "%s", t->in);
        jprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                "\"args\":{\"name\":", first ? "" : ",\n", pid);
        first = 0;
        json_str(f, name);
        jprintf(f, "}},\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,"
                "\"args\":{\"name\":\"OS records\"}}", pid, OS_TID);
        for (size_t k = 0; k < t->nthread; k++) {
            uint32_t th = t->thread[k];
            long lt = host_symmap_tid(t->tr.sym, th);
            jprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%"
                    PRIu32 ",\"args\":{\"name\":\"thread %" PRIu32, pid, th, th);
            if (lt)
                jprintf(f, " (tid %ld)", lt);
            jputs("\"}}", f);
        }
    }
}

int export_json(trace *t, const char *out)
{
    const char *syms = t->a->str[OPT_SYMS];
    const char *ins[] = {t->in, syms ? syms : t->in, NULL};
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
    char buf[24];
    uint64_t base = absolute && t->t0_known ? t->t0_ns : 0;
    jprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_str(f, t->in);
    jprintf(f, ",\"tick_ns\":%" PRIu64 ",\"t0_ns\":%" PRIu64 ",\"records\":%zu"
            ",\"unmatched_exits\":%" PRIu64 ",\"unwound_entries\":%" PRIu64
            ",\"open_at_end\":%" PRIu64 "},\n\"traceEvents\":[\n",
            tick_ns, t->t0_known ? t->t0_ns : 0, t->n, t->unmatched_exit,
            t->unwound, t->open_end);
    json_tracks(f, t);
    /* per CPU: its thread now, its time line */
    uint32_t tids[TRC_CPU_MAX] = {0};
    uint64_t nows[TRC_CPU_MAX] = {0};
    if (src_open(t)) {
        jflush(f);
        cli_out_close(o, 0);
        return -1;
    }
    trc_record rec;
    const trc_record *r = &rec;
    int rr = 0;
    for (size_t i = 0; i < t->n && (rr = src_next(t, &rec)) > 0; i++) {
        uint8_t fl = t->flag[i];
        unsigned cpu = src_cpu(t), pid = cpu + 1;
        if (!t->cpu_ok[cpu])
            continue;
        uint32_t *tidp = &tids[cpu], tid = *tidp;
        uint64_t now = nows[cpu] += r->delta;
        unsigned __int128 ns = base + (unsigned __int128)now * tick_ns;
        jputs(",\n{", f);
        if (r->kind == TRC_ENTRY || r->kind == TRC_EXIT) {
            jputs("\"name\":", f);
            json_str(f, host_fn_name(sym, r->a, buf));
            if (fl & (F_MATCH | F_DEEP)) { /* the common cases, kept short */
                jputs(fl & F_DEEP ? ",\"cat\":\"too_deep\",\"ph\":\"i\",\"s\":\"t\""
                      : r->kind == TRC_ENTRY ? ",\"ph\":\"B\"" : ",\"ph\":\"E\"", f);
                jputs(",\"ts\":", f);
                json_ts(f, ns);
                jputs(",\"pid\":", f);
                put_u64(f, pid);
                jputs(",\"tid\":", f);
                put_u64(f, tid);
                jwrite(f, "}", 1);
                continue;
            }
            if (fl & F_OPEN)
                jputs(",\"cat\":\"function\",\"ph\":\"B\"", f);
            else
                jputs(",\"cat\":\"unmatched\",\"ph\":\"i\",\"s\":\"t\"", f);
            jprintf(f, ",\"ts\":");
            json_ts(f, ns);
            jprintf(f, ",\"pid\":%u,\"tid\":%" PRIu32 ",\"args\":{\"id\":%" PRIu32,
                    pid, tid, r->a);
            if (r->kind == TRC_ENTRY && !(fl & F_OPEN))
                jputs(",\"record\":\"entry without exit (unwound by a later "
                      "exit of a caller: longjmp)\"", f);
            else if (r->kind == TRC_EXIT)
                jputs(",\"record\":\"exit without entry\"", f);
            else
                jputs(",\"record\":\"entry still open at the end\"", f);
            jputs("}}", f);
        } else if (r->kind == TRC_OS) {
            const char *nm = host_os_name(r->a, buf);
            jputs("\"name\":", f);
            json_str(f, nm);
            if (counters && !(t->thread_type && r->a == t->thread_type))
                jprintf(f, ",\"cat\":\"os\",\"ph\":\"C\"");
            else
                jprintf(f, ",\"cat\":\"os\",\"ph\":\"i\",\"s\":\"t\"");
            jprintf(f, ",\"ts\":");
            json_ts(f, ns);
            if (counters && !(t->thread_type && r->a == t->thread_type))
                /* one series per counter track: the value only */
                jprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        "}}", pid, OS_TID, r->b);
            else
                jprintf(f, ",\"pid\":%u,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        ",\"type\":%" PRIu32 "}}", pid, OS_TID, r->b, r->a);
            if (t->thread_type && r->a == t->thread_type)
                *tidp = r->b;
        } else {
            jprintf(f, "\"name\":\"lost %" PRIu32 " records\",\"cat\":\"lost\","
                    "\"ph\":\"i\",\"s\":\"g\",\"ts\":", r->a);
            json_ts(f, ns);
            jprintf(f, ",\"pid\":%u,\"tid\":%" PRIu32 ",\"args\":{\"count\":%"
                    PRIu32 "}}", pid, tid, r->a);
        }
    }
    jputs("\n]}\n", f);
    jflush(f);
    return cli_out_close(o, rr >= 0) || rr < 0 ? -1 : 0;
}
