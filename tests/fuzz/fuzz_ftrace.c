/*
 * fuzz_ftrace.c - libFuzzer target for `trc import-ftrace`: the input is
 * ftrace text (tracefs `trace` or `trace-cmd report`); byte 0 picks options
 * (CPU filter, tick, value width, an added map, the .trc output). The
 * importer must end in output or a clear error, never crash, hang or read
 * out of bounds.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trc_cli.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    int fd = memfd_create("ftrace", 0);
    if (fd < 0)
        return 0;
    if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
        close(fd);
        return 0;
    }
    char in[64];
    snprintf(in, sizeof in, "/proc/self/fd/%d", fd);
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
