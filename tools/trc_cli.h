/*
 * trc_cli.h - what the `trc` subcommands share: the command table entry,
 * option parsing of the format parameters, error reporting, and a record
 * reader/writer that takes any trace form (text v1, .trc, raw stream).
 */
#ifndef TRC_CLI_H
#define TRC_CLI_H

#include <stdio.h>
#include "trc.h"

/* A subcommand: returns the process exit status (0 ok, 1 error, 2 usage). */
typedef int (*trc_cmd_fn)(int argc, char **argv);

/* Prints "trc: " + message + newline to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/*
 * Parses a format option at argv[*i] (--nt N, --fid-bits N, --type-bits N,
 * --value-bits N, --dict-bits N or F,T,V; also --opt=N). Returns 1 when it
 * took the option (advancing *i past its value), 0 when argv[*i] is not a
 * format option, -1 on a bad value (message printed). *given (if not NULL)
 * is set to 1 when an option was taken, so callers can tell defaults apart.
 */
int cli_param_option(int argc, char **argv, int *i, trc_params *p, int *given);

/* Opens path for reading/writing; "-" is stdin/stdout. NULL on error
 * (message printed). cli_close() leaves stdin/stdout open but flushes. */
FILE *cli_open_in(const char *path);
FILE *cli_open_out(const char *path);
int cli_close(FILE *f, const char *path); /* 0 ok, -1 on write error */

/* Reads records from a trace in any form: a .trc container (detected by its
 * magic), a bare stream (raw != 0, parameters from *p), or trace text v1. */
typedef struct cli_reader cli_reader;
/* Returns NULL on error (message printed). p: parameters for text and raw
 * streams; for a container the header's parameters are used. */
cli_reader *cli_reader_open(const char *path, const trc_params *p, int raw);
/* The same on an open file (closed by cli_reader_close unless stdin). */
cli_reader *cli_reader_from(FILE *f, const char *name, const trc_params *p,
                            int raw);
/* 1: *r filled; 0: end of trace; -1: error (message printed, naming the
 * file and line, or byte and bit offset). */
int cli_reader_next(cli_reader *rd, trc_record *r);
/* Parameters in force (after open: the container's for a .trc). */
const trc_params *cli_reader_params(const cli_reader *rd);
/* Decoder figures so far, NULL for text input. */
const trc_stats *cli_reader_stats(const cli_reader *rd);
/* Stream bytes read so far (container header excluded), 0 for text. */
uint64_t cli_reader_stream_bytes(const cli_reader *rd);
/* Framed containers: start at frame k (earlier frames are skipped on
 * purpose; the first record's delta then counts from the trace start). */
void cli_reader_from_frame(cli_reader *rd, uint32_t k);
/* Damage events reported so far (lost frames, skipped bytes, missing
 * trailer): the trace read is then incomplete, with L records at the gaps. */
unsigned cli_reader_damage(const cli_reader *rd);
/* 1 for a .trc or raw stream, 0 for trace text. */
int cli_reader_is_stream(const cli_reader *rd);
void cli_reader_close(cli_reader *rd);

#endif /* TRC_CLI_H */
