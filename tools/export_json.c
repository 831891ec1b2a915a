/*
 * export_json.c - `trc export --perfetto`: Chrome/Perfetto trace-event JSON
 * (B/E slices, OS records as instant or counter events); every trace record
 * becomes exactly one event (docs/host-tools.md).
 */
#include <inttypes.h>
#include <stdio.h>

#include "export.h"

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ts in microseconds with ns digits, exact (no floating point). */
static void json_ts(FILE *f, uint64_t ns)
{
    fprintf(f, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

int export_json(trace *t, const char *out)
{
    const char *syms = t->a->str[OPT_SYMS];
    const char *ins[] = {t->in, syms ? syms : t->in, NULL};
    cli_out *o = cli_out_open(out, ins);
    if (!o)
        return -1;
    FILE *f = cli_out_file(o);
    const host_symmap *sym = t->tr.sym;
    int absolute = cli_given(t->a, OPT_ABSOLUTE);
    int counters = cli_given(t->a, OPT_OS_COUNTERS);
    uint64_t tick_ns = t->tr.tick_ns;
    char buf[24];
    uint64_t base = absolute && t->t0_known ? t->t0_ns : 0;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_str(f, t->in);
    fprintf(f, ",\"tick_ns\":%" PRIu64 ",\"t0_ns\":%" PRIu64 ",\"records\":%zu"
            ",\"unmatched_exits\":%" PRIu64 ",\"unwound_entries\":%" PRIu64
            ",\"open_at_end\":%" PRIu64 "},\n\"traceEvents\":[\n",
            tick_ns, t->t0_known ? t->t0_ns : 0, t->n, t->unmatched_exit,
            t->unwound, t->open_end);
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
            "\"args\":{\"name\":");
    json_str(f, t->in);
    fprintf(f, "}},\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
            "\"args\":{\"name\":\"OS records\"}}", OS_TID);
    uint32_t tid = 0;
    uint64_t now = 0;
    for (size_t k = 0; k < t->nthread; k++) {
        uint32_t th = t->thread[k];
        long lt = host_symmap_tid(sym, th);
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%"
                PRIu32 ",\"args\":{\"name\":\"thread %" PRIu32, th, th);
        if (lt)
            fprintf(f, " (tid %ld)", lt);
        fputs("\"}}", f);
    }
    if (src_open(t)) {
        cli_out_close(o, 0);
        return -1;
    }
    trc_record rec;
    const trc_record *r = &rec;
    int rr = 0;
    for (size_t i = 0; i < t->n && (rr = src_next(t, &rec)) > 0; i++) {
        uint8_t fl = t->flag[i];
        now += r->delta;
        uint64_t ns = base + now * tick_ns;
        fputs(",\n{", f);
        if (r->kind == TRC_ENTRY || r->kind == TRC_EXIT) {
            fputs("\"name\":", f);
            json_str(f, host_fn_name(sym, r->a, buf));
            if (fl & F_MATCH) { /* the common case, kept short */
                fprintf(f, ",\"ph\":\"%s\",\"ts\":", r->kind == TRC_ENTRY ? "B" : "E");
                json_ts(f, ns);
                fprintf(f, ",\"pid\":1,\"tid\":%" PRIu32 "}", tid);
                continue;
            }
            if (fl & F_OPEN)
                fputs(",\"cat\":\"function\",\"ph\":\"B\"", f);
            else
                fputs(",\"cat\":\"unmatched\",\"ph\":\"i\",\"s\":\"t\"", f);
            fprintf(f, ",\"ts\":");
            json_ts(f, ns);
            fprintf(f, ",\"pid\":1,\"tid\":%" PRIu32 ",\"args\":{\"id\":%" PRIu32,
                    tid, r->a);
            if (r->kind == TRC_ENTRY && !(fl & F_OPEN))
                fputs(",\"record\":\"entry without exit (unwound by a later "
                      "exit of a caller: longjmp)\"", f);
            else if (r->kind == TRC_EXIT)
                fputs(",\"record\":\"exit without entry\"", f);
            else
                fputs(",\"record\":\"entry still open at the end\"", f);
            fputs("}}", f);
        } else if (r->kind == TRC_OS) {
            const char *nm = host_os_name(r->a, buf);
            fputs("\"name\":", f);
            json_str(f, nm);
            if (counters && !(t->thread_type && r->a == t->thread_type))
                fprintf(f, ",\"cat\":\"os\",\"ph\":\"C\"");
            else
                fprintf(f, ",\"cat\":\"os\",\"ph\":\"i\",\"s\":\"t\"");
            fprintf(f, ",\"ts\":");
            json_ts(f, ns);
            if (counters && !(t->thread_type && r->a == t->thread_type))
                /* one series per counter track: the value only */
                fprintf(f, ",\"pid\":1,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        "}}", OS_TID, r->b);
            else
                fprintf(f, ",\"pid\":1,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        ",\"type\":%" PRIu32 "}}", OS_TID, r->b, r->a);
            if (t->thread_type && r->a == t->thread_type)
                tid = r->b;
        } else {
            fprintf(f, "\"name\":\"lost %" PRIu32 " records\",\"cat\":\"lost\","
                    "\"ph\":\"i\",\"s\":\"g\",\"ts\":", r->a);
            json_ts(f, ns);
            fprintf(f, ",\"pid\":1,\"tid\":%" PRIu32 ",\"args\":{\"count\":%"
                    PRIu32 "}}", tid, r->a);
        }
    }
    fputs("\n]}\n", f);
    return cli_out_close(o, rr >= 0) || rr < 0 ? -1 : 0;
}
