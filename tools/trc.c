/*
 * trc.c - the `trc` command line: a table of subcommands, each in its own
 * file. This file only dispatches and prints the usage.
 */
#include <stdio.h>
#include <string.h>

#include "trc_cli.h"

int cmd_compress(int argc, char **argv);
int cmd_decompress(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_frame(int argc, char **argv);
int cmd_import_ftrace(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_calltree(int argc, char **argv);

static const struct {
    const char *name;
    trc_cmd_fn fn;
    const char *usage;
} cmds[] = {
    {"compress", cmd_compress, "compress IN OUT [--raw|--frame N] [params]  text v1 -> .trc"},
    {"decompress", cmd_decompress, "decompress IN OUT [--raw|--from-frame K] [params]  .trc -> text"},
    {"stats", cmd_stats, "stats IN [--json] [--raw] [params]  Table-2 style figures"},
    {"frame", cmd_frame, "frame IN OUT [params]  bare stream with SYNCs -> framed .trc"},
    {"convert", cmd_convert, "convert IN OUT --to bin|text         text v1 <-> bin v1"},
    {"import-ftrace", cmd_import_ftrace, "import-ftrace IN OUT [--cpu L] [--merge CAP]"},
    {"export", cmd_export, "export IN --perfetto F.json | --ctf DIR"},
    {"calltree", cmd_calltree, "calltree IN [--min-fraction F] [--modules MAP]"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: trc COMMAND ARGS (\"-\" is stdin/stdout)\n");
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(f, "  trc %s\n", cmds[i].usage);
    fprintf(f, "params: --nt N --fid-bits N --type-bits N --value-bits N "
               "--dict-bits N|F,T,V (defaults: the paper's 23 15 7 16 3)\n"
               "        --mode paper|stack [--table-bits N (4..12, 9)] "
               "[--stack-depth N (1..64, 16)]\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("trc %s\n", TRC_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    cli_error("unknown command '%s' (trc --help lists them)", argv[1]);
    return 2;
}
