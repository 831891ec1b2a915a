/*
 * host_writer.c - the host tools' record writer: the model's trc_writer on a
 * safe output file (cli_out), a .trc container when the name ends in .trc,
 * else trace text v1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host_common.h"

int host_writer_is_trc(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcmp(path + n - 4, ".trc");
}

struct host_writer {
    cli_out *o;
    const char *path;
    trc_writer w;
};

static int report(host_writer *w, trc_error e)
{
    if (e == TRC_OK)
        return 0;
    if (e == TRC_ERR_IO)
        cli_error("%s: write error: %s", w->path, strerror(errno));
    else
        cli_error("%s: record %" PRIu64 ": %s (%s)", w->path,
                  w->w.records + 1, trc_error_text(e), trc_error_name(e));
    return -1;
}

host_writer *host_writer_open(const char *path, const trc_params *p,
                              const char *comment, const char *const *inputs)
{
    host_writer *w = malloc(sizeof *w);
    if (!w) {
        cli_error("out of memory");
        return NULL;
    }
    w->path = path;
    if (!(w->o = cli_out_open(path, inputs))) {
        free(w);
        return NULL;
    }
    unsigned form = host_writer_is_trc(path) ? TRC_FORM_CONTAINER : TRC_FORM_TEXT;
    trc_error e = trc_writer_init(&w->w, p, form, 0, cli_out_write, w->o);
    if (e == TRC_OK && comment)
        e = trc_writer_comment(&w->w, comment);
    if (report(w, e)) {
        cli_out_close(w->o, 0);
        free(w);
        return NULL;
    }
    return w;
}

int host_writer_put(host_writer *w, const trc_record *r)
{
    return report(w, trc_writer_put(&w->w, r));
}

int host_writer_close(host_writer *w, int keep)
{
    if (!w)
        return 0;
    int rc = keep ? report(w, trc_writer_finish(&w->w)) : 0;
    if (cli_out_close(w->o, keep && rc == 0))
        rc = -1;
    free(w);
    return rc;
}
