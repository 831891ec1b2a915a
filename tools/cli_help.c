/*
 * cli_help.c - `trc --help` and `trc COMMAND --help`, generated from the
 * option table (cli_opts.c) and the subcommand table.
 */
#include <string.h>

#include "trc_cli.h"

/* What every subcommand shares, under both helps. */
static const char cli_help_notes[] =
    "inputs: trace text v1, a .trc (framed or not), or with --raw a bare "
    "stream;\n"
    "  xz and zstd files are read directly (found by their magic, not their "
    "name)\n"
    "time base: tick and t0 from --tick, else the trace's '# trc-timebase' "
    "line,\n"
    "  else its symbol map's (X.sym beside X, or --syms), else 10 ns (said "
    "on stderr)\n"
    "environment: TRC_PROGRESS=1 progress lines on stderr, TRC_PROGRESS=0 "
    "none\n"
    "exit status: 0 ok, 1 error (the message names the file and the place), "
    "2 bad usage\n"
    "documentation: docs/host-tools.md, docs/format.md\n";

void cli_help_cmd(FILE *f, const cli_cmd *c)
{
    fprintf(f, "usage: trc %s %s [options]\n  %s (\"-\" is stdin/stdout)\n",
            c->name, c->pos, c->summary);
    fprintf(f, "options:\n");
    for (unsigned id = 0; id < OPT__COUNT; id++)
        if ((c->opts & OPT_BIT(id)) && !(OPT_PARAMS & OPT_BIT(id)))
            cli_opt_line(f, id);
    if (c->opts & OPT_PARAMS) {
        fprintf(f, "format parameters (defaults: the paper's):\n");
        for (unsigned id = 0; id < OPT__COUNT; id++)
            if (OPT_PARAMS & OPT_BIT(id))
                cli_opt_line(f, id);
    }
    fputs(cli_help_notes, f);
}

void cli_help_all(FILE *f, const cli_cmd *cmds, size_t n)
{
    fprintf(f, "usage: trc COMMAND ARGS [options] (\"-\" is stdin/stdout; "
               "trc COMMAND --help for one)\ncommands:\n");
    for (size_t i = 0; i < n; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", cmds[i].name, cmds[i].pos);
        fprintf(f, "  %-22s %s\n", left, cmds[i].summary);
        fprintf(f, "  %-22s", "");
        int col = 25;
        for (unsigned id = 0; id < OPT__COUNT; id++) {
            if (!(cmds[i].opts & OPT_BIT(id)) || (OPT_PARAMS & OPT_BIT(id)))
                continue;
            size_t w = strlen(cli_opt_name(id)) + 1;
            if (col + (int)w > 79) {
                fprintf(f, "\n  %-22s", "");
                col = 25;
            }
            fprintf(f, " %s", cli_opt_name(id));
            col += (int)w;
        }
        fprintf(f, "%s\n", cmds[i].opts & OPT_PARAMS ? " [params]" : "");
    }
    fprintf(f, "options:\n");
    for (unsigned id = 0; id < OPT__COUNT; id++)
        if (!(OPT_PARAMS & OPT_BIT(id)))
            cli_opt_line(f, id);
    fprintf(f, "params (format parameters; defaults: the paper's):\n");
    for (unsigned id = 0; id < OPT__COUNT; id++)
        if (OPT_PARAMS & OPT_BIT(id))
            cli_opt_line(f, id);
    fprintf(f, "  --version                            print the version\n");
    fputs(cli_help_notes, f);
}
