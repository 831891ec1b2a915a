/*
 * host_common.c - symbol map, a trace opened with its symbol map and time
 * base, and OS type names, shared by the host tools.
 * Formats: docs/host-tools.md.
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
    uint64_t x = 0;
    unsigned base = 10;
    if (!s || !*s)
        return -1;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s)
            return -1;
    }
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (x > (UINT64_MAX - d) / base)
            return -1;
        x = x * base + d;
    }
    *v = x;
    return 0;
}

/* ---- Symbol map ------------------------------------------------------------- */

typedef struct {
    uint32_t id;
    size_t line; /* later lines win for the same id */
    char *name;
    uint64_t addr; /* run-time address (ADDRESS), when has_addr */
    int has_addr;
} sym;

struct host_symmap {
    sym *s;       /* by id, one per id */
    sym **by_name; /* by name, then id */
    size_t n, cap;
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

static int by_id(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int by_name(const void *a, const void *b)
{
    const sym *x = *(sym *const *)a, *y = *(sym *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Sorts the entries, keeps the last line of each id, builds the name index. */
static int symmap_index(host_symmap *m)
{
    if (m->n > 1)
        qsort(m->s, m->n, sizeof *m->s, by_id);
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (k && m->s[k - 1].id == m->s[i].id) {
            free(m->s[k - 1].name);
            m->s[k - 1] = m->s[i];
        } else {
            m->s[k++] = m->s[i];
        }
    }
    m->n = k;
    m->by_name = malloc((k ? k : 1) * sizeof *m->by_name);
    if (!m->by_name)
        return -1;
    for (size_t i = 0; i < k; i++)
        m->by_name[i] = &m->s[i];
    if (k > 1)
        qsort(m->by_name, k, sizeof *m->by_name, by_name);
    return 0;
}

host_symmap *host_symmap_load(const char *path)
{
    FILE *f = cli_in_open(path);
    if (!f)
        return NULL;
    host_symmap *m = calloc(1, sizeof *m);
    char *line = NULL;
    size_t cap = 0;
    unsigned long ln = 0;
    ssize_t len;
    if (!m)
        goto oom;
    while ((len = getline(&line, &cap, f)) >= 0) {
        ln++;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#') {
            host_timebase tb;
            int r = thread_line(m, s) ? 0 : host_timebase_parse(s, &tb);
            if (r < 0) {
                cli_error("%s:%lu: malformed time base line (# trc-timebase "
                          "clock=monotonic tick_ns=N [t0_ns=N])", path, ln);
                goto fail;
            }
            if (r > 0)
                m->tb = tb;
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
        if (m->n == m->cap) {
            size_t nc = m->cap ? 2 * m->cap : 256;
            sym *t = realloc(m->s, nc * sizeof *t);
            if (!t)
                goto oom;
            m->s = t;
            m->cap = nc;
        }
        m->s[m->n].id = (uint32_t)id;
        m->s[m->n].line = ln;
        char *addr = strtok(NULL, " \t\r\n");
        uint64_t av;
        m->s[m->n].has_addr = addr && !strncmp(addr, "0x", 2) &&
                              !host_parse_u64(addr, &av);
        m->s[m->n].addr = m->s[m->n].has_addr ? av : 0;
        if (!(m->s[m->n].name = strdup(nm)))
            goto oom;
        m->n++;
    }
    if (ferror(f)) {
        cli_in_error(f, path);
        goto fail;
    }
    if (symmap_index(m))
        goto oom;
    free(line);
    if (f != stdin)
        fclose(f);
    return m;
oom:
    cli_error("%s: out of memory", path);
fail:
    free(line);
    if (f != stdin)
        fclose(f);
    host_symmap_free(m);
    return NULL;
}

static const sym *sym_of(const host_symmap *m, uint32_t id)
{
    if (!m)
        return NULL;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->s[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->s[lo].id == id ? &m->s[lo] : NULL;
}

const char *host_symmap_name(const host_symmap *m, uint32_t id)
{
    const sym *s = sym_of(m, id);
    return s ? s->name : NULL;
}

int host_symmap_addr(const host_symmap *m, uint32_t id, uint64_t *addr)
{
    const sym *s = sym_of(m, id);
    if (!s || !s->has_addr)
        return 0;
    *addr = s->addr;
    return 1;
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
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->by_name[mid]->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->n && !strcmp(m->by_name[lo]->name, name)) {
        *id = m->by_name[lo]->id;
        return 1;
    }
    return 0;
}

void host_symmap_free(host_symmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->s[i].name);
    free(m->s);
    free(m->by_name);
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
    return host_sidecar_existing(trace_path, ".sym");
}

char *host_sidecar_existing(const char *trace_path, const char *ext)
{
    char *p = host_sidecar_named(trace_path, ext);
    if (p && access(p, R_OK) == 0)
        return p;
    free(p);
    return NULL;
}

char *host_sidecar_path(const char *trace_path)
{
    return host_sidecar_named(trace_path, ".sym");
}

char *host_sidecar_named(const char *trace_path, const char *ext)
{
    if (!trace_path || !strcmp(trace_path, "-"))
        return NULL;
    size_t n = strlen(trace_path);
    char *p = malloc(n + strlen(ext) + 1);
    if (!p)
        return NULL;
    memcpy(p, trace_path, n + 1);
    if (ends_with(p, ".xz") || ends_with(p, ".gz"))
        p[n - 3] = 0;
    else if (ends_with(p, ".zst"))
        p[n - 4] = 0;
    if (ends_with(p, ".txt") || ends_with(p, ".trc"))
        p[strlen(p) - 4] = 0;
    strcat(p, ext);
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

uint32_t host_thread_type(const cli_args *a)
{
    return cli_given(a, OPT_THREAD_TYPE) ? (uint32_t)a->num[OPT_THREAD_TYPE]
                                         : HOST_OS_THREAD;
}

/* ---- A trace with its symbol map and time base ------------------------------ */

int host_trace_setup(host_trace *t, const cli_args *a, const char *path)
{
    const char *syms = a->str[OPT_SYMS];
    char *side = syms ? NULL : host_sidecar_symmap(path);
    if (syms || side) {
        t->sym = host_symmap_load(syms ? syms : side);
        free(side);
        if (!t->sym)
            return -1;
    }
    /* The rule of trc_cli.h: each field from the option, else the trace's
     * own line, else its symbol map's, else the default. */
    host_timebase own = cli_reader_timebase(t->rd);
    host_timebase map = host_symmap_timebase(t->sym);
    t->tb = own.known ? own : map;
    t->tb.tick_ns = own.tick_ns ? own.tick_ns : map.tick_ns;
    t->tick_assumed = 0;
    if (cli_given(a, OPT_TICK))
        t->tick_ns = a->num[OPT_TICK];
    else if (t->tb.tick_ns)
        t->tick_ns = t->tb.tick_ns;
    else {
        t->tick_ns = HOST_TICK_DEFAULT;
        t->tick_assumed = 1;
    }
    return 0;
}

void host_trace_note(const host_trace *t, const char *cmd, const char *path)
{
    if (t->tick_assumed)
        fprintf(stderr, "%s: %s states no tick (no '# trc-timebase' line in "
                "it or in a symbol map): %d ns assumed; --tick NS sets it\n",
                cmd, path, HOST_TICK_DEFAULT);
}

int host_trace_open(host_trace *t, const cli_args *a, const char *path)
{
    memset(t, 0, sizeof *t);
    t->rd = cli_open_trace(a, path);
    if (!t->rd || host_trace_setup(t, a, path)) {
        host_trace_close(t);
        return -1;
    }
    return 0;
}

void host_trace_close(host_trace *t)
{
    cli_reader_close(t->rd);
    host_symmap_free(t->sym);
    t->rd = NULL;
    t->sym = NULL;
}
