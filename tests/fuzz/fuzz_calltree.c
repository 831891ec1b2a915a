/*
 * fuzz_calltree.c - libFuzzer target for `trc calltree` on decoded streams:
 * the input after byte 0 is a trace (a .trc container, framed or not, or
 * text); byte 0 picks the abstractions (--min-fraction, --modules with a
 * fixed map, --no-merge), --calls, --depth and a thread record type. The
 * command must end in a tree or a clear error.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdlib.h>

#include "fuzz_tools.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char mod[64];
    if (!mod[0]) { /* a module map of ids, made once */
        static const char m[] = "m1 0 1 2 3\nm2 4 5 6\nm3: 7, 8\n";
        int fd = fuzz_file((const unsigned char *)m, sizeof m - 1, mod);
        if (fd < 0)
            return 0;
    }
    char in[64];
    int fd = fuzz_input(data, size, in);
    if (fd < 0)
        return 0;
    char *argv[16] = {"trc", "calltree", in};
    int argc = 3;
    if (data[0] & 1) {
        argv[argc++] = "--min-fraction";
        argv[argc++] = "0.5";
    }
    if (data[0] & 2) {
        argv[argc++] = "--modules";
        argv[argc++] = mod;
        if (data[0] & 4)
            argv[argc++] = "--no-merge";
    }
    if (data[0] & 8)
        argv[argc++] = "--calls";
    if (data[0] & 16) {
        argv[argc++] = "--depth";
        argv[argc++] = "3";
    }
    if (data[0] & 32) {
        argv[argc++] = "--thread-type";
        argv[argc++] = "1";
    }
    if (data[0] & 64) {
        argv[argc++] = "--unit";
        argv[argc++] = "us";
    }
    trc_cli_main(argc, argv);
    close(fd);
    return 0;
}
