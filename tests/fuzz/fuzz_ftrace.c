/*
 * fuzz_ftrace.c - libFuzzer target for `trc import-ftrace`: the input is
 * ftrace text (tracefs `trace` or `trace-cmd report`); byte 0 picks options
 * (CPU filter, tick, value width, an added map, the .trc output). The
 * importer must end in output or a clear error, never crash, hang or read
 * out of bounds.
 */
#define _GNU_SOURCE /* memfd_create */

#include "fuzz_tools.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char in[64];
    int fd = fuzz_input(data, size, in);
    if (fd < 0)
        return 0;
    char *argv[16] = {"trc", "import-ftrace", in, "/dev/null"};
    int argc = 4;
    if (data[0] & 1) {
        argv[argc++] = "--cpu";
        argv[argc++] = "0,2-3";
    }
    if (data[0] & 2) {
        argv[argc++] = "--tick";
        argv[argc++] = "1";
    }
    if (data[0] & 4) {
        argv[argc++] = "--value-bits";
        argv[argc++] = "4";
    }
    if (data[0] & 8) {
        argv[argc++] = "--map";
        argv[argc++] = "sched_waking=9:pid";
    }
    if (data[0] & 16)
        argv[argc++] = "--no-default-map";
    trc_cli_main(argc, argv);
    close(fd);
    return 0;
}
