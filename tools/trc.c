/*
 * trc.c - the `trc` command line's entry point (cli_main.c has the table of
 * subcommands).
 */
#include "trc_cli.h"

int main(int argc, char **argv)
{
    return trc_cli_main(argc, argv);
}
