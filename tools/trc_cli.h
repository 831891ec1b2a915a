/*
 * trc_cli.h - what the `trc` subcommands share: the option table and its
 * parser, error messages, safe output files, the time base, and a record
 * reader that takes any trace form (text v1, .trc, framed .trc, raw stream).
 */
#ifndef TRC_CLI_H
#define TRC_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "trc.h"

/* Prints "trc: " + message + newline to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- Options (cli_opts.c) -------------------------------------------------
 * One table of every option; each subcommand lists the ones it takes. */
enum {
    OPT_RAW, OPT_JSON, OPT_TO, OPT_FRAME, OPT_SYNC_EVERY, OPT_FROM_FRAME,
    OPT_SYMS, OPT_TICK, OPT_THREAD_TYPE, OPT_PERFETTO, OPT_CTF, OPT_ABSOLUTE,
    OPT_OS_COUNTERS, OPT_MIN_FRACTION, OPT_MODULES, OPT_NO_MERGE, OPT_DEPTH,
    OPT_CALLS, OPT_UNIT, OPT_CPU, OPT_MAP, OPT_NO_DEFAULT_MAP, OPT_MERGE,
    OPT_MERGE_T0, OPT_CLIP, OPT_CONTEXT, OPT_PROGRESS, OPT_CHECK,
    /* the format parameters (docs/format.md 2) */
    OPT_NT, OPT_FID_BITS, OPT_TYPE_BITS, OPT_VALUE_BITS, OPT_DICT_BITS,
    OPT_MODE, OPT_TABLE_BITS, OPT_STACK_DEPTH, OPT_CPUS, OPT_QUANTUM,
    OPT_FRESH, OPT_NO_FRESH, OPT__COUNT
};
#define OPT_BIT(id) (UINT64_C(1) << (id))
#define OPT_PARAMS                                                            \
    (OPT_BIT(OPT_NT) | OPT_BIT(OPT_FID_BITS) | OPT_BIT(OPT_TYPE_BITS) |       \
     OPT_BIT(OPT_VALUE_BITS) | OPT_BIT(OPT_DICT_BITS) | OPT_BIT(OPT_MODE) |   \
     OPT_BIT(OPT_TABLE_BITS) | OPT_BIT(OPT_STACK_DEPTH) | OPT_BIT(OPT_CPUS) | \
     OPT_BIT(OPT_QUANTUM) | OPT_BIT(OPT_FRESH) | OPT_BIT(OPT_NO_FRESH))
#define CLI_MAX_MAPS 64

/* The parsed command line of one subcommand. */
typedef struct {
    const char *cmd;            /* the subcommand's name */
    const char *pos[2];         /* IN, OUT */
    uint64_t given;             /* OPT_BIT of each option given */
    const char *str[OPT__COUNT]; /* string values (and the raw text of all) */
    uint64_t num[OPT__COUNT];   /* numbers; choices as their index */
    double frac;                /* --min-fraction */
    const char *map[CLI_MAX_MAPS]; /* --map, in order */
    size_t nmap;
    trc_params p;               /* the paper's defaults and the options given */
} cli_args;

typedef struct {
    const char *name;
    int (*fn)(const cli_args *a); /* exit status: 0 ok, 1 error, 2 usage */
    const char *pos;              /* "IN OUT" */
    unsigned npos;
    uint64_t opts;                /* OPT_BITs it takes */
    const char *summary;
} cli_cmd;

/* Parses argv (argv[0] = the subcommand) into *a. Returns 0 when parsed,
 * 1 when --help was printed (exit 0), 2 on bad usage (message printed). */
int cli_parse(const cli_cmd *c, int argc, char **argv, cli_args *a);
/* Help of one subcommand, and of all (both from the option table;
 * cli_help.c). */
void cli_help_cmd(FILE *f, const cli_cmd *c);
void cli_help_all(FILE *f, const cli_cmd *cmds, size_t n);
/* An option's name ("--raw"), and its help line ("  --name METAVAR  help"). */
const char *cli_opt_name(unsigned id);
void cli_opt_line(FILE *f, unsigned id);
static inline int cli_given(const cli_args *a, unsigned id)
{
    return (a->given & OPT_BIT(id)) != 0;
}
/* Says "--name: REASON" for an option that means nothing here; returns 2. */
int cli_reject(const cli_args *a, unsigned id, const char *reason);

/* The whole `trc` program (tools/trc.c's main; the fuzz targets call it). */
int trc_cli_main(int argc, char **argv);

/* ---- Files (cli_io.c) ------------------------------------------------------
 * Output goes to a temporary file beside the target, renamed over it only on
 * success; a device node, FIFO or other non-regular target is written in
 * place and never removed. Output equal to an input is refused. */
typedef struct cli_out cli_out;
/* inputs: NULL-terminated paths the output must differ from ("-" = stdin).
 * NULL on error (message printed). */
cli_out *cli_out_open(const char *path, const char *const *inputs);
FILE *cli_out_file(cli_out *o);
const char *cli_out_path(const cli_out *o);
/* A trc_write_fn over the output (ctx = the cli_out). */
int cli_out_write(void *ctx, const uint8_t *buf, size_t len);
/* keep != 0: flushes, checks for write errors and renames into place; 0
 * (or on a write error): removes the temporary file. 0 ok, -1 error. */
int cli_out_close(cli_out *o, int keep);
/* Opens an input ("-" = stdin); refuses directories and a closed stdin.
 * xz and zstd data are decompressed as they are read, whatever the name
 * (cli_decomp.c). NULL on error (message printed). */
FILE *cli_in_open(const char *path);
/* Closes what cli_in_open gave (stdin itself stays open). */
void cli_in_close(FILE *f);
/* Reports a read error of f (after ferror): the decoder's message naming
 * the compressed byte, or the system's. */
void cli_in_error(FILE *f, const char *path);
/* Wraps f: xz or zstd data is decoded, other data read as it is. NULL on
 * error (message printed; f is still the caller's). */
FILE *cli_decomp_wrap(FILE *f, const char *path);
/* Compressed inputs may expand at most this many times (past 64 MiB). */
#define CLI_DECOMP_RATIO 1024u
/* 1 when both name the same existing regular file (or stdin's). */
int cli_same_file(const char *a, const char *b);
/* 1: path names a regular file (not "-", a pipe or a device), which can
 * be read twice. */
int cli_is_regular(const char *path);
/* At start: fds 0-2 that are closed are held by /dev/null, and marked so
 * that "-" on them is an error rather than an empty file. */
void cli_std_guard(void);
/* Checks stdout after a command: 0 ok, -1 (message printed) on error. */
int cli_stdout_check(void);

/* ---- Progress (cli_progress.c) ---------------------------------------------
 * Lines on stderr while a trace is read: percentage of the input (when its
 * size is known), records, rate. */
typedef struct {
    const char *name, *phase;
    FILE *f;
    uint64_t total;   /* input bytes, 0 when unknown (a pipe) */
    uint64_t records;
    double t0, last;
    unsigned shown;
} cli_progress;
/* Once per run: the command's name; forced = --progress given. */
void cli_progress_setup(const char *cmd, int forced);
/* What is being read now ("export pass 1", ...). */
void cli_progress_phase(const char *what);
int cli_progress_on(void);
void cli_progress_start(cli_progress *p, const char *name, FILE *f);
void cli_progress_tick(cli_progress *p); /* after p->records changed */
void cli_progress_end(cli_progress *p, int ok);
/* The file under f (the compressed one for xz/zstd input), and how far it
 * has been read, in its bytes. */
FILE *cli_in_source(FILE *f);
uint64_t cli_in_position(FILE *f);

/* ---- Time base (cli_text.c) ------------------------------------------------
 * A trace's records hold deltas only; its time base says how long a tick is
 * and what the first delta counts from: t0_ns + delta0 * tick_ns on
 * CLOCK_MONOTONIC. One comment line, among the leading comment lines of a
 * text trace or in its symbol map (t0_ns may be absent when not known):
 *   # trc-timebase clock=monotonic tick_ns=10 t0_ns=544262849000
 * The rule every reader follows (host_trace_setup, docs/host-tools.md):
 * each field from the option (--tick), else the trace's own line, else its
 * symbol map's line, else the tick is 10 ns (said on stderr) and t0 unknown. */
typedef struct {
    int known;        /* 1 when t0_ns is known */
    uint64_t t0_ns;   /* absolute start, ns on the clock */
    uint64_t tick_ns; /* tick length in ns (0 = not stated) */
} host_timebase;
#define HOST_TICK_DEFAULT 10 /* ns: the paper's tick */
/* Parses "# trc-timebase KEY=VALUE..." (leading '#' and blanks optional):
 * 1 when the line is one (fields filled), 0 when it is not, -1 when it is
 * malformed (a value that is not a number, tick_ns 0, a key twice, neither
 * tick_ns nor t0_ns). Unknown keys are skipped. */
int host_timebase_parse(const char *line, host_timebase *tb);
/* Formats the comment line, newline included (t0_ns only when known). */
void host_timebase_format(const host_timebase *tb, char *out, size_t cap);

/* ---- Reader (cli_reader.c) ------------------------------------------------- */
typedef struct cli_reader cli_reader;
/* Opens a trace: a .trc container (detected by its magic), a bare stream
 * (raw != 0, parameters p) or trace text v1 (range checks by p). NULL on
 * error (message printed). */
cli_reader *cli_reader_open(const char *path, const trc_params *p, int raw);
/* The same on an open file (closed by cli_reader_close unless stdin). */
cli_reader *cli_reader_from(FILE *f, const char *name, const trc_params *p,
                            int raw);
/* 1: *r filled; 0: end of trace; -1: error (message printed, naming the
 * file and line, or byte and bit offset). */
int cli_reader_next(cli_reader *rd, trc_record *r);
/* Parameters in force (after open: the container's for a .trc). */
const trc_params *cli_reader_params(const cli_reader *rd);
/* Decoder figures so far (all good frames of a framed file; all CPUs added
 * up), NULL for text. */
const trc_stats *cli_reader_stats(const cli_reader *rd);
/* Several CPUs (docs/format.md 4.8): the CPUs of the trace, the CPU of the
 * record cli_reader_next() handed out last (0 with one), one CPU's decoder
 * figures (NULL for text or past the count), and the switch codes read so
 * far (*bits: the bits of one). */
unsigned cli_reader_cpus(const cli_reader *rd);
unsigned cli_reader_cpu(const cli_reader *rd);
const trc_stats *cli_reader_cpu_stats(const cli_reader *rd, unsigned cpu);
uint64_t cli_reader_switches(const cli_reader *rd, unsigned *bits);
/* Adds the figures of s to t (sums over CPUs, frames, checked units). */
void cli_stats_add(trc_stats *t, const trc_stats *s);
/* Stream bytes read so far (container and frame headers excluded). */
uint64_t cli_reader_stream_bytes(const cli_reader *rd);
/* Framed containers: start at frame k (earlier frames are skipped on
 * purpose; the first record's delta then counts from the trace start).
 * -1 (message printed) when the input is not a framed container. */
int cli_reader_from_frame(cli_reader *rd, uint32_t k);
/* Damage events reported so far (lost frames, skipped bytes, missing
 * trailer): the trace read is then incomplete, with L records at the gaps. */
unsigned cli_reader_damage(const cli_reader *rd);
/* Damage events of all readers of this run: a command that read a damaged
 * file exits 1 after writing all it could. */
unsigned cli_damage_count(void);
/* 1 for a .trc or raw stream, 0 for trace text; 1 for a .trc container. */
int cli_reader_is_stream(const cli_reader *rd);
int cli_reader_is_container(const cli_reader *rd);
/* The time base from the trace's leading comment lines (known = 0 if none). */
host_timebase cli_reader_timebase(const cli_reader *rd);
void cli_reader_close(cli_reader *rd);

/* Opens IN with the command line's parameters and --raw; when format options
 * were given for a .trc container whose header says otherwise, that is an
 * error (the header decides). NULL on error (message printed). */
cli_reader *cli_open_trace(const cli_args *a, const char *path);

/* ---- The time quantum (cmd_codec.c) ---------------------------------------- */
/* The time quantum that compress gives a.pos[0]'s records: --quantum N as
 * given; with --quantum auto, and without --quantum in stack mode 2 into a
 * container from a regular file, the largest of 1000, 100 and 10 ticks that
 * divides every delta (the file is read once more; else 1). Sets *tq; 0 on
 * error (message printed). */
int cli_quantum(const cli_args *a, unsigned *tq);

/* ---- Frames (cmd_codec.c) -------------------------------------------------- */
/* A growable byte buffer (a frame's payload, a stream read whole). */
typedef struct {
    uint8_t *b;
    size_t len, cap;
} cli_buf;
/* Makes room for need more bytes: 1, or 0 when out of memory. */
int cli_buf_room(cli_buf *x, size_t need);
/* Writes one frame: its header (fi) and payload pl; 1 ok, 0 on a write error. */
int cli_put_frame(FILE *f, const trc_frame_info *fi, const uint8_t *pl);

#endif /* TRC_CLI_H */
