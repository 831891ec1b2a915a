/*
 * fuzz_tools.h - what the CLI-level fuzz targets share: the input bytes as a
 * file (a memfd) that a `trc` command line reads.
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

#endif /* FUZZ_TOOLS_H */
