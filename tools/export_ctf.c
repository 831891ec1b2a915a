/*
 * export_ctf.c - `trc export --ctf DIR`: CTF 1.8 (DIR/metadata, DIR/stream_0
 * in little-endian packets of up to 1 MiB) that babeltrace2 reads; every
 * trace record is one event (docs/host-tools.md). A trace of several CPUs
 * gets one stream file per CPU, DIR/stream_K, whose packets say their CPU
 * (packet.context cpu_id), as LTTng writes per-CPU streams.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"

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
    int cpu; /* the packets' cpu_id, or -1 (one CPU: no such field) */
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
    uint8_t h[PKT_HDR + PKT_CTX + 4];
    size_t hn = PKT_HDR + PKT_CTX + (k->cpu >= 0 ? 4 : 0);
    uint64_t bits = (uint64_t)(hn + k->len) * 8;
    put_le(h, CTF_MAGIC, 4);
    put_le(h + 4, 0, 4);
    put_le(h + 8, k->ts_begin, 8);
    put_le(h + 16, k->ts_end, 8);
    put_le(h + 24, bits, 8);
    put_le(h + 32, bits, 8);
    if (k->cpu >= 0)
        put_le(h + 40, (uint64_t)k->cpu, 4);
    if (fwrite(h, 1, hn, k->f) != hn ||
        fwrite(k->buf, 1, k->len, k->f) != k->len)
        return -1;
    k->len = 0;
    k->empty = 1;
    return 0;
}

/* One event's bytes: header {u32 id, u64 timestamp}, context {i32 cpu_id,
 * i64 tid, u32 thread}, then its fields. */
typedef struct {
    uint8_t b[16384];
    size_t n;
} ev_buf;

static void eb_int(ev_buf *e, uint64_t v, int bytes)
{
    put_le(e->b + e->n, v, bytes);
    e->n += (size_t)bytes;
}

static void eb_str(ev_buf *e, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n > 4000)
        n = 4000; /* very long names are cut */
    memcpy(e->b + e->n, s ? s : "", n);
    e->b[e->n + n] = 0;
    e->n += n + 1;
}

static void eb_head(ev_buf *e, uint32_t id, uint64_t ts, int32_t cpu,
                    int64_t tid, uint32_t thread)
{
    e->n = 0;
    eb_int(e, id, 4);
    eb_int(e, ts, 8);
    eb_int(e, (uint32_t)cpu, 4);
    eb_int(e, (uint64_t)tid, 8);
    eb_int(e, thread, 4);
}

static int pkt_event(ctf_pkt *k, uint64_t ts, const ev_buf *e)
{
    if (k->len + e->n > PKT_MAX && pkt_flush(k))
        return -1;
    if (k->empty) {
        k->ts_begin = ts;
        k->empty = 0;
    }
    k->ts_end = ts;
    memcpy(k->buf + k->len, e->b, e->n);
    k->len += e->n;
    return 0;
}

/* OS events with a context line (from an ftrace import) get the event
 * class of their ftrace event, with LTTng's field names; 'i' fields are
 * int64 (-1 when the context lacks them), 's' strings. */
typedef struct {
    const char *event;
    const char *f[8][3]; /* CTF field, context key, kind */
} os_class;
#define FIRST_OS_CLASS 4
static const os_class os_classes[] = {
    {"sched_switch", {{"prev_comm", "prev_comm", "s"}, {"prev_tid", "prev_pid", "i"},
                      {"prev_prio", "prev_prio", "i"}, {"prev_state", "prev_state", "s"},
                      {"next_comm", "next_comm", "s"}, {"next_tid", "next_pid", "i"},
                      {"next_prio", "next_prio", "i"}}},
    {"sched_wakeup", {{"comm", "comm", "s"}, {"tid", "pid", "i"}, {"prio", "prio", "i"},
                      {"target_cpu", "target_cpu", "i"}}},
    {"sched_process_fork", {{"parent_comm", "comm", "s"}, {"parent_tid", "pid", "i"},
                            {"child_comm", "child_comm", "s"},
                            {"child_tid", "child_pid", "i"}}},
    {"sched_process_exit", {{"comm", "comm", "s"}, {"tid", "pid", "i"},
                            {"prio", "prio", "i"}}},
    {"irq_handler_entry", {{"irq", "irq", "i"}, {"name", "name", "s"},
                           {"dur_ns", "dur_ns", "i"}}},
    {"softirq_entry", {{"vec", "vec", "i"}, {"action", "action", "s"},
                       {"dur_ns", "dur_ns", "i"}}},
};
#define N_OS_CLASSES (sizeof os_classes / sizeof os_classes[0])

static int64_t ctx_int(const osctx_entry *e, const char *key)
{
    uint64_t v;
    return osctx_num(e, key, &v) && v <= INT64_MAX ? (int64_t)v : -1;
}

/* DIR/NAME through a safe output; the input is never overwritten. */
static cli_out *ctf_file(trace *t, const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
        cli_error("out of memory");
        return NULL;
    }
    snprintf(path, n, "%s/%s", dir, name);
    const char *syms = t->a->str[OPT_SYMS];
    const char *ins[] = {t->in, syms ? syms : t->in, t->ctx_path, NULL};
    cli_out *o = cli_out_open(path, ins);
    free(path);
    return o;
}

static void write_metadata(trace *t, FILE *m)
{
    uint64_t t0 = t->t0_known ? t->t0_ns : 0;
    fprintf(m,
        "/* CTF 1.8 */\n"
        "/* written by trc export --ctf; every trace record is one event */\n\n"
        "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
        "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
        "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
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
        "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n%s\t};\n"
        "\tevent.header := struct {\n\t\tuint32_t id;\n"
        "\t\tuint64_clock_t timestamp;\n\t};\n"
        "\t/* cpu_id: the Linux CPU of an OS event from an ftrace import (its\n"
        "\t * OS context table), -1 when not known (function records); tid:\n"
        "\t * the Linux thread id (the running task of an OS event, the\n"
        "\t * capture thread's from the symbol map), -1 when not known;\n"
        "\t * thread: the trace's thread index (type-7 thread records) */\n"
        "\tevent.context := struct {\n\t\tint32_t cpu_id;\n\t\tint64_t tid;\n"
        "\t\tuint32_t thread;\n\t};\n};\n\n"
        "/* matched: 1 pair, 0 unmatched, 2 entry open at the end, 3 entry\n"
        " * unwound by a later exit of a caller (longjmp) */\n"
        "event {\n\tname = \"func_entry\";\n\tid = 0;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t fid;\n\t\tuint8_t matched;\n"
        "\t\tstring name;\n\t\tuint64_t addr;\n\t};\n};\n\n"
        "event {\n\tname = \"func_exit\";\n\tid = 1;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t fid;\n\t\tuint8_t matched;\n"
        "\t\tstring name;\n\t\tuint64_t addr;\n\t};\n};\n\n"
        "event {\n\tname = \"os\";\n\tid = 2;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t type;\n\t\tuint32_t value;\n"
        "\t\tstring type_name;\n\t};\n};\n\n"
        "event {\n\tname = \"lost\";\n\tid = 3;\n\tstream_id = 0;\n"
        "\tfields := struct {\n\t\tuint32_t count;\n\t};\n};\n",
        t->tr.tick_ns, t0 / 1000000000u, t0 % 1000000000u,
        t->ncpu > 1 ? "\t\tuint32_t cpu_id;\n" : "");
    for (size_t c = 0; c < N_OS_CLASSES; c++) {
        fprintf(m, "\nevent {\n\tname = \"%s\";\n\tid = %zu;\n\tstream_id = 0;\n"
                "\tfields := struct {\n\t\tuint32_t type;\n\t\tuint32_t value;\n",
                os_classes[c].event, FIRST_OS_CLASS + c);
        for (int k = 0; k < 8 && os_classes[c].f[k][0]; k++)
            fprintf(m, "\t\t%s %s;\n", os_classes[c].f[k][2][0] == 's' ? "string"
                    : "int64_t", os_classes[c].f[k][0]);
        fprintf(m, "\t};\n};\n");
    }
}

/* An OS record with its context: the event of its class; 0 when it has no
 * class (the caller writes a plain os event). */
static int os_with_context(ev_buf *e, uint64_t ts, uint32_t thread,
                           const trc_record *r, const osctx_entry *x)
{
    const char *ev = osctx_get(x, "event");
    for (size_t c = 0; ev && c < N_OS_CLASSES; c++) {
        if (strcmp(ev, os_classes[c].event))
            continue;
        int64_t cpu = ctx_int(x, "cpu");
        eb_head(e, (uint32_t)(FIRST_OS_CLASS + c), ts,
                cpu <= INT32_MAX ? (int32_t)cpu : -1, ctx_int(x, "tid"), thread);
        eb_int(e, r->a, 4);
        eb_int(e, r->b, 4);
        for (int k = 0; k < 8 && os_classes[c].f[k][0]; k++) {
            if (os_classes[c].f[k][2][0] == 's')
                eb_str(e, osctx_get(x, os_classes[c].f[k][1]));
            else
                eb_int(e, (uint64_t)ctx_int(x, os_classes[c].f[k][1]), 8);
        }
        return 1;
    }
    return 0;
}

/* The events of pass 2 into the packets of stream_K, K the record's CPU (0
 * for a trace of one CPU), each CPU on its own time line. */
static int write_stream(trace *t, FILE *const *f)
{
    static ctf_pkt ks[TRC_CPU_MAX];
    static ev_buf e;
    osctx cx;
    int rc = 0, rr = 0;
    for (unsigned c = 0; c < t->ncpu; c++) {
        ctf_pkt z = {f[c], NULL, 0, 0, 0, 1, t->ncpu > 1 ? (int)c : -1};
        ks[c] = z;
        if (f[c] && !(ks[c].buf = malloc(PKT_MAX))) {
            cli_error("out of memory");
            rc = -1;
        }
    }
    if (rc || osctx_open(&cx, t->ctx_path)) {
        for (unsigned c = 0; c < t->ncpu; c++)
            free(ks[c].buf);
        return -1;
    }
    /* per CPU: its thread now, that thread's Linux tid, its time line */
    uint32_t threads[TRC_CPU_MAX] = {0};
    int64_t tid0 = host_symmap_tid(t->tr.sym, 0) ? host_symmap_tid(t->tr.sym, 0) : -1;
    int64_t tids[TRC_CPU_MAX];
    uint64_t nows[TRC_CPU_MAX] = {0}, addr;
    for (unsigned c = 0; c < TRC_CPU_MAX; c++)
        tids[c] = tid0;
    cli_progress_phase("export --ctf");
    rc = src_open(t);
    char buf[24];
    trc_record rec;
    const trc_record *r = &rec;
    for (size_t i = 0; i < t->n && !rc && (rr = src_next(t, &rec)) > 0; i++) {
        unsigned cpu = src_cpu(t);
        osctx_entry x;
        int c;
        if (!t->cpu_ok[cpu]) { /* not exported; the context table still moves */
            if (r->kind == TRC_OS && osctx_at(&cx, i, r, &x) < 0)
                rc = -1;
            continue;
        }
        uint32_t thread = threads[cpu];
        int64_t tid = tids[cpu];
        uint64_t ts = (nows[cpu] += r->delta) * t->tr.tick_ns;
        uint8_t fl = t->flag[i];
        switch (r->kind) {
        case TRC_ENTRY:
        case TRC_EXIT:
            eb_head(&e, r->kind == TRC_ENTRY ? 0 : 1, ts, -1, tid, thread);
            eb_int(&e, r->a, 4);
            eb_int(&e, fl & F_MATCH ? 1 : fl & F_OPEN ? 2 : fl & F_UNWOUND ? 3 : 0,
                   1);
            eb_str(&e, host_fn_name(t->tr.sym, r->a, buf));
            eb_int(&e, host_symmap_addr(t->tr.sym, r->a, &addr) ? addr : 0, 8);
            break;
        case TRC_OS:
            c = osctx_at(&cx, i, r, &x);
            if (c < 0) {
                rc = -1;
                continue;
            }
            if (c == 0 || !os_with_context(&e, ts, thread, r, &x)) {
                eb_head(&e, 2, ts, -1, tid, thread);
                eb_int(&e, r->a, 4);
                eb_int(&e, r->b, 4);
                eb_str(&e, host_os_name(r->a, buf));
            }
            if (t->thread_type && r->a == t->thread_type) {
                threads[cpu] = r->b;
                long lt = host_symmap_tid(t->tr.sym, r->b);
                tids[cpu] = lt ? lt : -1;
            }
            break;
        default:
            eb_head(&e, 3, ts, -1, tid, thread);
            eb_int(&e, r->a, 4);
            break;
        }
        rc = pkt_event(&ks[cpu], ts, &e);
    }
    if (!rc && rr > 0 && src_end(t))
        rc = -1;
    if (rr < 0)
        rc = -1;
    if (!rc)
        rc = osctx_finish(&cx, t->n);
    for (unsigned c = 0; c < t->ncpu; c++) {
        if (!rc && ks[c].buf)
            rc = pkt_flush(&ks[c]);
        free(ks[c].buf);
    }
    osctx_close(&cx);
    return rc;
}

int export_ctf(trace *t, const char *dir)
{
    struct stat st;
    int made = 0;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            cli_error("%s: exists and is not a directory", dir);
            return -1;
        }
    } else if (mkdir(dir, 0777) != 0) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    } else {
        made = 1;
    }
    /* metadata and one stream file per CPU exported */
    cli_out *m = ctf_file(t, dir, "metadata");
    cli_out *s[TRC_CPU_MAX] = {NULL};
    FILE *sf[TRC_CPU_MAX] = {NULL};
    int rc = m ? 0 : -1;
    for (unsigned c = 0; c < t->ncpu && !rc; c++) {
        char name[32];
        if (!t->cpu_ok[c])
            continue;
        snprintf(name, sizeof name, "stream_%u", c);
        s[c] = ctf_file(t, dir, name);
        rc = s[c] ? 0 : -1;
        sf[c] = s[c] ? cli_out_file(s[c]) : NULL;
    }
    if (!rc) {
        write_metadata(t, cli_out_file(m));
        rc = write_stream(t, sf);
    }
    /* all files or none */
    for (unsigned c = 0; c < t->ncpu; c++)
        if (s[c] && cli_out_close(s[c], rc == 0))
            rc = -1;
    if (m && cli_out_close(m, rc == 0))
        rc = -1;
    if (rc && made)
        rmdir(dir); /* ours, and empty again */
    return rc;
}
