/*
 * cmd_export.c - `trc export`: a trace to formats that viewers open.
 *   --perfetto OUT.json  Chrome/Perfetto trace-event JSON (B/E slices, OS
 *                        records as instant or counter events)
 *   --ctf DIR            CTF 1.8 (DIR/metadata + DIR/stream_0) for babeltrace2
 * Every trace record becomes exactly one event. How unmatched entries and
 * exits are shown (never invented, never dropped): docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "host_common.h"

#define OS_TID 999999999u /* Perfetto track of the OS records */

/* The trace is read twice: pass 1 pairs entries with exits and keeps one
 * flag byte per record, pass 2 writes. A file is simply read again; stdin
 * is kept in memory (16 bytes per record). */
enum { F_MATCH = 1, F_OPEN = 2 }; /* flags: matched pair; entry open at end */

typedef struct {
    const char *in;
    trc_params p;
    int raw;
    cli_reader *rd;
    trc_record *mem; /* stdin: the records */
    size_t nmem, pos;
    size_t n;        /* records */
    uint8_t *flag;   /* per record */
    uint32_t *thread; /* thread values seen (thread records), 0 first */
    size_t nthread;
    uint64_t unmatched_exit, unwound, open_end;
} trace;

static int src_open(trace *t)
{
    t->pos = 0;
    if (t->mem)
        return 0;
    cli_reader_close(t->rd);
    t->rd = cli_reader_open(t->in, &t->p, t->raw);
    return t->rd ? 0 : -1;
}

/* 1 record, 0 end, -1 error (message printed). */
static int src_next(trace *t, trc_record *r)
{
    if (t->mem) {
        if (t->pos == t->nmem)
            return 0;
        *r = t->mem[t->pos++];
        return 1;
    }
    return cli_reader_next(t->rd, r);
}

typedef struct {
    const host_symmap *sym;
    uint64_t tick_ns;
    uint64_t t0_ns;
    int t0_known;
    int absolute;
    int counters;
    uint64_t thread_type;
    const char *in;
} eopts;

/* stdin cannot be read twice: keep its records. */
static int load_stdin(trace *t)
{
    cli_reader *rd = cli_reader_open(t->in, &t->p, t->raw);
    if (!rd)
        return -1;
    size_t cap = 1 << 16;
    t->mem = malloc(cap * sizeof *t->mem);
    t->nmem = 0;
    int r = 1;
    while (t->mem && (r = cli_reader_next(rd, &t->mem[t->nmem])) > 0) {
        if (++t->nmem == cap) {
            cap *= 2;
            trc_record *nr = realloc(t->mem, cap * sizeof *nr);
            if (!nr)
                free(t->mem);
            t->mem = nr;
        }
    }
    cli_reader_close(rd);
    if (!t->mem) {
        cli_error("export: out of memory");
        return -1;
    }
    return r < 0 ? -1 : 0;
}

/* Pairs entries with exits per thread: an exit closes the innermost open
 * entry of its function; entries above it were left by longjmp (unwound). */
typedef struct {
    size_t idx;  /* record index of the entry */
    uint32_t fn;
} open_entry;

typedef struct {
    uint32_t thread;
    open_entry *st;
    size_t depth, cap;
} tstack;

/* Grows array p (of *cap elements of size bytes) to hold need elements.
 * Returns the array; on failure the old one with *err set. */
static void *grow(void *p, size_t *cap, size_t need, size_t size, int *err)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (!q) {
        *err = 1;
        return p;
    }
    *cap = n;
    return q;
}

/* Pass 1: per thread, an exit closes the innermost open entry of its
 * function; entries above it were left by longjmp (unwound). */
static int pair(trace *t, const eopts *o)
{
    tstack *ts = calloc(1, sizeof *ts);
    size_t nts = 1, cur = 0, fcap = 0, thcap = 0;
    int rc = 0, r, err = 0;
    trc_record rec;
    t->thread = grow(t->thread, &thcap, 1, sizeof *t->thread, &err);
    if (!ts || src_open(t) || err) {
        free(ts);
        return -1;
    }
    t->thread[t->nthread++] = 0;
    for (t->n = 0; (r = src_next(t, &rec)) > 0; t->n++) {
        size_t i = t->n;
        t->flag = grow(t->flag, &fcap, i + 1, 1, &err);
        if (err) {
            rc = -1;
            break;
        }
        t->flag[i] = 0;
        if ((i & 0x3FFFFF) == 0x3FFFFF)
            fprintf(stderr, "export: pass 1: %zu records\n", i + 1);
        tstack *s = &ts[cur];
        if (rec.kind == TRC_ENTRY) {
            s->st = grow(s->st, &s->cap, s->depth + 1, sizeof *s->st, &err);
            if (err) {
                rc = -1;
                break;
            }
            s->st[s->depth].idx = i;
            s->st[s->depth++].fn = rec.a;
        } else if (rec.kind == TRC_EXIT) {
            size_t d = s->depth;
            while (d > 0 && s->st[d - 1].fn != rec.a)
                d--;
            if (d == 0) {
                t->unmatched_exit++;
                continue;
            }
            t->unwound += s->depth - d;
            s->depth = d - 1;
            t->flag[s->st[d - 1].idx] = F_MATCH;
            t->flag[i] = F_MATCH;
        } else if (rec.kind == TRC_OS && o->thread_type && rec.a == o->thread_type) {
            size_t k;
            for (k = 0; k < nts && ts[k].thread != rec.b; k++)
                ;
            if (k == nts) {
                size_t tcap = nts;
                ts = grow(ts, &tcap, nts + 1, sizeof *ts, &err);
                t->thread = grow(t->thread, &thcap, t->nthread + 1,
                                 sizeof *t->thread, &err);
                if (err) {
                    rc = -1;
                    break;
                }
                memset(&ts[nts], 0, sizeof ts[nts]);
                ts[nts++].thread = rec.b;
                if (rec.b != 0)
                    t->thread[t->nthread++] = rec.b;
            }
            cur = k;
        }
    }
    if (r < 0)
        rc = -1;
    for (size_t k = 0; k < nts; k++) {
        for (size_t d = 0; d < ts[k].depth && !rc; d++)
            t->flag[ts[k].st[d].idx] = F_OPEN;
        t->open_end += ts[k].depth;
        free(ts[k].st);
    }
    free(ts);
    if (rc)
        cli_error("export: out of memory or read error");
    return rc;
}

/* ---- Perfetto / Chrome JSON ------------------------------------------------- */

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

static int export_json(trace *t, const eopts *o, const char *out)
{
    FILE *f = cli_open_out(out);
    if (!f)
        return -1;
    char buf[24];
    uint64_t base = o->absolute && o->t0_known ? o->t0_ns : 0;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_str(f, o->in);
    fprintf(f, ",\"tick_ns\":%" PRIu64 ",\"t0_ns\":%" PRIu64 ",\"records\":%zu"
            ",\"unmatched_exits\":%" PRIu64 ",\"unwound_entries\":%" PRIu64
            ",\"open_at_end\":%" PRIu64 "},\n\"traceEvents\":[\n",
            o->tick_ns, o->t0_known ? o->t0_ns : 0, t->n, t->unmatched_exit,
            t->unwound, t->open_end);
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
            "\"args\":{\"name\":");
    json_str(f, o->in);
    fprintf(f, "}},\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
            "\"args\":{\"name\":\"OS records\"}}", OS_TID);
    uint32_t tid = 0;
    uint64_t now = 0;
    for (size_t k = 0; k < t->nthread; k++) {
        uint32_t th = t->thread[k];
        long lt = host_symmap_tid(o->sym, th);
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%"
                PRIu32 ",\"args\":{\"name\":\"thread %" PRIu32, th, th);
        if (lt)
            fprintf(f, " (tid %ld)", lt);
        fputs("\"}}", f);
    }
    if (src_open(t)) {
        cli_close(f, out);
        return -1;
    }
    trc_record rec;
    const trc_record *r = &rec;
    int rr = 0;
    for (size_t i = 0; i < t->n && (rr = src_next(t, &rec)) > 0; i++) {
        uint8_t fl = t->flag[i];
        now += r->delta;
        uint64_t ns = base + now * o->tick_ns;
        fputs(",\n{", f);
        if (r->kind == TRC_ENTRY || r->kind == TRC_EXIT) {
            fputs("\"name\":", f);
            json_str(f, host_fn_name(o->sym, r->a, buf));
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
            if (o->counters && !(o->thread_type && r->a == o->thread_type))
                fprintf(f, ",\"cat\":\"os\",\"ph\":\"C\"");
            else
                fprintf(f, ",\"cat\":\"os\",\"ph\":\"i\",\"s\":\"t\"");
            fprintf(f, ",\"ts\":");
            json_ts(f, ns);
            if (o->counters && !(o->thread_type && r->a == o->thread_type))
                /* one series per counter track: the value only */
                fprintf(f, ",\"pid\":1,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        "}}", OS_TID, r->b);
            else
                fprintf(f, ",\"pid\":1,\"tid\":%u,\"args\":{\"value\":%" PRIu32
                        ",\"type\":%" PRIu32 "}}", OS_TID, r->b, r->a);
            if (o->thread_type && r->a == o->thread_type)
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
    if (rr < 0) {
        cli_close(f, out);
        return -1;
    }
    return cli_close(f, out);
}

/* ---- CTF 1.8 ------------------------------------------------------------------ */

#define CTF_MAGIC 0xC1FC1FC1u
#define PKT_HDR 8             /* magic, stream_id */
#define PKT_CTX 32            /* ts begin, ts end, content size, packet size */
#define PKT_MAX (1u << 20)    /* bytes of events per packet */

typedef struct {
    FILE *f;
    uint8_t *buf;
    size_t len;
    uint64_t ts_begin, ts_end;
    int empty;
} ctf_pkt;

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int pkt_flush(ctf_pkt *k)
{
    if (k->empty)
        return 0;
    uint8_t h[PKT_HDR + PKT_CTX];
    uint64_t bits = (uint64_t)(PKT_HDR + PKT_CTX + k->len) * 8;
    put_le(h, CTF_MAGIC, 4);
    put_le(h + 4, 0, 4);
    put_le(h + 8, k->ts_begin, 8);
    put_le(h + 16, k->ts_end, 8);
    put_le(h + 24, bits, 8);
    put_le(h + 32, bits, 8);
    if (fwrite(h, 1, sizeof h, k->f) != sizeof h ||
        fwrite(k->buf, 1, k->len, k->f) != k->len)
        return -1;
    k->len = 0;
    k->empty = 1;
    return 0;
}

/* Event: header {u32 id, u64 ts}, context {u32 tid}, then the fields:
 * nfields u32, a u8 when u8 >= 0, a string when str != NULL. */
static int pkt_event(ctf_pkt *k, uint32_t id, uint64_t ts, uint32_t tid,
                     uint32_t f1, uint32_t f2, int nfields, int u8,
                     const char *str)
{
    size_t slen = str ? strlen(str) + 1 : 0;
    if (slen > 4000)
        slen = 4000; /* very long names are cut (buffer has 4096 spare) */
    size_t need = 16 + 4 * (size_t)nfields + (u8 >= 0) + slen;
    if (k->len + need > PKT_MAX && pkt_flush(k))
        return -1;
    if (k->empty) {
        k->ts_begin = ts;
        k->empty = 0;
    }
    k->ts_end = ts;
    uint8_t *p = k->buf + k->len;
    put_le(p, id, 4);
    put_le(p + 4, ts, 8);
    put_le(p + 12, tid, 4);
    p += 16;
    if (nfields > 0)
        put_le(p, f1, 4);
    if (nfields > 1)
        put_le(p + 4, f2, 4);
    p += 4 * nfields;
    if (u8 >= 0)
        *p++ = (uint8_t)u8;
    if (str) {
        memcpy(p, str, slen - 1);
        p[slen - 1] = 0;
    }
    k->len += need;
    return 0;
}

static int export_ctf(trace *t, const eopts *o, const char *dir)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    size_t dl = strlen(dir);
    char *path = malloc(dl + 16);
    if (!path)
        return -1;
    snprintf(path, dl + 16, "%s/metadata", dir);
    FILE *m = fopen(path, "w");
    if (!m) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    uint64_t t0 = o->t0_known ? o->t0_ns : 0;
    fprintf(m,
        "/* CTF 1.8 */\n"
        "/* written by trc export --ctf; every trace record is one event */\n\n"
        "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
        "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
        "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
        "\t};\n};\n\n"
        "env {\n\ttracer_name = \"trc\";\n\ttick_ns = %" PRIu64 ";\n};\n\n"
        "clock {\n\tname = \"monotonic\";\n"
        "\tdescription = \"CLOCK_MONOTONIC (trace time base)\";\n"
        "\tfreq = 1000000000;\n\toffset_s = %" PRIu64 ";\n\toffset = %" PRIu64 ";\n"
        "};\n\n"
        "typealias integer { size = 64; align = 8; signed = false; "
        "map = clock.monotonic.value; } := uint64_clock_t;\n\n"
        "stream {\n\tid = 0;\n\tpacket.context := struct {\n"
        "\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
        "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t};\n"
        "\tevent.header := struct {\n\t\tuint32_t id;\n"
        "\t\tuint64_clock_t timestamp;\n\t};\n"
        "\tevent.context := struct {\n\t\tuint32_t tid;\n\t};\n};\n\n"
        "event {\n\tname = \"func_entry\";\n\tid = 0;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t fid;\n\t\tuint8_t matched;\n"
        "\t\tstring name;\n\t};\n};\n\n"
        "event {\n\tname = \"func_exit\";\n\tid = 1;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t fid;\n\t\tuint8_t matched;\n"
        "\t\tstring name;\n\t};\n};\n\n"
        "event {\n\tname = \"os\";\n\tid = 2;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t type;\n\t\tuint32_t value;\n"
        "\t\tstring type_name;\n\t};\n};\n\n"
        "event {\n\tname = \"lost\";\n\tid = 3;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t count;\n\t};\n};\n",
        o->tick_ns, t0 / 1000000000u, t0 % 1000000000u);
    if (fclose(m)) {
        cli_error("%s: write error", path);
        free(path);
        return -1;
    }
    snprintf(path, dl + 16, "%s/stream_0", dir);
    ctf_pkt k = {fopen(path, "wb"), malloc(PKT_MAX + 4096), 0, 0, 0, 1};
    if (!k.f || !k.buf) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        if (k.f)
            fclose(k.f);
        free(k.buf);
        free(path);
        return -1;
    }
    uint32_t tid = 0;
    uint64_t now = 0;
    int rc = src_open(t), rr = 0;
    char buf[24];
    trc_record rec;
    const trc_record *r = &rec;
    for (size_t i = 0; i < t->n && !rc && (rr = src_next(t, &rec)) > 0; i++) {
        now += r->delta;
        uint64_t ts = now * o->tick_ns;
        switch (r->kind) {
        case TRC_ENTRY:
        case TRC_EXIT:
            /* matched: 1 pair, 0 unmatched, 2 entry open at the end. */
            rc = pkt_event(&k, r->kind == TRC_ENTRY ? 0 : 1, ts, tid, r->a, 0, 1,
                           t->flag[i] & F_MATCH ? 1 : t->flag[i] & F_OPEN ? 2 : 0,
                           host_fn_name(o->sym, r->a, buf));
            break;
        case TRC_OS:
            rc = pkt_event(&k, 2, ts, tid, r->a, r->b, 2, -1, host_os_name(r->a, buf));
            if (o->thread_type && r->a == o->thread_type)
                tid = r->b;
            break;
        default:
            rc = pkt_event(&k, 3, ts, tid, r->a, 0, 1, -1, NULL);
            break;
        }
    }
    if (rr < 0)
        rc = -1;
    if (!rc)
        rc = pkt_flush(&k);
    if (fclose(k.f) || rc) {
        cli_error("%s: write error", path);
        rc = -1;
    }
    free(k.buf);
    free(path);
    return rc;
}

static void usage(void)
{
    fprintf(stderr,
        "usage: trc export IN (--perfetto OUT.json | --ctf DIR) [--syms MAP]\n"
        "         [--tick NS] [--absolute] [--os-counters] [--thread-type T]\n"
        "         [--raw] [params]\n");
}

int cmd_export(int argc, char **argv)
{
    trc_params p = trc_params_paper();
    int given = 0, raw = 0;
    const char *in = NULL, *json = NULL, *ctf = NULL, *syms = NULL;
    uint64_t tick = 0;
    eopts o;
    memset(&o, 0, sizeof o);
    o.thread_type = HOST_OS_THREAD;
    for (int i = 1; i < argc;) {
        int r = cli_param_option(argc, argv, &i, &p, &given);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (!strcmp(a, "--perfetto") && v) {
            json = v;
        } else if (!strcmp(a, "--ctf") && v) {
            ctf = v;
        } else if (!strcmp(a, "--syms") && v) {
            syms = v;
        } else if (!strcmp(a, "--tick") && v && !host_parse_u64(v, &x) && x) {
            tick = x;
        } else if (!strcmp(a, "--thread-type") && v && !host_parse_u64(v, &x)) {
            o.thread_type = x;
        } else if (!strcmp(a, "--absolute") || !strcmp(a, "--os-counters") ||
                   !strcmp(a, "--raw")) {
            if (a[2] == 'a')
                o.absolute = 1;
            else if (a[2] == 'o')
                o.counters = 1;
            else
                raw = 1;
            i++;
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            cli_error("export: unknown option or bad value '%s'", a);
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
    if (!in || (!json && !ctf)) {
        usage();
        return 2;
    }
    o.in = in;
    char *side = syms ? NULL : host_sidecar_symmap(in);
    host_symmap *sm = NULL;
    if (syms || side) {
        sm = host_symmap_load(syms ? syms : side);
        free(side);
        if (!sm)
            return 1;
    }
    o.sym = sm;
    host_timebase tb;
    if (!host_timebase_from_file(in, &tb))
        tb = host_symmap_timebase(sm);
    o.tick_ns = tick ? tick : tb.tick_ns ? tb.tick_ns : 10;
    o.t0_known = tb.known;
    o.t0_ns = tb.t0_ns;

    trace t;
    memset(&t, 0, sizeof t);
    t.in = in;
    t.p = p;
    t.raw = raw;
    int rc = 0;
    if ((!strcmp(in, "-") && load_stdin(&t)) || pair(&t, &o)) {
        rc = 1;
    } else {
        if (json && export_json(&t, &o, json))
            rc = 1;
        if (ctf && export_ctf(&t, &o, ctf))
            rc = 1;
        fprintf(stderr, "export: %zu records -> %zu events; %" PRIu64
                " exits without entry and %" PRIu64 " entries unwound by "
                "longjmp shown as instants, %" PRIu64 " entries open at the "
                "end\n", t.n, t.n, t.unmatched_exit, t.unwound, t.open_end);
    }
    cli_reader_close(t.rd);
    free(t.mem);
    free(t.flag);
    free(t.thread);
    host_symmap_free(sm);
    return rc;
}
