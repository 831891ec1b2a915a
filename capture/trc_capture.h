/*
 * trc_capture.h - the capture library: link it with a program built with
 * -finstrument-functions and every function entry and exit is recorded with
 * CLOCK_MONOTONIC ticks. At exit it writes a trace (text v1, or .trc when the
 * name ends in .trc) and a symbol map. Configuration is by environment:
 *   TRC_CAPTURE_OUT      trace path (default trc_capture.txt)
 *   TRC_CAPTURE_SYMS     symbol map path (default: OUT with .sym ending)
 *   TRC_CAPTURE_TICK_NS  tick length in ns (default 10)
 *   TRC_CAPTURE_TMPDIR   where per-thread spill files go (default $TMPDIR, /tmp)
 *   TRC_CAPTURE_OFF=1    record nothing;  TRC_CAPTURE_QUIET=1  no summary line
 * Threads: each thread records into its own buffer; the trace is one stream
 * in time order with an OS record of type 7 (value = thread index, 0 = the
 * first thread) before each run of another thread's records, only when the
 * program had more than one thread. docs/host-tools.md has the details.
 *
 * A program needs no call into the library; these are for special cases.
 */
#ifndef TRC_CAPTURE_H
#define TRC_CAPTURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* OS info type of the thread record. */
#define TRC_CAPTURE_THREAD_TYPE 7

/* Stops recording and writes the trace and symbol map now (normally done by
 * an atexit handler; call it before _exit or an exec). Returns 0 on success,
 * -1 on error (message on stderr). Later calls do nothing. */
int trc_capture_finish(void);

#ifdef __cplusplus
}
#endif

#endif /* TRC_CAPTURE_H */
