/*
 * host_common.c - time base, symbol map, OS type names and the record writer
 * shared by the host tools. Formats: docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_common.h"

int host_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

/* ---- Time base ------------------------------------------------------------ */

int host_timebase_parse(const char *line, host_timebase *tb)
{
    while (*line == '#' || *line == ' ')
        line++;
    if (strncmp(line, "trc-timebase", 12) != 0)
        return 0;
    host_timebase t = {0, 0, 0};
    const char *s = line + 12;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        char key[32], val[64];
        size_t k = 0, n = 0;
        while (*s && *s != '=' && *s != ' ' && k < sizeof key - 1)
            key[k++] = *s++;
        key[k] = 0;
        if (*s != '=')
            break;
        s++;
        while (*s && *s != ' ' && *s != '\r' && *s != '\n' && n < sizeof val - 1)
            val[n++] = *s++;
        val[n] = 0;
        uint64_t v;
        if (!strcmp(key, "t0_ns") && !host_parse_u64(val, &v)) {
            t.t0_ns = v;
            t.known = 1;
        } else if (!strcmp(key, "tick_ns") && !host_parse_u64(val, &v)) {
            t.tick_ns = v;
        }
    }
    *tb = t;
    return 1;
}

void host_timebase_format(const host_timebase *tb, char *out, size_t cap)
{
    snprintf(out, cap, "# trc-timebase clock=monotonic tick_ns=%" PRIu64
             " t0_ns=%" PRIu64 "\n", tb->tick_ns, tb->t0_ns);
}

int host_timebase_from_file(const char *path, host_timebase *tb)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    /* Only the leading comment lines count (a .trc never starts with '#'). */
    while (fgets(line, sizeof line, f) && line[0] == '#')
        if (host_timebase_parse(line, tb) && tb->known) {
            found = 1;
            break;
        }
    fclose(f);
    return found;
}

/* ---- Symbol map ------------------------------------------------------------- */

struct host_symmap {
    char **name; /* by id, NULL when absent */
    size_t n;
    host_timebase tb;
    long *tid; /* by thread index */
    size_t ntid;
};

/* "# trc-thread IDX tid=TID" */
static int thread_line(host_symmap *m, const char *s)
{
    unsigned long idx;
    long tid;
    if (sscanf(s, "# trc-thread %lu tid=%ld", &idx, &tid) != 2 || idx > 1u << 20)
        return 0;
    if (idx >= m->ntid) {
        long *t = realloc(m->tid, (idx + 1) * sizeof *t);
        if (!t)
            return 0;
        memset(t + m->ntid, 0, (idx + 1 - m->ntid) * sizeof *t);
        m->tid = t;
        m->ntid = idx + 1;
    }
    m->tid[idx] = tid;
    return 1;
}

long host_symmap_tid(const host_symmap *m, uint32_t idx)
{
    return m && idx < m->ntid ? m->tid[idx] : 0;
}

host_symmap *host_symmap_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: cannot open symbol map: %s", path, strerror(errno));
        return NULL;
    }
    host_symmap *m = calloc(1, sizeof *m);
    char *line = NULL;
    size_t cap = 0;
    unsigned long ln = 0;
    ssize_t len;
    if (!m)
        goto fail;
    while ((len = getline(&line, &cap, f)) >= 0) {
        ln++;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#') {
            if (!thread_line(m, s))
                host_timebase_parse(s, &m->tb);
            continue;
        }
        char *id_s = strtok(s, " \t\r\n");
        if (!id_s)
            continue;
        char *nm = strtok(NULL, " \t\r\n");
        uint64_t id;
        if (!nm || host_parse_u64(id_s, &id) || id > 0xFFFFFFFFu) {
            cli_error("%s:%lu: symbol map line is not 'ID NAME ...'", path, ln);
            goto fail;
        }
        if (id >= m->n) {
            size_t nn = m->n ? m->n : 64;
            while (nn <= id)
                nn *= 2;
            char **t = realloc(m->name, nn * sizeof *t);
            if (!t)
                goto fail;
            memset(t + m->n, 0, (nn - m->n) * sizeof *t);
            m->name = t;
            m->n = nn;
        }
        free(m->name[id]);
        m->name[id] = strdup(nm);
        if (!m->name[id])
            goto fail;
    }
    free(line);
    fclose(f);
    return m;
fail:
    free(line);
    fclose(f);
    host_symmap_free(m);
    return NULL;
}

const char *host_symmap_name(const host_symmap *m, uint32_t id)
{
    return m && id < m->n ? m->name[id] : NULL;
}

host_timebase host_symmap_timebase(const host_symmap *m)
{
    host_timebase none = {0, 0, 0};
    return m ? m->tb : none;
}

int host_symmap_find(const host_symmap *m, const char *name, uint32_t *id)
{
    if (!m)
        return 0;
    for (size_t i = 0; i < m->n; i++)
        if (m->name[i] && !strcmp(m->name[i], name)) {
            *id = (uint32_t)i;
            return 1;
        }
    return 0;
}

void host_symmap_free(host_symmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->name[i]);
    free(m->name);
    free(m->tid);
    free(m);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

char *host_sidecar_symmap(const char *trace_path)
{
    char *p = host_sidecar_path(trace_path);
    if (p && access(p, R_OK) == 0)
        return p;
    free(p);
    return NULL;
}

char *host_sidecar_path(const char *trace_path)
{
    if (!trace_path || !strcmp(trace_path, "-"))
        return NULL;
    size_t n = strlen(trace_path);
    char *p = malloc(n + 5);
    if (!p)
        return NULL;
    memcpy(p, trace_path, n + 1);
    if (ends_with(p, ".xz") || ends_with(p, ".gz"))
        p[n - 3] = 0;
    if (ends_with(p, ".txt") || ends_with(p, ".trc"))
        p[strlen(p) - 4] = 0;
    strcat(p, ".sym");
    return p;
}

const char *host_fn_name(const host_symmap *m, uint32_t id, char buf[24])
{
    const char *s = host_symmap_name(m, id);
    if (s)
        return s;
    snprintf(buf, 24, "f%" PRIu32, id);
    return buf;
}

const char *host_os_name(uint32_t type, char buf[24])
{
    static const char *const names[] = {
        NULL, "sched_switch", "irq_handler_entry", "softirq_entry",
        "sched_wakeup", "sched_process_fork", "sched_process_exit", "thread",
    };
    if (type < sizeof names / sizeof names[0] && names[type])
        return names[type];
    snprintf(buf, 24, "os%" PRIu32, type);
    return buf;
}

/* ---- Record writer ---------------------------------------------------------- */

#define WBATCH 4096

struct host_writer {
    FILE *f;
    const char *path;
    int trc; /* 1: container through the encoder */
    trc_params p;
    trc_encoder enc;
    trc_record batch[WBATCH];
    size_t nb;
    uint64_t index; /* records put so far */
    uint8_t out[WBATCH * TRC_MAX_RECORD_BYTES];
};

static int w_write(host_writer *w, const void *buf, size_t n)
{
    if (n && fwrite(buf, 1, n, w->f) != n) {
        cli_error("%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    return 0;
}

static int w_flush(host_writer *w)
{
    size_t off = 0;
    while (off < w->nb) {
        size_t used = 0, len = 0;
        trc_error e = trc_encode(&w->enc, w->batch + off, w->nb - off, &used,
                                 w->out, sizeof w->out, &len);
        if (w_write(w, w->out, len))
            return -1;
        if (e != TRC_OK) {
            cli_error("%s: record %" PRIu64 ": %s (%s)", w->path,
                      w->index - w->nb + off + used + 1, trc_error_text(e),
                      trc_error_name(e));
            return -1;
        }
        off += used;
    }
    w->nb = 0;
    return 0;
}

host_writer *host_writer_open(const char *path, const trc_params *p,
                              const char *comment)
{
    host_writer *w = calloc(1, sizeof *w);
    if (!w) {
        cli_error("out of memory");
        return NULL;
    }
    w->path = path;
    w->p = *p;
    w->trc = ends_with(path, ".trc");
    if (w->trc) {
        trc_error e = trc_encoder_init(&w->enc, p);
        if (e != TRC_OK) {
            cli_error("bad format parameters: %s", trc_error_text(e));
            free(w);
            return NULL;
        }
    }
    w->f = cli_open_out(path);
    if (!w->f) {
        free(w);
        return NULL;
    }
    if (w->trc) {
        uint8_t h[TRC_HEADER_BYTES];
        trc_error e = trc_header_write(p, p->mode, h);
        if (e != TRC_OK || w_write(w, h, sizeof h)) {
            cli_close(w->f, path);
            free(w);
            return NULL;
        }
    } else if (comment && w_write(w, comment, strlen(comment))) {
        cli_close(w->f, path);
        free(w);
        return NULL;
    }
    return w;
}

int host_writer_put(host_writer *w, const trc_record *r)
{
    w->index++;
    if (w->trc) {
        w->batch[w->nb++] = *r;
        return w->nb == WBATCH ? w_flush(w) : 0;
    }
    trc_error e = trc_record_check(&w->p, r);
    if (e != TRC_OK) {
        cli_error("%s: record %" PRIu64 ": %s (%s)", w->path, w->index,
                  trc_error_text(e), trc_error_name(e));
        return -1;
    }
    char line[TRC_TEXT_LINE_MAX];
    size_t n = trc_text_format(r, line);
    return w_write(w, line, n);
}

int host_writer_close(host_writer *w)
{
    int rc = 0;
    if (!w)
        return 0;
    if (w->trc) {
        size_t len = 0;
        rc = w_flush(w);
        if (!rc) {
            trc_error e = trc_encode_end(&w->enc, w->out, sizeof w->out, &len);
            rc = e != TRC_OK ? -1 : w_write(w, w->out, len);
        }
    }
    if (cli_close(w->f, w->path))
        rc = -1;
    free(w);
    return rc;
}
