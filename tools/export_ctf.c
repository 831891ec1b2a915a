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
    const char *ins[] = {t->in, syms ? syms : t->in, NULL};
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
        "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n%s\t};\n"
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
        t->tr.tick_ns, t0 / 1000000000u, t0 % 1000000000u,
        t->ncpu > 1 ? "\t\tuint32_t cpu_id;\n" : "");
}

/* The events of pass 2 into the packets of stream_K, K the record's CPU (0
 * for a trace of one CPU), each CPU on its own time line. */
static int write_stream(trace *t, FILE *const *f)
{
    static ctf_pkt ks[TRC_CPU_MAX];
    int rc = 0, rr = 0;
    for (unsigned c = 0; c < t->ncpu; c++) {
        ctf_pkt z = {f[c], NULL, 0, 0, 0, 1, t->ncpu > 1 ? (int)c : -1};
        ks[c] = z;
        if (f[c] && !(ks[c].buf = malloc(PKT_MAX + 4096))) {
            cli_error("out of memory");
            rc = -1;
        }
    }
    uint32_t tids[TRC_CPU_MAX] = {0};
    uint64_t nows[TRC_CPU_MAX] = {0};
    rc = rc ? rc : src_open(t);
    char buf[24];
    trc_record rec;
    const trc_record *r = &rec;
    for (size_t i = 0; i < t->n && !rc && (rr = src_next(t, &rec)) > 0; i++) {
        unsigned cpu = src_cpu(t);
        if (!t->cpu_ok[cpu])
            continue;
        ctf_pkt *kp = &ks[cpu];
        uint32_t tid = tids[cpu];
        uint64_t now = nows[cpu] += r->delta;
        uint64_t ts = now * t->tr.tick_ns;
        switch (r->kind) {
        case TRC_ENTRY:
        case TRC_EXIT:
            /* matched: 1 pair, 0 unmatched, 2 entry open at the end. */
            rc = pkt_event(kp, r->kind == TRC_ENTRY ? 0 : 1, ts, tid, r->a, 0, 1,
                           t->flag[i] & F_MATCH ? 1 : t->flag[i] & F_OPEN ? 2 : 0,
                           host_fn_name(t->tr.sym, r->a, buf));
            break;
        case TRC_OS:
            rc = pkt_event(kp, 2, ts, tid, r->a, r->b, 2, -1, host_os_name(r->a, buf));
            if (t->thread_type && r->a == t->thread_type)
                tids[cpu] = r->b;
            break;
        default:
            rc = pkt_event(kp, 3, ts, tid, r->a, 0, 1, -1, NULL);
            break;
        }
    }
    if (rr < 0)
        rc = -1;
    for (unsigned c = 0; c < t->ncpu; c++) {
        if (!rc && ks[c].buf)
            rc = pkt_flush(&ks[c]);
        free(ks[c].buf);
    }
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
