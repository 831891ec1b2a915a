/*
 * fuzz_export.c - libFuzzer target for `trc export` on decoded streams: the
 * input after byte 0 is a trace (.trc, framed .trc or text); byte 0 picks
 * the outputs (Perfetto JSON to /dev/null, CTF into a scratch folder) and
 * --os-counters, --thread-type. The command must write its outputs or fail
 * cleanly.
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdlib.h>

#include "fuzz_tools.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char dir[64];
    if (!dir[0]) /* tests/t_fuzz.sh removes it after the run */
        snprintf(dir, sizeof dir, "build/tmp/fuzz_export_ctf.%d", (int)getpid());
    char in[64];
    int fd = fuzz_input(data, size, in);
    if (fd < 0)
        return 0;
    char *argv[16] = {"trc", "export", in};
    int argc = 3;
    if (!(data[0] & 3) || (data[0] & 1)) {
        argv[argc++] = "--perfetto";
        argv[argc++] = "/dev/null";
        if (data[0] & 4)
            argv[argc++] = "--os-counters";
    }
    if (data[0] & 2) {
        argv[argc++] = "--ctf";
        argv[argc++] = dir;
    }
    if (data[0] & 8) {
        argv[argc++] = "--thread-type";
        argv[argc++] = "0";
    }
    trc_cli_main(argc, argv);
    close(fd);
    return 0;
}
