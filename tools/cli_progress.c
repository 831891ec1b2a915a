/*
 * cli_progress.c - progress of long runs on stderr: how much of the input is
 * read (a percentage when its size is known: a file, compressed or not), the
 * records so far and their rate. On when stderr is a terminal or --progress
 * is given; TRC_PROGRESS=1 forces it on, TRC_PROGRESS=0 off (it wins over
 * the terminal, not over --progress). A terminal gets one line redrawn in
 * place twice a second, anything else a line a second; a run that was shown
 * (or forced) ends with a line for the whole input.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trc_cli.h"

static int mode = -1;            /* -1 not decided, 0 off, 1 on */
static int tty, forced_on;
static const char *phase = "";   /* the command (and pass) shown */

void cli_progress_setup(const char *cmd, int forced)
{
    const char *env = getenv("TRC_PROGRESS");
    tty = isatty(2);
    mode = forced ? 1 : env && *env ? env[0] == '1' : tty;
    forced_on = forced || (env && env[0] == '1');
    phase = cmd;
}

void cli_progress_phase(const char *what)
{
    phase = what;
}

int cli_progress_on(void)
{
    return mode == 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void human(char *out, size_t cap, double v, const char *unit)
{
    static const char *const pre[] = {"", "k", "M", "G", "T"};
    int k = 0;
    while (v >= 1000 && k < 4) {
        v /= 1000;
        k++;
    }
    /* "852.8 kB", "1.4 M records/s", "532 records/s" */
    int word = unit[0] >= 'a' && unit[0] <= 'z';
    snprintf(out, cap, k ? "%.1f %s%s%s" : "%.0f %s%s%s", v, pre[k],
             word && k ? " " : "", unit);
}

void cli_progress_start(cli_progress *p, const char *name, FILE *f)
{
    memset(p, 0, sizeof *p);
    p->name = name;
    p->phase = phase;
    p->f = f;
    p->t0 = p->last = now_s();
    struct stat st;
    FILE *src = cli_in_source(f);
    if (src && fstat(fileno(src), &st) == 0 && S_ISREG(st.st_mode))
        p->total = (uint64_t)st.st_size;
}

static void show(cli_progress *p, double t, int final)
{
    char line[256], rate[32], size[32];
    double el = t - p->t0;
    human(rate, sizeof rate, el > 0 ? (double)p->records / el : 0, "records/s");
    int n = snprintf(line, sizeof line, "trc: %s: %s: ", p->phase, p->name);
    uint64_t done = cli_in_position(p->f);
    if (p->total) {
        human(size, sizeof size, (double)p->total, "B");
        double pct = 100.0 * (double)(final ? p->total : done) / (double)p->total;
        n += snprintf(line + n, sizeof line - (size_t)n, "%5.1f%% of %s, ",
                      pct > 100 ? 100 : pct, size);
    }
    snprintf(line + n, sizeof line - (size_t)n, "%llu records, %s, %.1f s",
             (unsigned long long)p->records, rate, el);
    if (tty && mode == 1)
        fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    else
        fprintf(stderr, "%s\n", line);
    p->shown++;
}

void cli_progress_tick(cli_progress *p)
{
    double t = now_s();
    if (t - p->last >= (tty ? 0.5 : 1.0)) {
        p->last = t;
        show(p, t, 0);
    }
}

void cli_progress_end(cli_progress *p, int ok)
{
    if (mode == 1 && p->name && (p->shown || (ok && forced_on)))
        show(p, now_s(), ok);
    else if (mode == 1 && tty && p->shown)
        fputc('\n', stderr);
    p->name = NULL;
}
