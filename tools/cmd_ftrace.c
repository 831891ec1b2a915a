/*
 * cmd_ftrace.c - `trc import-ftrace`: ftrace text (the tracefs `trace` file or
 * `trace-cmd report` output) to OS info records, optionally merged by time
 * with a capture-library trace. Mapping, time base and merge rules:
 * docs/host-tools.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host_common.h"

#define MAX_EVENTS 256 /* distinct event names counted */
#define MAX_CPUS 1024

typedef struct {
    char name[64];
    uint64_t seen;   /* lines of this event (all CPUs) */
    uint64_t cpu_out; /* dropped by the CPU filter */
    uint64_t out;    /* OS records written */
    uint64_t novalue; /* mapped but the field was missing */
    int mapped;
    uint32_t type;
    char field[32];
} ev_stat;

typedef struct {
    uint64_t ns; /* absolute timestamp */
    uint32_t type, value;
} os_ev;

typedef struct {
    ev_stat ev[MAX_EVENTS];
    size_t nev;
    unsigned char cpu_ok[MAX_CPUS];
    int cpu_filter;
    uint64_t lines, comments, unparsed, cut, backwards;
    os_ev *os;
    size_t nos, capos;
} imp;

static ev_stat *ev_get(imp *m, const char *name, size_t len)
{
    for (size_t i = 0; i < m->nev; i++)
        if (strlen(m->ev[i].name) == len && !memcmp(m->ev[i].name, name, len))
            return &m->ev[i];
    if (m->nev == MAX_EVENTS || len >= sizeof m->ev[0].name)
        return NULL;
    ev_stat *e = &m->ev[m->nev++];
    memcpy(e->name, name, len);
    e->name[len] = 0;
    return e;
}

/* "EVENT=TYPE[:FIELD]" or "EVENT=none". */
static int map_option(imp *m, const char *spec, const trc_params *p)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        return -1;
    ev_stat *e = ev_get(m, spec, (size_t)(eq - spec));
    if (!e)
        return -1;
    if (!strcmp(eq + 1, "none")) {
        e->mapped = 0;
        return 0;
    }
    char num[32];
    const char *colon = strchr(eq + 1, ':');
    size_t nlen = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
    if (nlen == 0 || nlen >= sizeof num)
        return -1;
    memcpy(num, eq + 1, nlen);
    num[nlen] = 0;
    uint64_t t;
    if (host_parse_u64(num, &t) || t >= TRC_TYPE_LOST(p))
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

static int cpu_option(imp *m, const char *list)
{
    const char *s = list;
    m->cpu_filter = 1;
    while (*s) {
        char *end;
        errno = 0;
        unsigned long a = strtoul(s, &end, 10), b = a;
        if (end == s || errno)
            return -1;
        if (*end == '-') {
            s = end + 1;
            b = strtoul(s, &end, 10);
            if (end == s || b < a)
                return -1;
        }
        if (b >= MAX_CPUS)
            return -1;
        for (unsigned long c = a; c <= b; c++)
            m->cpu_ok[c] = 1;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return 0;
}

/* "SECONDS.FRACTION" (any number of fraction digits) -> ns. */
static int parse_ts(const char *s, size_t len, uint64_t *ns)
{
    uint64_t sec = 0, frac = 0;
    size_t i = 0, fd = 0;
    if (!len || !isdigit((unsigned char)s[0]))
        return -1;
    for (; i < len && isdigit((unsigned char)s[i]); i++) {
        if (sec > UINT64_MAX / 10 / 1000000000u)
            return -1;
        sec = sec * 10 + (uint64_t)(s[i] - '0');
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && isdigit((unsigned char)s[i]); i++, fd++)
            if (fd < 9)
                frac = frac * 10 + (uint64_t)(s[i] - '0');
        if (fd == 0)
            return -1;
    } else {
        /* No fraction: a counter clock; taken as ns (documented). */
        if (i != len)
            return -1;
        *ns = sec;
        return 0;
    }
    if (i != len)
        return -1;
    for (; fd < 9; fd++)
        frac *= 10;
    *ns = sec * 1000000000u + frac;
    return 0;
}

/* Finds "FIELD=NUMBER" in args; trace-cmd's own formats for sched_switch
 * ("... ==> comm:pid [prio]") and sched_wakeup ("comm:pid [prio] ...") as a
 * fallback. 0 ok, -1 missing. */
static int get_field(const char *args, const char *field, uint64_t *v)
{
    size_t fl = strlen(field);
    for (const char *s = args; (s = strstr(s, field)) != NULL; s += fl) {
        if ((s == args || s[-1] == ' ') && s[fl] == '=') {
            char *end;
            const char *num = s + fl + 1;
            if (!isdigit((unsigned char)*num))
                return -1;
            errno = 0;
            unsigned long long x = strtoull(num, &end, 0);
            if (errno || (*end && *end != ' ' && *end != ','))
                return -1;
            *v = x;
            return 0;
        }
    }
    const char *tok = NULL;
    if (!strcmp(field, "next_pid")) {
        const char *arrow = strstr(args, "==>");
        if (arrow)
            tok = arrow + 3;
    } else if (!strcmp(field, "pid") || !strcmp(field, "child_pid")) {
        tok = args;
    }
    if (!tok)
        return -1;
    while (*tok == ' ')
        tok++;
    const char *end = tok;
    while (*end && *end != ' ')
        end++;
    const char *colon = NULL;
    for (const char *c = tok; c < end; c++)
        if (*c == ':')
            colon = c;
    if (!colon || colon + 1 == end)
        return -1;
    uint64_t x = 0;
    for (const char *c = colon + 1; c < end; c++) {
        if (!isdigit((unsigned char)*c))
            return -1;
        x = x * 10 + (uint64_t)(*c - '0');
    }
    *v = x;
    return 0;
}

static int push_os(imp *m, uint64_t ns, uint32_t type, uint32_t value)
{
    if (m->nos == m->capos) {
        size_t n = m->capos ? m->capos * 2 : 1024;
        os_ev *t = realloc(m->os, n * sizeof *t);
        if (!t)
            return -1;
        m->os = t;
        m->capos = n;
    }
    m->os[m->nos].ns = ns;
    m->os[m->nos].type = type;
    m->os[m->nos].value = value;
    m->nos++;
    return 0;
}

/* One line: "TASK-PID [CPU] [FLAGS] SECONDS.FRAC: EVENT: ARGS".
 * Returns 1 event taken, 0 not an event line, -1 out of memory. */
static int parse_line(imp *m, char *line, const trc_params *p)
{
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '\n' || *s == '\r') {
        m->comments++;
        return 0;
    }
    if (*s == '#') {
        m->comments++;
        return 0;
    }
    /* The CPU field: " [digits]" (TASK may contain spaces and dashes). */
    char *cpu = NULL;
    for (char *c = s; (c = strchr(c, '[')) != NULL; c++) {
        char *d = c + 1;
        if (c > s && c[-1] == ' ' && isdigit((unsigned char)*d)) {
            while (isdigit((unsigned char)*d))
                d++;
            if (*d == ']') {
                cpu = c;
                break;
            }
        }
    }
    if (!cpu)
        goto unparsed;
    unsigned long cpun = strtoul(cpu + 1, NULL, 10);
    char *t = strchr(cpu, ']') + 1;
    /* Up to two tokens (flags, then the timestamp ending in ':'). */
    uint64_t ns = 0;
    int got_ts = 0;
    for (int k = 0; k < 2 && !got_ts; k++) {
        while (*t == ' ')
            t++;
        char *e = t;
        while (*e && *e != ' ')
            e++;
        if (e > t && e[-1] == ':' && !parse_ts(t, (size_t)(e - t - 1), &ns))
            got_ts = 1;
        t = e;
    }
    if (!got_ts)
        goto unparsed;
    while (*t == ' ')
        t++;
    char *name = t;
    while (*t && *t != ':' && *t != ' ')
        t++;
    if (*t != ':' || t == name)
        goto unparsed;
    ev_stat *ev = ev_get(m, name, (size_t)(t - name));
    if (!ev)
        goto unparsed;
    char *args = t + 1;
    while (*args == ' ')
        args++;
    args[strcspn(args, "\r\n")] = 0;
    ev->seen++;
    if (m->cpu_filter && (cpun >= MAX_CPUS || !m->cpu_ok[cpun])) {
        ev->cpu_out++;
        return 1;
    }
    if (!ev->mapped)
        return 1;
    uint64_t v;
    if (get_field(args, ev->field, &v)) {
        ev->novalue++;
        return 1;
    }
    uint64_t vmax = p->val_w >= 32 ? 0xFFFFFFFFu : (1u << p->val_w) - 1u;
    if (v > vmax) {
        m->cut++;
        v &= vmax;
    }
    if (push_os(m, ns, ev->type, (uint32_t)v))
        return -1;
    ev->out++;
    return 1;
unparsed:
    m->unparsed++;
    return 0;
}

/* OUT's symbol map (only for a regular file OUT): the output's time base,
 * so that it survives compression, and with --merge the capture's map
 * lines (function names, threads), so the mixed trace shows names. */
static int write_out_symmap(const char *out, const host_timebase *tb,
                            const char *merge)
{
    struct stat st;
    if (stat(out, &st) || !S_ISREG(st.st_mode))
        return 0;
    char *path = host_sidecar_path(out);
    char *csym = merge ? host_sidecar_symmap(merge) : NULL;
    int rc = 0;
    if (!path || (csym && !strcmp(csym, path))) {
        free(path);
        free(csym);
        return 0;
    }
    FILE *f = fopen(path, "w");
    FILE *c = csym ? fopen(csym, "r") : NULL;
    if (!f) {
        cli_error("%s: cannot create: %s", path, strerror(errno));
        rc = -1;
    } else {
        char line[1024];
        fputs("# trc-symmap v1: ID NAME ADDRESS MODULE OFFSET\n", f);
        host_timebase_format(tb, line, sizeof line);
        fputs(line, f);
        while (c && fgets(line, sizeof line, c))
            if (strncmp(line, "# trc-symmap", 12) && strncmp(line, "# trc-timebase", 14))
                fputs(line, f);
        if (fclose(f)) {
            cli_error("%s: write error", path);
            rc = -1;
        } else {
            fprintf(stderr, "  wrote %s (time base%s)\n", path,
                    c ? " and the capture's symbols" : "");
        }
    }
    if (c)
        fclose(c);
    free(path);
    free(csym);
    return rc;
}

static void usage(void)
{
    fprintf(stderr,
        "usage: trc import-ftrace IN OUT [--cpu LIST] [--tick NS]\n"
        "         [--map EVENT=TYPE[:FIELD]|EVENT=none]... [--no-default-map]\n"
        "         [--merge CAPTURE [--merge-t0 NS] [--clip]] [params]\n"
        "  IN: tracefs `trace` text or `trace-cmd report` output (\"-\" = stdin)\n"
        "  OUT: trace text v1, or a .trc container when OUT ends in .trc\n");
}

static uint64_t ns_to_tick(uint64_t ns, uint64_t tick)
{
    return ns / tick;
}

int cmd_import_ftrace(int argc, char **argv)
{
    static imp m; /* large: counted event table */
    memset(&m, 0, sizeof m);
    trc_params p = trc_params_paper();
    int given = 0, default_map = 1, clip = 0, tick_given = 0;
    const char *in = NULL, *out = NULL, *merge = NULL;
    uint64_t tick = 10, merge_t0 = 0;
    int merge_t0_given = 0;
    const char *maps[64];
    size_t nmaps = 0;
    const char *cpus = NULL;

    for (int i = 1; i < argc;) {
        int r = cli_param_option(argc, argv, &i, &p, &given);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--cpu") && v) {
            cpus = v;
            i += 2;
        } else if (!strcmp(o, "--tick") && v) {
            if (host_parse_u64(v, &tick) || tick == 0) {
                cli_error("import-ftrace: bad --tick '%s'", v);
                return 2;
            }
            tick_given = 1;
            i += 2;
        } else if (!strcmp(o, "--map") && v) {
            if (nmaps == 64) {
                cli_error("import-ftrace: too many --map options");
                return 2;
            }
            maps[nmaps++] = v;
            i += 2;
        } else if (!strcmp(o, "--no-default-map")) {
            default_map = 0;
            i++;
        } else if (!strcmp(o, "--merge") && v) {
            merge = v;
            i += 2;
        } else if (!strcmp(o, "--merge-t0") && v) {
            if (host_parse_u64(v, &merge_t0)) {
                cli_error("import-ftrace: bad --merge-t0 '%s'", v);
                return 2;
            }
            merge_t0_given = 1;
            i += 2;
        } else if (!strcmp(o, "--clip")) {
            clip = 1;
            i++;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage();
            return 0;
        } else if (o[0] == '-' && o[1]) {
            cli_error("import-ftrace: unknown or incomplete option '%s'", o);
            usage();
            return 2;
        } else if (!in) {
            in = o;
            i++;
        } else if (!out) {
            out = o;
            i++;
        } else {
            usage();
            return 2;
        }
    }
    if (!in || !out) {
        usage();
        return 2;
    }
    if (trc_params_check(&p) != TRC_OK) {
        cli_error("import-ftrace: format parameters out of range");
        return 2;
    }
    if (default_map) {
        static const char *const def[] = {
            "sched_switch=1:next_pid", "irq_handler_entry=2:irq",
            "softirq_entry=3:vec", "sched_wakeup=4:pid",
            "sched_process_fork=5:child_pid", "sched_process_exit=6:pid",
        };
        for (size_t k = 0; k < sizeof def / sizeof def[0]; k++)
            map_option(&m, def[k], &p);
    }
    for (size_t k = 0; k < nmaps; k++)
        if (map_option(&m, maps[k], &p)) {
            cli_error("import-ftrace: bad --map '%s' (EVENT=TYPE[:FIELD], TYPE "
                      "below %u; a new event needs its FIELD)", maps[k],
                      TRC_TYPE_LOST(&p));
            return 2;
        }
    if (cpus && cpu_option(&m, cpus)) {
        cli_error("import-ftrace: bad --cpu '%s' (e.g. 0 or 0,2-3)", cpus);
        return 2;
    }

    /* Capture side first: its time base decides the tick. */
    host_timebase ctb = {0, 0, 0};
    cli_reader *rd = NULL;
    if (merge) {
        if (merge_t0_given) {
            ctb.known = 1;
            ctb.t0_ns = merge_t0;
            host_timebase tmp;
            if (host_timebase_from_file(merge, &tmp))
                ctb.tick_ns = tmp.tick_ns;
        } else if (!host_timebase_from_file(merge, &ctb)) {
            char *sym = host_sidecar_symmap(merge);
            host_symmap *sm = sym ? host_symmap_load(sym) : NULL;
            if (sm)
                ctb = host_symmap_timebase(sm);
            host_symmap_free(sm);
            free(sym);
        }
        if (!ctb.known) {
            cli_error("import-ftrace: %s has no time base (no '# trc-timebase' "
                      "line in it or in its .sym map); give --merge-t0 NS", merge);
            return 1;
        }
        if (ctb.tick_ns && ctb.tick_ns != tick) {
            if (tick_given) {
                cli_error("import-ftrace: --tick %" PRIu64 " but %s has tick "
                          "%" PRIu64 " ns", tick, merge, ctb.tick_ns);
                return 1;
            }
            tick = ctb.tick_ns;
        }
    }

    FILE *f = cli_open_in(in);
    if (!f)
        return 1;
    char *line = NULL;
    size_t lcap = 0;
    while (getline(&line, &lcap, f) >= 0) {
        m.lines++;
        if (parse_line(&m, line, &p) < 0) {
            cli_error("import-ftrace: out of memory");
            free(line);
            free(m.os);
            cli_close(f, in);
            return 1;
        }
        if ((m.lines & 0xFFFFF) == 0)
            fprintf(stderr, "import-ftrace: %" PRIu64 " lines\n", m.lines);
    }
    free(line);
    if (ferror(f)) {
        cli_error("%s: read error", in);
        free(m.os);
        cli_close(f, in);
        return 1;
    }
    cli_close(f, in);

    if (merge) {
        rd = cli_reader_open(merge, &p, 0);
        if (!rd) {
            free(m.os);
            return 1;
        }
        if (memcmp(cli_reader_params(rd), &p, sizeof p)) {
            cli_error("import-ftrace: %s uses other format parameters; give "
                      "the same ones", merge);
            cli_reader_close(rd);
            free(m.os);
            return 1;
        }
    }

    /* Output time base: the capture's t0 when merging (earlier if an OS
     * event comes first and is kept), else the first OS event. */
    uint64_t t0_tick;
    if (merge) {
        t0_tick = ns_to_tick(ctb.t0_ns, tick);
        if (!clip && m.nos && ns_to_tick(m.os[0].ns, tick) < t0_tick)
            t0_tick = ns_to_tick(m.os[0].ns, tick);
    } else {
        t0_tick = m.nos ? ns_to_tick(m.os[0].ns, tick) : 0;
    }
    host_timebase otb = {1, t0_tick * tick, tick};
    char comment[256];
    int cl = snprintf(comment, sizeof comment,
                      "# trace text v1; trc import-ftrace of %s%s%s\n",
                      in, merge ? " merged with " : "", merge ? merge : "");
    host_timebase_format(&otb, comment + cl, sizeof comment - (size_t)cl);
    host_writer *w = host_writer_open(out, &p, comment);
    if (!w) {
        cli_reader_close(rd);
        free(m.os);
        return 1;
    }

    int rc = 0;
    uint64_t prev = t0_tick, cap_tick = ctb.known ? ns_to_tick(ctb.t0_ns, tick) : 0;
    uint64_t nfunc = 0, clipped = 0, written_os = 0;
    size_t k = 0;
    trc_record cr;
    int have_cr = 0, started = 0;
    if (rd) {
        int r = cli_reader_next(rd, &cr);
        if (r < 0)
            rc = 1;
        have_cr = r > 0;
    }
    while (!rc && (k < m.nos || have_cr)) {
        trc_record r;
        uint64_t at;
        uint64_t os_at = k < m.nos ? ns_to_tick(m.os[k].ns, tick) : 0;
        uint64_t c_at = have_cr ? cap_tick + cr.delta : 0;
        int take_os = k < m.nos && (!have_cr || os_at <= c_at);
        if (take_os) {
            at = os_at;
            int keep = !(merge && clip && (!started || !have_cr));
            k++;
            if (!keep) {
                clipped++;
                continue;
            }
            r.kind = TRC_OS;
            r.a = m.os[k - 1].type;
            r.b = m.os[k - 1].value;
            written_os++;
        } else {
            at = c_at;
            cap_tick = c_at;
            r = cr;
            started = 1;
            nfunc++;
            int nx = cli_reader_next(rd, &cr);
            if (nx < 0) {
                rc = 1;
                break;
            }
            have_cr = nx > 0;
        }
        if (at < prev) {
            m.backwards++;
            at = prev;
        }
        r.delta = at - prev;
        prev = at;
        if (host_writer_put(w, &r))
            rc = 1;
    }
    if (host_writer_close(w))
        rc = 1;
    cli_reader_close(rd);

    /* Report: every event name with what became of it. */
    uint64_t total = 0, other = 0;
    for (size_t i = 0; i < m.nev; i++)
        total += m.ev[i].seen;
    fprintf(stderr, "import-ftrace: %s: %" PRIu64 " events, tick %" PRIu64
            " ns, OS records written %" PRIu64 "\n", in, total, tick, written_os);
    for (size_t i = 0; i < m.nev; i++) {
        ev_stat *e = &m.ev[i];
        if (!e->seen)
            continue;
        if (e->mapped) {
            fprintf(stderr, "  %-22s %8" PRIu64 "  -> type %" PRIu32 " (%s):"
                    " %" PRIu64 " records", e->name, e->seen, e->type, e->field,
                    e->out);
        } else {
            fprintf(stderr, "  %-22s %8" PRIu64 "  not mapped", e->name, e->seen);
            other += e->seen - e->cpu_out;
        }
        if (e->cpu_out)
            fprintf(stderr, ", %" PRIu64 " on other CPUs", e->cpu_out);
        if (e->novalue)
            fprintf(stderr, ", %" PRIu64 " without field %s", e->novalue, e->field);
        fputc('\n', stderr);
    }
    fprintf(stderr, "  other (unmapped) events: %" PRIu64 "\n", other);
    if (m.unparsed)
        fprintf(stderr, "  warning: %" PRIu64 " lines are not event lines\n",
                m.unparsed);
    if (m.cut)
        fprintf(stderr, "  warning: %" PRIu64 " values cut to %u bits\n", m.cut,
                p.val_w);
    if (m.backwards)
        fprintf(stderr, "  warning: time went backwards %" PRIu64 " times "
                "(delta 0 written)\n", m.backwards);
    if (merge)
        fprintf(stderr, "  merged %" PRIu64 " capture records; %" PRIu64
                " OS records outside the capture clipped\n", nfunc, clipped);
    if (!rc && write_out_symmap(out, &otb, merge))
        rc = 1;
    free(m.os);
    return rc;
}
