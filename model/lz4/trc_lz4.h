/* trc_lz4: C model of the LZ4 baseline compressor core (rtl/lz4/), bit-exact
 * with the RTL: same hash, same 4096-entry table of W-bit positions, same
 * greedy parse with 4-byte chunked match extension, same block closing rule,
 * same frame bytes. Library only: no printf, no exit, no global state.
 * The frame is LZ4 frame format v1 (FLG 0x40: linked blocks, no checksums;
 * BD 0x70: 4 MB block maximum), decodable by the reference `lz4 -d`. */
#ifndef TRC_LZ4_H
#define TRC_LZ4_H

#include <stddef.h>
#include <stdint.h>

#define TRC_LZ4_VERSION_MAJOR 1
#define TRC_LZ4_VERSION_MINOR 0

#define TRC_LZ4_HASH_BITS 12 /* table entries = 2^12, fixed like lz4 -1 */
#define TRC_LZ4_LOOKAHEAD 11 /* bytes the parser sees past the current one */
#define TRC_LZ4_GUARD 16     /* block cost margin before closing a block */

/* Core parameters, the same names as the RTL parameters. */
typedef struct {
  unsigned win_bits; /* history window 2^win_bits bytes: 12 (4 KB) .. 16 */
  unsigned out_aw;   /* output FIFO 2^out_aw bytes; blocks <= 2^(out_aw-1) */
  unsigned lit_aw;   /* literal FIFO 2^lit_aw bytes; runs <= 2^(lit_aw-1) */
} trc_lz4_cfg;

typedef enum {
  TRC_LZ4_OK = 0,
  TRC_LZ4_E_PARAM = -1,  /* a parameter is out of range */
  TRC_LZ4_E_NOMEM = -2,  /* allocation failed */
  TRC_LZ4_E_SPACE = -3,  /* output buffer too small */
  TRC_LZ4_E_EMPTY = -4,  /* a frame needs at least one input byte */
  TRC_LZ4_E_INTERNAL = -5 /* block size bookkeeping disagrees (a bug) */
} trc_lz4_err;

typedef struct trc_lz4 trc_lz4;

/* Statistics of the last frame (for reports). */
typedef struct {
  uint64_t in_bytes, out_bytes, blocks, sequences, literals, match_bytes;
} trc_lz4_stats;

/* Name of an error value ("TRC_LZ4_E_PARAM"...); never NULL. */
const char *trc_lz4_error_name(int err);

/* Default configuration: win_bits 12, out_aw 11, lit_aw 9 (the RTL defaults). */
trc_lz4_cfg trc_lz4_default_cfg(void);

/* Allocates a compressor in its reset state (table all zero).
 * Returns TRC_LZ4_OK and sets *out, or an error and sets *out to NULL. */
int trc_lz4_new(trc_lz4 **out, const trc_lz4_cfg *cfg);

/* Frees a compressor (NULL is allowed). */
void trc_lz4_free(trc_lz4 *st);

/* Upper bound of the frame size for n input bytes. */
size_t trc_lz4_bound(const trc_lz4_cfg *cfg, size_t n);

/* Compresses in[0..n) into one LZ4 frame, exactly the bytes the RTL writes
 * for an input packet of n bytes (tlast on the last one). The hash table
 * carries over to the next frame, as in the RTL. Returns the frame size
 * (> 0) or a negative trc_lz4_err; st2 (may be NULL) receives statistics. */
long trc_lz4_frame(trc_lz4 *st, const uint8_t *in, size_t n, uint8_t *out,
                   size_t cap, trc_lz4_stats *st2);

#endif
