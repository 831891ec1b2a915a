/*
 * ftrace_map.c - the event table of an ftrace import (ftrace_parse.c reads
 * the lines): every event name seen, counted, and the OS type it maps to
 * (--map NAME=TYPE[:FIELD], or the default map), the CPU filter (--cpus),
 * and the numbers of the command line and of ftrace's fields.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"

static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

static int grow_hash(ft_import *m)
{
    size_t nc = m->hcap ? 2 * m->hcap : 256;
    uint32_t *h = calloc(nc, sizeof *h);
    if (!h)
        return -1;
    for (size_t i = 0; i < m->nev; i++) {
        const char *nm = m->ev[i].name;
        size_t s = name_hash(nm, strlen(nm)) & (nc - 1);
        while (h[s])
            s = (s + 1) & (nc - 1);
        h[s] = (uint32_t)i + 1u;
    }
    free(m->hash);
    m->hash = h;
    m->hcap = nc;
    return 0;
}

/* The event named name[0..len), added when new; NULL when the name is too
 * long or memory runs out. */
ft_event *ft_event_get(ft_import *m, const char *name, size_t len)
{
    if (len >= FT_NAME_MAX)
        return NULL;
    if (2 * (m->nev + 1) > m->hcap && grow_hash(m))
        return NULL;
    size_t s = name_hash(name, len) & (m->hcap - 1);
    for (; m->hash[s]; s = (s + 1) & (m->hcap - 1)) {
        ft_event *e = &m->ev[m->hash[s] - 1];
        if (strlen(e->name) == len && !memcmp(e->name, name, len))
            return e;
    }
    if (m->nev == m->capev) {
        size_t nc = m->capev ? 2 * m->capev : 64;
        ft_event *t = realloc(m->ev, nc * sizeof *t);
        if (!t)
            return NULL;
        m->ev = t;
        m->capev = nc;
    }
    ft_event *e = &m->ev[m->nev++];
    memset(e, 0, sizeof *e);
    memcpy(e->name, name, len);
    m->hash[s] = (uint32_t)m->nev;
    return e;
}

/* Decimal, or hex with 0x (ftrace prints no octal): 0 ok, -1 bad. */
int ft_parse_num(const char *s, const char **end, uint64_t *v)
{
    unsigned base = 10;
    uint64_t x = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
        base = 16;
        s += 2;
    }
    if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
        return -1;
    for (;; s++) {
        unsigned d;
        if (isdigit((unsigned char)*s))
            d = (unsigned)(*s - '0');
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
        else
            break;
        if (x > (UINT64_MAX - d) / base)
            return -1;
        x = x * base + d;
    }
    *end = s;
    *v = x;
    return 0;
}

int ft_map(ft_import *m, const char *spec, const trc_params *p)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        return -1;
    ft_event *e = ft_event_get(m, spec, (size_t)(eq - spec));
    if (!e)
        return -1;
    if (!strcmp(eq + 1, "none")) {
        e->mapped = 0;
        return 0;
    }
    const char *colon = strchr(eq + 1, ':'), *end;
    uint64_t t;
    if (ft_parse_num(eq + 1, &end, &t) || end != (colon ? colon : eq + 1 + strlen(eq + 1)) ||
        t >= TRC_TYPE_LOST(p))
        return -1;
    if (colon) {
        if (!colon[1] || strlen(colon + 1) >= sizeof e->field)
            return -1;
        strcpy(e->field, colon + 1);
    } else if (!e->field[0]) {
        return -1; /* a new event needs its field */
    }
    e->mapped = 1;
    e->type = (uint32_t)t;
    return 0;
}

void ft_default_map(ft_import *m, const trc_params *p)
{
    static const char *const def[] = {
        "sched_switch=1:next_pid", "irq_handler_entry=2:irq",
        "softirq_entry=3:vec", "sched_wakeup=4:pid",
        "sched_process_fork=5:child_pid", "sched_process_exit=6:pid",
    };
    for (size_t k = 0; k < sizeof def / sizeof def[0]; k++)
        ft_map(m, def[k], p);
}

int ft_cpus(ft_import *m, const char *list)
{
    const char *s = list, *end;
    m->cpu_filter = 1;
    while (*s) {
        uint64_t a, b;
        if (!isdigit((unsigned char)*s) || ft_parse_num(s, &end, &a))
            return -1;
        b = a;
        if (*end == '-') {
            s = end + 1;
            if (!isdigit((unsigned char)*s) || ft_parse_num(s, &end, &b) || b < a)
                return -1;
        }
        if (b >= FT_MAX_CPUS)
            return -1;
        for (uint64_t c = a; c <= b; c++)
            m->cpu_ok[c] = 1;
        if (*end == ',' && end[1])
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return 0;
}

void ft_free(ft_import *m)
{
    free(m->ctx);
    free(m->ev);
    free(m->hash);
    free(m->os);
    memset(m, 0, sizeof *m);
}
