/*
 * cli_main.c - the `trc` command line: the table of subcommands (each in a
 * cmd_*.c file), dispatch, help, and the check of stdout at the end.
 */
#include <string.h>

#include "trc_cli.h"

int cmd_compress(const cli_args *a);
int cmd_decompress(const cli_args *a);
int cmd_stats(const cli_args *a);
int cmd_convert(const cli_args *a);
int cmd_frame(const cli_args *a);
int cmd_import_ftrace(const cli_args *a);
int cmd_export(const cli_args *a);
int cmd_calltree(const cli_args *a);

#define B(x) OPT_BIT(OPT_##x)
static const cli_cmd cmds[] = {
    {"compress", cmd_compress, "IN OUT", 2,
     B(RAW) | B(FRAME) | B(SYNC_EVERY) | B(CHECK) | B(PROGRESS) | OPT_PARAMS,
     "a trace (text v1, .trc) -> .trc, or with --raw a bare stream"},
    {"decompress", cmd_decompress, "IN OUT", 2,
     B(RAW) | B(CHECK) | B(FROM_FRAME) | B(PROGRESS) | OPT_PARAMS,
     ".trc (or --raw stream) -> canonical trace text v1"},
    {"stats", cmd_stats, "IN", 1, B(JSON) | B(RAW) | B(CHECK) | B(PROGRESS) | OPT_PARAMS,
     "Table-2 figures of a .trc (or of what text compresses to)"},
    {"frame", cmd_frame, "IN OUT", 2, B(CHECK) | OPT_PARAMS,
     "bare stream with SYNCs (the core's output) -> framed .trc"},
    {"convert", cmd_convert, "IN OUT", 2, B(TO) | B(RAW),
     "trace text v1 <-> trace bin v1 (paper parameters)"},
    {"import-ftrace", cmd_import_ftrace, "IN OUT", 2,
     B(CPU) | B(TICK) | B(MAP) | B(NO_DEFAULT_MAP) | B(MERGE) | B(MERGE_T0) |
         B(CLIP) | B(CONTEXT) | OPT_PARAMS,
     "ftrace text -> OS records (text v1, or .trc by name)"},
    {"export", cmd_export, "IN", 1,
     B(PERFETTO) | B(CTF) | B(SYMS) | B(CONTEXT) | B(TICK) | B(ABSOLUTE) |
         B(OS_COUNTERS) | B(THREAD_TYPE) | B(RAW) | B(CPU) | B(PROGRESS) | OPT_PARAMS,
     "a trace -> Perfetto JSON and/or CTF 1.8"},
    {"calltree", cmd_calltree, "IN", 1,
     B(SYMS) | B(MIN_FRACTION) | B(MODULES) | B(NO_MERGE) | B(DEPTH) |
         B(CALLS) | B(UNIT) | B(TICK) | B(THREAD_TYPE) | B(RAW) | B(CPU) | B(PROGRESS) |
         OPT_PARAMS,
     "the call tree, \"name (self / total)\" by depth"},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static int finish(int rc)
{
    if (rc == 0 && cli_damage_count())
        rc = 1;
    if (cli_stdout_check())
        return rc ? rc : 1;
    return rc;
}

int trc_cli_main(int argc, char **argv)
{
    cli_std_guard();
    if (argc < 2) {
        cli_help_all(stderr, cmds, NCMDS);
        return 2;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        cli_help_all(stdout, cmds, NCMDS);
        return finish(0);
    }
    /* trc help [COMMAND]: as trc --help, or trc COMMAND --help */
    if (!strcmp(argv[1], "help") && argc <= 3) {
        if (argc == 2) {
            cli_help_all(stdout, cmds, NCMDS);
            return finish(0);
        }
        char *h[] = {argv[0], argv[2], "--help", NULL};
        return trc_cli_main(3, h);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("trc %s\n", TRC_VERSION_STRING);
        return finish(0);
    }
    for (size_t i = 0; i < NCMDS; i++) {
        if (strcmp(argv[1], cmds[i].name))
            continue;
        cli_args a;
        int rc = cli_parse(&cmds[i], argc - 1, argv + 1, &a);
        if (rc)
            return finish(rc == 1 ? 0 : rc);
        cli_progress_setup(cmds[i].name, cli_given(&a, OPT_PROGRESS));
        return finish(cmds[i].fn(&a));
    }
    cli_error("unknown command '%s' (trc --help lists them)", argv[1]);
    return 2;
}
