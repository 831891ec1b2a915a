/*
 * fuzz_tools.h - what the CLI-level fuzz targets share: the input bytes as a
 * file (a memfd) that a `trc` command line reads, byte 0 apart (it picks
 * the options).
 */
#ifndef FUZZ_TOOLS_H
#define FUZZ_TOOLS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trc_cli.h"

/* Writes data to a memfd; path gets its /proc/self/fd name. -1 on failure. */
static inline int fuzz_file(const unsigned char *data, size_t size,
                            char path[64])
{
    int fd = memfd_create("trace", 0);
    if (fd < 0)
        return -1;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

/* The fuzz input after its option byte data[0] as a file, path in `in`:
 * the fd, or -1 when there is no option byte or no file. */
static inline int fuzz_input(const unsigned char *data, size_t size,
                             char in[64])
{
    return size < 1 ? -1 : fuzz_file(data + 1, size - 1, in);
}

#endif /* FUZZ_TOOLS_H */
