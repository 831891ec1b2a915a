/*
 * cli_io.c - messages and files of the `trc` command line. Outputs are
 * written to a temporary file beside the target and renamed over it on
 * success, so a failed run never leaves half a file and never destroys what
 * was there; device nodes and FIFOs are written in place and never removed;
 * an output that is one of the inputs is refused.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trc_cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("trc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int std_closed[3]; /* fd 0-2 were closed at start */

/* A closed fd 0-2 gets /dev/null opened the wrong way round, so that any
 * I/O on it fails (and no output file lands on fd 1 by chance). */
void cli_std_guard(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) != -1)
            continue;
        std_closed[fd] = 1;
        int n = open("/dev/null", fd ? O_RDONLY : O_WRONLY);
        if (n >= 0 && n != fd) { /* cannot happen: lowest free fd */
            dup2(n, fd);
            close(n);
        }
    }
}

int cli_stdout_check(void)
{
    int bad = ferror(stdout) != 0, err = EIO;
    if (fflush(stdout) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad)
        cli_error("-: write error: %s", std_closed[1]
                      ? "standard output is closed" : strerror(err));
    return bad ? -1 : 0;
}

FILE *cli_in_open(const char *path)
{
    FILE *f;
    if (!strcmp(path, "-")) {
        if (std_closed[0]) {
            cli_error("-: standard input is closed");
            return NULL;
        }
        f = stdin;
    } else if (!(f = fopen(path, "rb"))) {
        cli_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("%s: is a directory", path);
        if (f != stdin)
            fclose(f);
        return NULL;
    }
    FILE *w = cli_decomp_wrap(f, path);
    if (!w && f != stdin)
        fclose(f);
    return w;
}

static int stat_of(const char *path, struct stat *st)
{
    return !strcmp(path, "-") ? fstat(0, st) : stat(path, st);
}

int cli_same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (stat_of(a, &x) || stat_of(b, &y) || !S_ISREG(x.st_mode) ||
        !S_ISREG(y.st_mode))
        return 0;
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int cli_is_regular(const char *path)
{
    struct stat st;
    return strcmp(path, "-") && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

struct cli_out {
    FILE *f;
    char *path; /* the target as given */
    char *real; /* where the temporary file is renamed to */
    char *tmp;  /* the temporary file, NULL when written in place */
};

FILE *cli_out_file(cli_out *o)
{
    return o->f;
}

const char *cli_out_path(const cli_out *o)
{
    return o->path;
}

int cli_out_write(void *ctx, const uint8_t *buf, size_t len)
{
    cli_out *o = ctx;
    return fwrite(buf, 1, len, o->f) == len ? 0 : -1;
}

static void out_free(cli_out *o)
{
    free(o->path);
    free(o->real);
    free(o->tmp);
    free(o);
}

/* Where a temporary file for target goes: the same folder. */
static char *tmp_name(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dir;
    size_t n = dir + strlen(base) + 16;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%.*s.%s.XXXXXX", (int)dir, target, base);
    return t;
}

cli_out *cli_out_open(const char *path, const char *const *inputs)
{
    cli_out *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(path))) {
        cli_error("out of memory");
        free(o);
        return NULL;
    }
    for (size_t i = 0; inputs && inputs[i]; i++) {
        int same = cli_same_file(inputs[i], path);
        if (!strcmp(path, "-") && !strcmp(inputs[i], "-")) {
            struct stat x, y;
            same = !fstat(0, &x) && !fstat(1, &y) && S_ISREG(x.st_mode) &&
                   x.st_dev == y.st_dev && x.st_ino == y.st_ino;
        }
        if (same) {
            cli_error("%s: the output is the input %s; refusing to overwrite it",
                      path, inputs[i]);
            out_free(o);
            return NULL;
        }
    }
    if (!strcmp(path, "-")) {
        if (std_closed[1]) {
            cli_error("-: standard output is closed");
            out_free(o);
            return NULL;
        }
        o->f = stdout;
        return o;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            cli_error("%s: is a directory", path);
            out_free(o);
            return NULL;
        }
        /* A device node or FIFO: written in place, never removed. */
        if (!(o->f = fopen(path, "wb"))) {
            cli_error("%s: %s", path, strerror(errno));
            out_free(o);
            return NULL;
        }
        return o;
    }
    /* A symbolic link is followed: the file it names is replaced. */
    char buf[PATH_MAX];
    o->real = strdup(realpath(path, buf) ? buf : path);
    o->tmp = o->real ? tmp_name(o->real) : NULL;
    int fd = o->tmp ? mkstemp(o->tmp) : -1;
    if (fd < 0) {
        cli_error("%s: cannot create a temporary file beside it: %s", path,
                  strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        out_free(o);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if (!(o->f = fdopen(fd, "wb"))) {
        cli_error("%s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        out_free(o);
        return NULL;
    }
    return o;
}

int cli_out_close(cli_out *o, int keep)
{
    if (!o)
        return 0;
    int bad = ferror(o->f) != 0;
    int err = bad ? EIO : 0;
    if (o->f == stdout) {
        if (fflush(o->f) != 0) {
            bad = 1;
            err = errno;
        }
    } else if (fclose(o->f) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad && keep)
        cli_error("%s: write error: %s", o->path, strerror(err));
    if (o->f == stdout)
        clearerr(stdout); /* reported here, not again at the end */
    if (o->tmp) {
        if (keep && !bad && rename(o->tmp, o->real) != 0) {
            cli_error("%s: cannot rename the finished output into place: %s",
                      o->path, strerror(errno));
            bad = 1;
        }
        if (!keep || bad)
            unlink(o->tmp); /* ours: created by this run */
    }
    out_free(o);
    return bad ? -1 : 0;
}
