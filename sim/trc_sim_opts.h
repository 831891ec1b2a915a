// trc_sim_opts.h - the command line of every Verilator harness: a table of
// options (--name VALUE, or --name alone for a flag) and positional
// arguments. Numbers are checked whole; a bad or unknown option prints the
// usage, generated from the table, and the harness exits with status 2.
#ifndef TRC_SIM_OPTS_H
#define TRC_SIM_OPTS_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct SimOpt {
    enum Kind { FLAG, UINT, DOUBLE, STR };
    const char *name; // with its dashes: "--seed"
    Kind kind;
    void *dst;        // bool, uint64_t, double or const char *
    const char *help; // "S  seeds the stalls"
};

static inline void sim_usage(const char *prog, const char *positional,
                             const std::vector<SimOpt> &opts)
{
    fprintf(stderr, "usage: %s %s[options]\n", prog, positional);
    for (const SimOpt &o : opts)
        fprintf(stderr, "  %-14s %s\n", o.name, o.help);
}

// Parses argv into the table's destinations; positional arguments go to pos
// (at most max_pos of them). false, with a message, on anything else.
static inline bool sim_parse(int argc, char **argv, const std::vector<SimOpt> &opts,
                             std::vector<const char *> &pos, size_t max_pos)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.size() < 3 || a[0] != '-' || a[1] != '-') {
            if (pos.size() >= max_pos) {
                fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[i]);
                return false;
            }
            pos.push_back(argv[i]);
            continue;
        }
        if (a == "--help")
            return false; // the caller prints the usage
        const SimOpt *o = nullptr;
        for (const SimOpt &c : opts)
            if (a == c.name)
                o = &c;
        if (!o) {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], a.c_str());
            return false;
        }
        if (o->kind == SimOpt::FLAG) {
            *(bool *)o->dst = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", argv[0], o->name);
            return false;
        }
        const char *v = argv[++i];
        char *end = nullptr;
        errno = 0;
        if (o->kind == SimOpt::UINT) {
            unsigned long long x = strtoull(v, &end, 0);
            if (v[0] == '-' || errno)
                end = nullptr;
            *(uint64_t *)o->dst = x;
        } else if (o->kind == SimOpt::DOUBLE) {
            *(double *)o->dst = strtod(v, &end);
        } else {
            *(const char **)o->dst = v;
            continue;
        }
        if (!end || end == v || *end) {
            fprintf(stderr, "%s: %s: '%s' is not a number\n", argv[0], o->name, v);
            return false;
        }
    }
    return true;
}

#endif
