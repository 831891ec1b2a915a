/*
 * ftrace_ctx.c - the OS context of an ftrace event line, for the side table
 * that `trc import-ftrace` writes beside its output (docs/host-tools.md,
 * "OS context table"): the event's name, its Linux CPU, the task that was
 * running (task, tid) and the event's fields as KEY=VALUE, with trace-cmd
 * report's own formats of sched_switch and sched_wakeup turned into the
 * tracefs field names. Values are %-escaped (space, '%', control bytes), so
 * a line splits at spaces.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"

static int grow(ft_import *m, size_t need)
{
    if (m->capctx - m->nctx >= need)
        return 0;
    size_t nc = m->capctx ? m->capctx : 1u << 16;
    while (nc - m->nctx < need)
        nc *= 2;
    char *t = realloc(m->ctx, nc);
    if (!t)
        return -1;
    m->ctx = t;
    m->capctx = nc;
    return 0;
}

/* Appends " KEY=VALUE" (value escaped); an empty value is skipped. */
static int put_kv(ft_import *m, const char *key, const char *v, size_t n)
{
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    while (n && (*v == ' ' || *v == '\t')) {
        v++;
        n--;
    }
    if (!n)
        return 0;
    if (grow(m, strlen(key) + 3 * n + 3))
        return -1;
    char *p = m->ctx + m->nctx;
    p += sprintf(p, "%s%s=", m->nctx == m->ctx_start ? "" : " ", key);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c <= ' ' || c == '%' || c == 0x7f)
            p += sprintf(p, "%%%02X", c);
        else
            *p++ = (char)c;
    }
    m->nctx = (size_t)(p - m->ctx);
    return 0;
}

/* "COMM:PID" (COMM may hold ':'): the split at the last ':' of tok[0..n). */
static int comm_pid(ft_import *m, const char *pre, const char *tok, size_t n)
{
    const char *c = NULL;
    for (size_t i = 0; i < n; i++)
        if (tok[i] == ':')
            c = tok + i;
    if (!c)
        return 0;
    char k[32];
    snprintf(k, sizeof k, "%scomm", pre);
    if (put_kv(m, k, tok, (size_t)(c - tok)))
        return -1;
    snprintf(k, sizeof k, "%spid", pre);
    return put_kv(m, k, c + 1, (size_t)(tok + n - c - 1));
}

/* trace-cmd report's "COMM:PID [PRIO]" at s; returns the end, NULL if not. */
static const char *tc_task(ft_import *m, const char *pre, const char *s, int *err)
{
    const char *br = strstr(s, " [");
    if (!br || !isdigit((unsigned char)br[2]))
        return NULL;
    const char *end = strchr(br, ']');
    if (!end)
        return NULL;
    char k[32];
    snprintf(k, sizeof k, "%sprio", pre);
    if (comm_pid(m, pre, s, (size_t)(br - s)) ||
        put_kv(m, k, br + 2, (size_t)(end - br - 2)))
        *err = 1;
    return end + 1;
}

/* trace-cmd's sched_switch "A:1 [120] S ==> B:2 [120]" and sched_wakeup
 * "A:1 [120] CPU:000"; 1 done, 0 not that format, -1 out of memory. */
static int tracecmd_format(ft_import *m, const char *ev, const char *args)
{
    int err = 0;
    if (!strcmp(ev, "sched_switch") && strstr(args, " ==> ") &&
        !strstr(args, "prev_pid=")) {
        const char *e = tc_task(m, "prev_", args, &err);
        const char *arrow = strstr(args, " ==> ");
        if (!e || e > arrow)
            return err ? -1 : 0;
        if (put_kv(m, "prev_state", e, (size_t)(arrow - e)) ||
            !tc_task(m, "next_", arrow + 5, &err))
            return -1;
        return err ? -1 : 1;
    }
    if (!strcmp(ev, "sched_wakeup") && !strstr(args, "pid=")) {
        const char *e = tc_task(m, "", args, &err);
        if (!e)
            return err ? -1 : 0;
        const char *cpu = strstr(e, "CPU:");
        if (cpu && put_kv(m, "target_cpu", cpu + 4, strcspn(cpu + 4, " ")))
            return -1;
        return err ? -1 : 1;
    }
    return 0;
}

/* Where a "KEY=" token starts at or after s (KEY an identifier preceded by
 * the start, a blank or '['), NULL when none; *klen = KEY's length. */
static const char *next_key(const char *start, const char *s, size_t *klen)
{
    for (; *s; s++) {
        if (s != start && s[-1] != ' ' && s[-1] != '[')
            continue;
        if (!isalpha((unsigned char)*s) && *s != '_')
            continue;
        size_t k = 0;
        while (isalnum((unsigned char)s[k]) || s[k] == '_')
            k++;
        if (s[k] == '=') {
            *klen = k;
            return s;
        }
    }
    return NULL;
}

/* The tracefs format: KEY=VALUE fields, a value running to the next field
 * (so comms with spaces survive); " ==>" and brackets are dropped. */
static int tracefs_fields(ft_import *m, const char *args)
{
    size_t klen, nk;
    const char *k = next_key(args, args, &klen);
    while (k) {
        const char *v = k + klen + 1;
        const char *nx = next_key(args, v, &nk);
        size_t n = nx ? (size_t)(nx - v) : strlen(v);
        while (n && (v[n - 1] == ' ' || v[n - 1] == '['))
            n--;
        if (n >= 4 && !memcmp(v + n - 4, " ==>", 4))
            n -= 4;
        if (n && v[n - 1] == ']' && k > args && k[-1] == '[')
            n--;
        char key[40];
        snprintf(key, sizeof key, "%.*s", (int)(klen < 39 ? klen : 39), k);
        if (put_kv(m, key, v, n))
            return -1;
        k = nx;
        klen = nk;
    }
    return 0;
}

int ft_ctx_build(ft_import *m, const char *ev, const char *task, size_t tlen,
                 unsigned long cpu, const char *args, uint64_t *off,
                 uint32_t *len)
{
    m->ctx_start = m->nctx;
    char cpus[24];
    snprintf(cpus, sizeof cpus, "%lu", cpu);
    /* TASK-PID: the pid after the last '-' */
    size_t dash = tlen;
    while (dash > 0 && task[dash - 1] != '-')
        dash--;
    int r = put_kv(m, "event", ev, strlen(ev)) || put_kv(m, "cpu", cpus, strlen(cpus));
    if (!r && dash > 1 && dash < tlen)
        r = put_kv(m, "task", task, dash - 1) ||
            put_kv(m, "tid", task + dash, tlen - dash);
    if (!r) {
        int t = tracecmd_format(m, ev, args);
        r = t < 0 || (t == 0 && tracefs_fields(m, args));
    }
    if (r || m->nctx - m->ctx_start > UINT32_MAX)
        return -1;
    *off = m->ctx_start;
    *len = (uint32_t)(m->nctx - m->ctx_start);
    return 0;
}

int ft_ctx_value(const ft_import *m, const ft_os *o, const char *key,
                 uint64_t *v)
{
    const char *s = m->ctx + o->ctx, *end = s + o->ctx_len;
    size_t kl = strlen(key);
    while (s < end) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        const char *e = sp ? sp : end;
        if ((size_t)(e - s) > kl && !memcmp(s, key, kl) && s[kl] == '=') {
            uint64_t x = 0;
            const char *d = s + kl + 1;
            if (d == e)
                return 0;
            for (; d < e; d++) {
                if (!isdigit((unsigned char)*d) || x > (UINT64_MAX - 9) / 10)
                    return 0;
                x = x * 10 + (uint64_t)(*d - '0');
            }
            *v = x;
            return 1;
        }
        s = e + 1;
    }
    return 0;
}
