/*
 * cli_opts.c - the option table of every `trc` subcommand and its parser;
 * cli_help.c generates the help from the table. An option a subcommand does
 * not take is an error, never ignored; values are checked against their
 * ranges.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"

enum { K_FLAG, K_STR, K_UINT, K_FRAC, K_CHOICE, K_DICT };

typedef struct {
    const char *name, *metavar;
    unsigned kind;
    uint64_t min, max; /* K_UINT range */
    const char *help;
} cli_opt;

#define U32 UINT64_C(0xffffffff)
static const cli_opt opts[OPT__COUNT] = {
    [OPT_RAW] = {"--raw", NULL, K_FLAG, 0, 0,
                 "a bare stream (no .trc header), with the format options"},
    [OPT_JSON] = {"--json", NULL, K_FLAG, 0, 0, "print JSON"},
    [OPT_CHECK] = {"--check", NULL, K_FLAG, 0, 0,
                   "a checked stream: a CRC-32 after each END/SYNC (the core's CHECK)"},
    [OPT_TO] = {"--to", "bin|text", K_CHOICE, 0, 0,
                "text v1 -> bin v1, or bin v1 -> text v1"},
    [OPT_FRAME] = {"--frame", "N", K_UINT, 1, U32,
                   "framed .trc: a frame with its own CRC-32 every N records"},
    [OPT_SYNC_EVERY] = {"--sync-every", "N", K_UINT, 1, UINT64_MAX,
                        "a SYNC after every N records (the core's SYNC_EVERY)"},
    [OPT_FROM_FRAME] = {"--from-frame", "K", K_UINT, 0, U32,
                        "framed .trc: start at frame K"},
    [OPT_SYMS] = {"--syms", "MAP", K_STR, 0, 0,
                  "symbol map (default: IN's, .sym beside it)"},
    [OPT_TICK] = {"--tick", "NS", K_UINT, 1, UINT64_MAX,
                  "tick length in ns (default: the time base's, else 10)"},
    [OPT_THREAD_TYPE] = {"--thread-type", "T", K_UINT, 0, 65535,
                         "OS type of thread records (default 7, 0: none)"},
    [OPT_PERFETTO] = {"--perfetto", "F.json", K_STR, 0, 0,
                      "write Chrome/Perfetto trace-event JSON"},
    [OPT_CTF] = {"--ctf", "DIR", K_STR, 0, 0, "write CTF 1.8 into DIR"},
    [OPT_ABSOLUTE] = {"--absolute", NULL, K_FLAG, 0, 0,
                      "JSON times from the time base's t0, not from 0"},
    [OPT_OS_COUNTERS] = {"--os-counters", NULL, K_FLAG, 0, 0,
                         "OS records as counter tracks"},
    [OPT_MIN_FRACTION] = {"--min-fraction", "F", K_FRAC, 0, 0,
                          "method 1: keep children covering F (0 < F <= 1)"},
    [OPT_MODULES] = {"--modules", "MAP", K_STR, 0, 0,
                     "method 2: merge callees of the caller's module"},
    [OPT_NO_MERGE] = {"--no-merge", NULL, K_FLAG, 0, 0,
                      "with --modules: only mark method 1's intermediate nodes"},
    [OPT_DEPTH] = {"--depth", "N", K_UINT, 1, U32, "print N levels"},
    [OPT_CALLS] = {"--calls", NULL, K_FLAG, 0, 0, "print call counts"},
    [OPT_UNIT] = {"--unit", "ticks|ns|us|ms", K_CHOICE, 0, 0, "time unit"},
    [OPT_CPU] = {"--cpu", "LIST", K_STR, 0, 0,
                 "only these CPUs (0,2-3): ftrace's, or a trace's of several"},
    [OPT_MAP] = {"--map", "EVENT=TYPE[:FIELD]|EVENT=none", K_STR, 0, 0,
                 "map an event (repeatable)"},
    [OPT_NO_DEFAULT_MAP] = {"--no-default-map", NULL, K_FLAG, 0, 0,
                            "start from no mapped event"},
    [OPT_MERGE] = {"--merge", "CAPTURE", K_STR, 0, 0,
                   "interleave with a capture trace by absolute time"},
    [OPT_MERGE_T0] = {"--merge-t0", "NS", K_UINT, 0, UINT64_MAX,
                      "with --merge: the capture's t0"},
    [OPT_CLIP] = {"--clip", NULL, K_FLAG, 0, 0,
                  "with --merge: drop OS events outside the capture"},
    [OPT_CONTEXT] = {"--context", "F.osctx", K_STR, 0, 0,
                     "OS context table (default: beside the trace, .osctx)"},
    [OPT_PROGRESS] = {"--progress", NULL, K_FLAG, 0, 0,
                      "progress on stderr (default: when it is a terminal)"},
    [OPT_NT] = {"--nt", "N", K_UINT, 0, 255, "delta bits NT (23)"},
    [OPT_FID_BITS] = {"--fid-bits", "N", K_UINT, 0, 255, "function id bits (15)"},
    [OPT_TYPE_BITS] = {"--type-bits", "N", K_UINT, 0, 255, "OS type bits (7)"},
    [OPT_VALUE_BITS] = {"--value-bits", "N", K_UINT, 0, 255, "OS value bits (16)"},
    [OPT_DICT_BITS] = {"--dict-bits", "N|F,T,V", K_DICT, 0, 255,
                       "dictionary address bits (3)"},
    [OPT_MODE] = {"--mode", "paper|stack|stack2", K_CHOICE, 0, 0, "coding mode (paper)"},
    [OPT_TABLE_BITS] = {"--table-bits", "N", K_UINT, 0, 255,
                        "stack modes: context table bits, 4..12 (9; stack2 12)"},
    [OPT_STACK_DEPTH] = {"--stack-depth", "N", K_UINT, 0, 255,
                         "stack modes: call stack depth, 1..64 (16)"},
    [OPT_CPUS] = {"--cpus", "N", K_UINT, 1, TRC_CPU_MAX,
                  "CPUs of the stream, 1..8 (1; docs/format.md 4.9)"},
    [OPT_QUANTUM] = {"--quantum", "N|auto", K_STR, 0, 0,
                     "stack2: time quantum in ticks, 1, 10, 100 or 1000 (1); "
                     "compress, stats of text: auto, the largest that divides "
                     "every delta, the default from a file into a .trc "
                     "(docs/format.md 4.8)"},
    [OPT_FRESH] = {"--fresh", NULL, K_FLAG, 0, 0,
                   "stack2: fresh context entries code without ranks "
                   "(the default; shorter after a reset; docs/format.md 4.8)"},
    [OPT_NO_FRESH] = {"--no-fresh", NULL, K_FLAG, 0, 0,
                      "stack2: without fresh entries (a core built with FE 0; "
                      "readers older than fresh entries)"},
};

static const char *const choices[][5] = {
    [OPT_TO] = {"bin", "text", NULL},
    [OPT_UNIT] = {"ticks", "ns", "us", "ms", NULL},
    [OPT_MODE] = {"paper", "stack", "stack2", NULL},
};

/* Strict decimal: digits only, no sign, no base prefix, no overflow. */
static int parse_dec(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return 0;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 1;
}

static int value(const cli_args *a, unsigned id, const char *v, cli_args *out)
{
    const cli_opt *o = &opts[id];
    uint64_t x;
    switch (o->kind) {
    case K_UINT:
        if (!parse_dec(v, &x)) {
            cli_error("%s: %s: '%s' is not a number", a->cmd, o->name, v);
            return 0;
        }
        if (x < o->min || x > o->max) {
            cli_error("%s: %s %s is out of range %llu..%llu", a->cmd, o->name,
                      v, (unsigned long long)o->min, (unsigned long long)o->max);
            return 0;
        }
        out->num[id] = x;
        return 1;
    case K_FRAC: {
        char *end;
        errno = 0;
        double f = strtod(v, &end);
        if (errno || end == v || *end || !(f > 0 && f <= 1)) {
            cli_error("%s: %s takes 0 < F <= 1, not '%s'", a->cmd, o->name, v);
            return 0;
        }
        out->frac = f;
        return 1;
    }
    case K_CHOICE:
        for (unsigned k = 0; choices[id][k]; k++)
            if (!strcmp(v, choices[id][k])) {
                out->num[id] = k;
                return 1;
            }
        cli_error("%s: %s takes %s, not '%s'", a->cmd, o->name, o->metavar, v);
        return 0;
    case K_DICT: {
        uint64_t d[3];
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        char *c1 = strchr(buf, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        int ok;
        if (!c1) {
            ok = parse_dec(buf, &d[0]);
            d[1] = d[2] = d[0];
        } else {
            ok = c2 && !strchr(c2 + 1, ',') && strlen(v) < sizeof buf;
            if (ok) {
                *c1 = *c2 = '\0';
                ok = parse_dec(buf, &d[0]) && parse_dec(c1 + 1, &d[1]) &&
                     parse_dec(c2 + 1, &d[2]);
            }
        }
        if (!ok || d[0] > 255 || d[1] > 255 || d[2] > 255) {
            cli_error("%s: %s takes N or F,T,V, not '%s'", a->cmd, o->name, v);
            return 0;
        }
        out->p.nd_f = (unsigned)d[0];
        out->p.nd_t = (unsigned)d[1];
        out->p.nd_v = (unsigned)d[2];
        return 1;
    }
    default:
        return 1;
    }
}

/* The format parameters: the paper's (or a stack mode's) defaults, then the
 * options given, whatever their order. */
static int params(cli_args *a)
{
    int mode = cli_given(a, OPT_MODE) ? (int)a->num[OPT_MODE] : 0, stack = mode != 0;
    trc_params p = mode == 2 ? trc_params_stack2() : stack ? trc_params_stack()
                                                           : trc_params_paper();
    if (!stack && (cli_given(a, OPT_TABLE_BITS) || cli_given(a, OPT_STACK_DEPTH))) {
        cli_error("%s: %s needs --mode stack", a->cmd,
                  opts[cli_given(a, OPT_TABLE_BITS) ? OPT_TABLE_BITS
                                                    : OPT_STACK_DEPTH].name);
        return 0;
    }
    if (cli_given(a, OPT_NT)) p.nt = (unsigned)a->num[OPT_NT];
    if (cli_given(a, OPT_FID_BITS)) p.fid_w = (unsigned)a->num[OPT_FID_BITS];
    if (cli_given(a, OPT_TYPE_BITS)) p.type_w = (unsigned)a->num[OPT_TYPE_BITS];
    if (cli_given(a, OPT_VALUE_BITS)) p.val_w = (unsigned)a->num[OPT_VALUE_BITS];
    if (cli_given(a, OPT_DICT_BITS)) {
        p.nd_f = a->p.nd_f;
        p.nd_t = a->p.nd_t;
        p.nd_v = a->p.nd_v;
    }
    if (cli_given(a, OPT_TABLE_BITS)) p.sk = (unsigned)a->num[OPT_TABLE_BITS];
    if (cli_given(a, OPT_STACK_DEPTH)) p.sd = (unsigned)a->num[OPT_STACK_DEPTH];
    if (cli_given(a, OPT_CPUS)) p.cpus = (unsigned)a->num[OPT_CPUS];
    if (cli_given(a, OPT_QUANTUM)) {
        const char *q = a->str[OPT_QUANTUM];
        uint64_t x = 0;
        int is_auto = !strcmp(q, "auto");
        if (is_auto && strcmp(a->cmd, "compress") && strcmp(a->cmd, "stats")) {
            cli_error("%s: --quantum auto: only compress and stats read the deltas "
                      "to choose a quantum; give the stream's (N)", a->cmd);
            return 0;
        }
        if (!is_auto && (!parse_dec(q, &x) ||
                         (x != 1 && x != 10 && x != 100 && x != 1000))) {
            cli_error("%s: --quantum: '%s' is not 1, 10, 100, 1000 or auto", a->cmd, q);
            return 0;
        }
        /* auto: the largest quantum that NT allows; compress lowers it to
         * the one the deltas allow */
        p.tq = is_auto ? 1000u : (unsigned)x;
        if (p.tq > 1u && trc_params_check(&p) != TRC_OK) {
            cli_error("%s: --quantum %s: a time quantum of 10, 100 or 1000 ticks "
                      "needs --mode stack2 and an NT for which NT + 1 is not a power "
                      "of two (docs/format.md 4.8)", a->cmd, q);
            return 0;
        }
    }
    if (cli_given(a, OPT_FRESH) || cli_given(a, OPT_NO_FRESH)) {
        int no = cli_given(a, OPT_NO_FRESH);
        if (no && cli_given(a, OPT_FRESH)) {
            cli_error("%s: --fresh and --no-fresh: give one of them", a->cmd);
            return 0;
        }
        if (p.mode != TRC_MODE_STACK2) {
            cli_error("%s: %s needs --mode stack2 (docs/format.md 4.8)", a->cmd,
                      no ? "--no-fresh" : "--fresh");
            return 0;
        }
        p.fe = no ? 0u : 1u;
    }
    if (p.cpus > 1 && (p.mode != TRC_MODE_PAPER || ((p.nt + 1u) & p.nt) == 0)) {
        cli_error("%s: --cpus %u: streams of several CPUs are paper mode only, with "
                  "an NT for which NT + 1 is not a power of two (docs/format.md 4.9)",
                  a->cmd, p.cpus);
        return 0;
    }
    if (trc_params_check(&p) != TRC_OK) {
        cli_error("%s: format parameters out of range: NT 2..32, fid-bits "
                  "1..31, type-bits 3..16, value-bits 1..32, dict-bits 1..8 and "
                  "at most the field's bits; stack modes: table-bits 4..12, "
                  "stack-depth 1..64", a->cmd);
        return 0;
    }
    a->p = p;
    return 1;
}

static int find(const char *arg, size_t len)
{
    for (unsigned id = 0; id < OPT__COUNT; id++)
        if (strlen(opts[id].name) == len && !strncmp(arg, opts[id].name, len))
            return (int)id;
    return -1;
}

int cli_parse(const cli_cmd *c, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = c->name;
    unsigned npos = 0;
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_pos && (!strcmp(arg, "--help") || !strcmp(arg, "-h"))) {
            cli_help_cmd(stdout, c);
            return 1;
        }
        if (!only_pos && !strcmp(arg, "--")) {
            only_pos = 1;
            continue;
        }
        if (only_pos || arg[0] != '-' || !arg[1]) {
            if (npos == c->npos) {
                cli_error("%s: unexpected argument '%s' (usage: trc %s %s "
                          "[options])", c->name, arg, c->name, c->pos);
                return 2;
            }
            a->pos[npos++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        int id = find(arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (id < 0) {
            cli_error("%s: unknown option '%s' (trc %s --help)", c->name, arg,
                      c->name);
            return 2;
        }
        const cli_opt *o = &opts[id];
        if (!(c->opts & OPT_BIT(id))) {
            cli_error("%s: %s does not apply to %s (trc %s --help)", c->name,
                      o->name, c->name, c->name);
            return 2;
        }
        if (cli_given(a, (unsigned)id) && id != OPT_MAP) {
            cli_error("%s: %s given twice", c->name, o->name);
            return 2;
        }
        const char *v = NULL;
        if (o->kind == K_FLAG) {
            if (eq) {
                cli_error("%s: %s takes no value", c->name, o->name);
                return 2;
            }
        } else if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            cli_error("%s: %s needs a value (%s %s)", c->name, o->name,
                      o->name, o->metavar);
            return 2;
        }
        if (v && !value(a, (unsigned)id, v, a))
            return 2;
        if (id == OPT_MAP) {
            if (a->nmap == CLI_MAX_MAPS) {
                cli_error("%s: more than %d --map options", c->name, CLI_MAX_MAPS);
                return 2;
            }
            a->map[a->nmap++] = v;
        }
        a->str[id] = v;
        a->given |= OPT_BIT(id);
    }
    if (npos != c->npos) {
        cli_error("%s: usage: trc %s %s [options] (trc %s --help)", c->name,
                  c->name, c->pos, c->name);
        return 2;
    }
    return params(a) ? 0 : 2;
}

int cli_reject(const cli_args *a, unsigned id, const char *reason)
{
    cli_error("%s: %s %s", a->cmd, opts[id].name, reason);
    return 2;
}

const char *cli_opt_name(unsigned id)
{
    return opts[id].name;
}

void cli_opt_line(FILE *f, unsigned id)
{
    const cli_opt *o = &opts[id];
    char left[64];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->metavar ? " " : "",
             o->metavar ? o->metavar : "");
    fprintf(f, "  %-36s %s\n", left, o->help);
}
