/*
 * export_os.c - `trc export --perfetto`: the Linux CPU tracks drawn from the
 * OS context table of an ftrace import (osctx.h). The Linux CPU here is the
 * CPU an ftrace event happened on, OS context from the table, not a traced
 * processor of the stream. Per CPU c, in process OS_PID:
 *   "Linux CPU c"          one thread slice per sched_switch on c (named
 *                          "COMM PID" of the next task), to the next switch
 *                          on c or to the end of the trace; instants for the
 *                          other OS events of c (wakeup, fork, exit, ...)
 *   "Linux CPU c irq"      irq_handler_entry: a slice to its exit when the
 *                          import saw irq_handler_exit, else an instant
 *   "Linux CPU c softirq"  softirq_entry, the same with softirq_exit
 * Each OS record is one event here, as everywhere in the export: the slice of
 * a sched_switch is written when the next switch of its CPU (or the end)
 * gives its length.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define OS_PID (TRC_CPU_MAX + 1)  /* the JSON process of the CPU tracks: after
                                     the trace's CPUs (pid = CPU + 1) */
#define CPU_TID(c, k) (1000000u + 4u * (unsigned)(c) + (unsigned)(k)) /* k: 0 sched, 1 irq, 2 softirq */
#define MAX_CPU 4096

typedef struct {
    int used, open;
    unsigned __int128 start;  /* the open slice: when it began */
    uint64_t rec;             /* its sched_switch record */
    uint64_t pid;
    int has_pid;
    char comm[64];
    uint64_t slices;
} cpu_track;

/* A capture thread whose Linux tid the context may name. */
typedef struct {
    long tid;
    char comm[64];
} watched;

struct os_tracks {
    cpu_track *cpu;
    size_t ncpu;
    watched *w;  /* by tid */
    size_t nw;
};

static int by_tid(const void *a, const void *b)
{
    const watched *x = a, *y = b;
    return (x->tid > y->tid) - (x->tid < y->tid);
}

int os_tracks_watch(os_tracks *o, const long *tids, size_t n)
{
    if (!n)
        return 0;
    if (!(o->w = calloc(n, sizeof *o->w))) {
        cli_error("export: out of memory");
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        if (tids[k] > 0)
            o->w[o->nw++].tid = tids[k];
    qsort(o->w, o->nw, sizeof *o->w, by_tid);
    return 0;
}

static watched *find_tid(const os_tracks *o, uint64_t tid)
{
    size_t lo = 0, hi = o->nw;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)o->w[mid].tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < o->nw && (uint64_t)o->w[lo].tid == tid ? &o->w[lo] : NULL;
}

const char *os_tracks_comm(const os_tracks *o, long tid)
{
    watched *w = tid > 0 ? find_tid(o, (uint64_t)tid) : NULL;
    return w && w->comm[0] ? w->comm : NULL;
}

/* The names the context gives to the watched tids (the last one wins). */
static void learn_names(os_tracks *o, const osctx_entry *e)
{
    static const char *const pairs[][2] = {
        {"task", "tid"}, {"prev_comm", "prev_pid"}, {"next_comm", "next_pid"},
        {"comm", "pid"}, {"child_comm", "child_pid"}};
    uint64_t pid;
    for (size_t k = 0; o->nw && k < sizeof pairs / sizeof pairs[0]; k++) {
        const char *c = osctx_get(e, pairs[k][0]);
        watched *w = c && osctx_num(e, pairs[k][1], &pid) ? find_tid(o, pid) : NULL;
        if (w)
            snprintf(w->comm, sizeof w->comm, "%s", c);
    }
}

os_tracks *os_tracks_new(void)
{
    os_tracks *o = calloc(1, sizeof *o);
    if (!o)
        cli_error("export: out of memory");
    return o;
}

void os_tracks_free(os_tracks *o)
{
    if (o) {
        free(o->cpu);
        free(o->w);
    }
    free(o);
}

static cpu_track *track(os_tracks *o, uint64_t c)
{
    if (c >= o->ncpu) {
        size_t n = (size_t)c + 1;
        cpu_track *t = realloc(o->cpu, n * sizeof *t);
        if (!t)
            return NULL;
        memset(t + o->ncpu, 0, (n - o->ncpu) * sizeof *t);
        o->cpu = t;
        o->ncpu = n;
    }
    o->cpu[c].used = 1;
    return &o->cpu[c];
}

/* A JSON value: digits as a number (leading zeros dropped), else a string. */
static void json_val(jbuf *f, const char *v)
{
    size_t n = strlen(v);
    if (n && n < 19 && strspn(v, "0123456789") == n) {
        put_u64(f, strtoull(v, NULL, 10));
        return;
    }
    json_str(f, v);
}

/* ,"args":{"record":i,"type":T,"value":V, every context field} */
static void ctx_args(jbuf *f, uint64_t i, const trc_record *r,
                     const osctx_entry *e, const char *extra_key,
                     const char *extra_val)
{
    jprintf(f, ",\"args\":{\"record\":%" PRIu64 ",\"type\":%" PRIu32
            ",\"value\":%" PRIu32, i, r->a, r->b);
    for (size_t k = 0; k < e->n; k++) {
        const char *key = e->key[k];
        jputs(",", f);
        /* an ftrace field named like one of ours is kept apart */
        if (!strcmp(key, "record") || !strcmp(key, "type") || !strcmp(key, "value") ||
            (extra_key && !strcmp(key, extra_key))) {
            jputs("\"field_", f);
            jwrite(f, key, strlen(key));
            jputs("\"", f);
        } else {
            json_str(f, key);
        }
        jputs(":", f);
        json_val(f, e->val[k]);
    }
    if (extra_key) {
        jputs(",", f);
        json_str(f, extra_key);
        jputs(":", f);
        json_str(f, extra_val);
    }
    jputs("}}", f);
}

static void head(jbuf *f, const char *name, const char *cat, const char *ph)
{
    jputs("\"name\":", f);
    json_str(f, name);
    jprintf(f, ",\"cat\":\"%s\",\"ph\":\"%s\"", cat, ph);
}

static void at(jbuf *f, unsigned __int128 ns, unsigned tid)
{
    jputs(",\"ts\":", f);
    json_ts(f, ns);
    jprintf(f, ",\"pid\":%d,\"tid\":%u", OS_PID, tid);
}

/* The thread slice of CPU c's open task, ended at ns. */
static void end_slice(jbuf *f, cpu_track *t, size_t c, unsigned __int128 ns,
                      const char *end_state)
{
    char name[96];
    if (t->has_pid)
        snprintf(name, sizeof name, "%s %" PRIu64, t->comm, t->pid);
    else
        snprintf(name, sizeof name, "%s", t->comm);
    jputs(",\n{", f);
    head(f, name, "sched", "X");
    jputs(",\"dur\":", f);
    json_ts(f, ns - t->start);
    at(f, t->start, CPU_TID(c, 0));
    jprintf(f, ",\"args\":{\"record\":%" PRIu64 ",\"comm\":", t->rec);
    json_str(f, t->comm);
    if (t->has_pid)
        jprintf(f, ",\"pid\":%" PRIu64, t->pid);
    jputs(",\"end_state\":", f);
    json_str(f, end_state);
    jputs("}}", f);
    t->open = 0;
    t->slices++;
}

int os_tracks_event(os_tracks *o, jbuf *f, unsigned __int128 ns, uint64_t i,
                    const trc_record *r, const osctx_entry *e)
{
    uint64_t c;
    const char *ev = osctx_get(e, "event");
    learn_names(o, e);
    if (!ev || !osctx_num(e, "cpu", &c) || c >= MAX_CPU)
        return 0;
    cpu_track *t = track(o, c);
    if (!t) {
        cli_error("export: out of memory");
        return -1;
    }
    char name[160];
    const char *s;
    uint64_t v, dur;
    int has_dur = osctx_num(e, "dur_ns", &dur);
    if (!strcmp(ev, "sched_switch")) {
        /* This record's event is the slice it begins, written with the next
         * switch of its CPU (or at the end); the slice of the previous
         * switch ends here. */
        const char *state = osctx_get(e, "prev_state");
        if (t->open)
            end_slice(f, t, (size_t)c, ns, state ? state : "?");
        s = osctx_get(e, "next_comm");
        snprintf(t->comm, sizeof t->comm, "%s", s ? s : "?");
        t->has_pid = osctx_num(e, "next_pid", &t->pid);
        t->start = ns;
        t->rec = i;
        t->open = 1;
        return 1;
    }
    int irq = !strcmp(ev, "irq_handler_entry");
    int sirq = !strcmp(ev, "softirq_entry");
    if (irq) {
        s = osctx_get(e, "name");
        if (osctx_num(e, "irq", &v))
            snprintf(name, sizeof name, "irq %" PRIu64 "%s%s", v, s ? " " : "",
                     s ? s : "");
        else
            snprintf(name, sizeof name, "irq");
    } else if (sirq) {
        s = osctx_get(e, "action");
        if (s)
            snprintf(name, sizeof name, "softirq %s", s);
        else if (osctx_num(e, "vec", &v))
            snprintf(name, sizeof name, "softirq %" PRIu64, v);
        else
            snprintf(name, sizeof name, "softirq");
    } else {
        snprintf(name, sizeof name, "%s", ev);
    }
    unsigned tid = CPU_TID(c, irq ? 1u : sirq ? 2u : 0u);
    jputs(",\n{", f);
    if ((irq || sirq) && has_dur) {
        head(f, name, irq ? "irq" : "softirq", "X");
        jputs(",\"dur\":", f);
        json_ts(f, (unsigned __int128)dur);
    } else {
        head(f, name, irq ? "irq" : sirq ? "softirq" : "os", "i");
        jputs(",\"s\":\"t\"", f);
    }
    at(f, ns, tid);
    ctx_args(f, i, r, e, (irq || sirq) && !has_dur ? "end" : NULL,
             "unknown (no exit event in the ftrace input)");
    return 1;
}

void os_tracks_finish(os_tracks *o, jbuf *f, unsigned __int128 end_ns)
{
    static const char *const kind[] = {"", " irq", " softirq"};
    for (size_t c = 0; c < o->ncpu; c++) {
        cpu_track *t = &o->cpu[c];
        if (!t->used)
            continue;
        if (t->open)
            end_slice(f, t, c, end_ns, "(end of trace)");
        for (unsigned k = 0; k < 3; k++) {
            jprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,"
                    "\"tid\":%u,\"args\":{\"name\":\"Linux CPU %zu%s\"}}", OS_PID,
                    CPU_TID(c, k), c, kind[k]);
            jprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":"
                    "%d,\"tid\":%u,\"args\":{\"sort_index\":%u}}", OS_PID,
                    CPU_TID(c, k), CPU_TID(c, k));
        }
    }
    if (o->ncpu)
        jprintf(f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                "\"tid\":0,\"args\":{\"name\":\"Linux CPUs (ftrace OS "
                "context)\"}}", OS_PID);
}
