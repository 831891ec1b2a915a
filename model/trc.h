/*
 * trc.h - golden model of the trc real-time trace compressor (Takano, Ohba and
 * Nakada's per-field dictionary method). One public header for the codec
 * library: encoder, decoder, .trc container, trace text v1 and trace bin v1.
 * The normative format is docs/format.md; this header only states contracts.
 *
 * The library has no global state, never prints and never exits. Every
 * function that can fail returns a trc_error; trc_error_name() names it.
 */
#ifndef TRC_H
#define TRC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRC_VERSION_MAJOR 0
#define TRC_VERSION_MINOR 1
#define TRC_VERSION_PATCH 0
#define TRC_VERSION_STRING "0.1.0"

/* ---- Errors ------------------------------------------------------------ */

typedef enum {
    TRC_OK = 0,
    TRC_ERR_PARAM,          /* a format parameter is out of its range */
    TRC_ERR_FIELD,          /* a record field does not fit its width */
    TRC_ERR_RESERVED,       /* a trace record uses a reserved OS type */
    TRC_ERR_KIND,           /* record kind unknown (or not allowed here) */
    TRC_ERR_DST_SMALL,      /* output buffer below the documented minimum */
    TRC_ERR_TRUNCATED,      /* stream ends inside a record or without END */
    TRC_ERR_CORRUPT,        /* stream holds a value the format forbids */
    TRC_ERR_PADDING,        /* non-zero bits in the padding after END/SYNC */
    TRC_ERR_DELTA_OVERFLOW, /* folded delta exceeds 64 bits */
    TRC_ERR_MAGIC,          /* container does not start with the trc magic */
    TRC_ERR_VERSION,        /* container version or mode not supported */
    TRC_ERR_HEADER,         /* container header field invalid */
    TRC_ERR_SYNTAX,         /* trace text line malformed */
    TRC_ERR_CHECK,          /* a check value (CRC-32) does not match */
    TRC_ERR_IO,             /* the caller's output function failed */
    TRC_ERR__COUNT
} trc_error;

/* Returns a static, never-NULL name such as "TRC_ERR_CORRUPT". */
const char *trc_error_name(trc_error err);
/* Returns a static, never-NULL one-line English description. */
const char *trc_error_text(trc_error err);

/* ---- Parameters ---------------------------------------------------------- */

typedef struct {
    unsigned nt;     /* delta bits NT, 2..32 (paper: 23) */
    unsigned fid_w;  /* function id bits FID_W, 1..31 (paper: 15) */
    unsigned type_w; /* OS info type bits TYPE_W, 3..16 (paper: 7) */
    unsigned val_w;  /* OS info value bits VAL_W, 1..32 (paper: 16) */
    unsigned nd_f;   /* function dictionary address bits, 1..8, <= fid_w */
    unsigned nd_t;   /* type dictionary address bits, 1..8, <= type_w */
    unsigned nd_v;   /* value dictionary address bits, 1..8, <= val_w */
    unsigned mode;   /* coding mode: TRC_MODE_PAPER, _STACK or _STACK2 */
    unsigned sk;     /* stack modes: predictor table index bits, 4..12 */
    unsigned sd;     /* stack modes: shadow call stack depth, 1..64 */
    unsigned so;     /* stack mode 2: OS context table index bits, 4..12 */
    unsigned cpus;   /* CPUs of the stream, 1..TRC_CPU_MAX (0 counts as 1);
                        more than one: docs/format.md 4.9, paper mode only */
    unsigned tq;     /* stack mode 2: time quantum in ticks, 1, 10, 100 or
                        1000 (0 counts as 1): deltas are coded in quanta, a
                        delta that is not a multiple raw (format.md 4.8) */
    unsigned fe;     /* stack mode 2: 1 codes records of fresh context
                        entries without ranks (format.md 4.8), else 0 */
} trc_params;

#define TRC_MODE_PAPER 0 /* the paper's per-field dictionaries */
#define TRC_MODE_STACK 1 /* shadow stack + context predictor (format.md 4.7) */
#define TRC_MODE_STACK2 2 /* stack mode 2: + OS contexts, NEAR phase (4.8) */
#define TRC_SK_MAX 12
#define TRC_SD_MAX 64
#define TRC_SO_MAX 12
#define TRC_CPU_MAX 8
/* The time quantum of p: p->tq, or 1 when it is 0. */
#define TRC_TQ(p) ((p)->tq > 1u ? (p)->tq : 1u)

/* The paper's implementation: NT 23, FID_W 15, TYPE_W 7, VAL_W 16, ND 3
 * (mode paper; sk and sd are zero in paper mode; one CPU). */
trc_params trc_params_paper(void);
/* The same field widths in stack mode with SK 9 and SD 16. */
trc_params trc_params_stack(void);
/* Stack mode 2 (format.md 4.8): the paper's field widths, SK 12, SD 16,
 * SO 9, 15-entry function and value dictionaries (ND 4, 3, 4) and fresh
 * entries (fe 1). */
trc_params trc_params_stack2(void);
/* Returns TRC_OK when every field is in range, else TRC_ERR_PARAM. More than
 * one CPU needs paper mode and an NT for which NT + 1 is not a power of two
 * (the CPU switch code takes the z values above NT, docs/format.md 4.9). */
trc_error trc_params_check(const trc_params *p);
/* NZ: the number of bits needed to write NT (5 for NT = 23). */
unsigned trc_nz_bits(unsigned nt);

/* Reserved OS types, the top four of the type range. */
#define TRC_TYPE_TIME_EXT(p) ((1u << (p)->type_w) - 1u)
#define TRC_TYPE_END(p)      ((1u << (p)->type_w) - 2u)
#define TRC_TYPE_SYNC(p)     ((1u << (p)->type_w) - 3u)
#define TRC_TYPE_LOST(p)     ((1u << (p)->type_w) - 4u)

/* ---- Records ----------------------------------------------------------- */

typedef enum {
    TRC_ENTRY = 0, /* function entry, a = function id */
    TRC_EXIT = 1,  /* function exit, a = function id */
    TRC_OS = 2,    /* OS info, a = type, b = value */
    TRC_LOST = 3   /* records lost before this point, a = count */
} trc_kind;

/*
 * A trace record (text v1 level): delta is any 64-bit tick count, kind is any
 * trc_kind, OS types are below TRC_TYPE_LOST.
 * A raw record (encoder input level, what the hardware port carries): kind is
 * ENTRY, EXIT or OS, delta < 2^NT, and OS types may be reserved.
 */
typedef struct {
    uint64_t delta;
    uint32_t a;
    uint32_t b;
    uint32_t kind; /* trc_kind */
} trc_record;

/* Checks a trace record against the parameters (fields, reserved types). */
trc_error trc_record_check(const trc_params *p, const trc_record *r);
/* Checks a raw record (delta < 2^NT, fields fit, kind not LOST). */
trc_error trc_raw_check(const trc_params *p, const trc_record *r);

/*
 * Lowering a trace record into raw records (docs/format.md 4.2): with
 * M = 2^NT - 1 and q = floor((delta - 1) / M) for a delta above M (else 0),
 * q <= TRC_TIME_EXT_RUN gives q TIME_EXT raw records of delta M and value 0;
 * a larger q gives one TIME_EXT of delta M and value j (M << j ticks) per set
 * bit j of q, highest first, so any 64-bit delta costs at most 64 of them.
 * trc_time_ext_count() says how many, trc_time_ext_nth() gives the i-th
 * (0-based), and trc_lower() the record itself, whose delta is the remainder
 * (1..M) and where LOST becomes an OS record of type LOST. The record must
 * pass trc_record_check(), which also rejects a delta whose long-gap form
 * needs a value above 2^VAL_W - 1 (only possible with VAL_W < 6).
 */
#define TRC_TIME_EXT_RUN 64
uint64_t trc_time_ext_count(const trc_params *p, uint64_t delta);
trc_record trc_time_ext_nth(const trc_params *p, uint64_t delta, uint64_t i);
/* The value-0 TIME_EXT raw record (delta M), as the core's time-stamper
 * writes it. */
trc_record trc_time_ext_record(const trc_params *p);
trc_record trc_lower(const trc_params *p, const trc_record *r);

/* ---- Encoder ------------------------------------------------------------ */

#define TRC_DICT_MAX 255 /* 2^8 - 1 entries */
/* Bytes one raw record can produce at most, with any parameters. */
#define TRC_MAX_RECORD_BYTES 60 /* with a checked stream's zeros, count, CRC
                                   and an END's two closing units */

typedef struct {
    uint32_t entry[TRC_DICT_MAX];
    unsigned size; /* 2^ND - 1 */
    unsigned wp;   /* FIFO write pointer */
} trc_dict;

/* Stack mode predictor state (docs/format.md 4.7, 4.8), shared by both ends.
 * A context table entry; in stack mode 2's OS table, key is the OS type and
 * val the OS value (h stays 0 there). */
typedef struct {
    uint32_t key;  /* predicted function key: exit flag << FID_W | id */
    uint32_t val;  /* OS table only: predicted OS value */
    uint16_t pd;   /* last delta, saturated at 4095 */
    uint8_t kb;    /* tracked delta bit length, 0..32 */
    uint8_t m, h;  /* delta mode (0 near, 1 noisy); last event predicted */
    uint8_t w;     /* updated since the reset: not fresh (stack mode 2) */
} trc_pentry;

typedef struct {
    trc_pentry tab[1u << TRC_SK_MAX];
    uint32_t stack[TRC_SD_MAX]; /* ring buffer, stack[t] is the top */
    unsigned t, c;              /* top index, entries held (<= SD) */
    uint32_t prev;              /* key of the last function record */
    /* Stack mode 2 only. */
    trc_pentry otab[1u << TRC_SO_MAX]; /* OS context table */
    uint32_t ptype, pval;       /* type and value of the last OS record */
    unsigned pk;                /* 1 when the last raw record was OS */
    unsigned nc;                /* class of the last NP after an OS record */
    unsigned ld;                /* NEAR phase: 0 none, 1 up, 2 down */
} trc_stk;

typedef struct {
    trc_params p;
    unsigned nz;
    trc_dict fdict, tdict, vdict;
    trc_stk stk;      /* stack mode only */
    uint64_t acc;     /* pending output bits, right-aligned */
    unsigned nacc;    /* number of pending bits, < 8 between calls */
    uint64_t pending; /* TIME_EXT records still owed to the current record */
    int in_record;    /* 1 while pending is valid */
    int check;        /* set to 1 after init: a checked stream (format.md
                         4.10), each END and SYNC closed by a CRC-32 */
    uint32_t ucrc;    /* checked streams: CRC-32 of the unit so far */
    uint64_t ubytes;  /* ... and its length in bytes */
    uint32_t count;   /* checked streams: trace records so far, mod 2^31 */
    int ureset;       /* checked streams: the unit began in the reset state */
} trc_encoder;

/* Sets the encoder to the reset state. Returns TRC_ERR_PARAM on bad params. */
trc_error trc_encoder_init(trc_encoder *e, const trc_params *p);

/*
 * Encodes trace records src[0..n) into dst[0..cap).
 * Stops when all records are consumed or fewer than TRC_MAX_RECORD_BYTES bytes
 * of dst are free; *n_used gets the records fully consumed, *dst_len the
 * bytes written. A record with a huge delta may be half done when it stops:
 * pass it again (it is src[*n_used]) and the encoder goes on where it was.
 * Returns TRC_ERR_DST_SMALL if cap < TRC_MAX_RECORD_BYTES, or the
 * trc_record_check() error of src[*n_used] (nothing of it is written).
 * Pass many records a call: in the stack modes each call sets up its code
 * table first (some thousand instructions).
 */
trc_error trc_encode(trc_encoder *e, const trc_record *src, size_t n,
                     size_t *n_used, uint8_t *dst, size_t cap,
                     size_t *dst_len);

/*
 * Encodes one raw record (the hardware port's view). dst needs
 * TRC_MAX_RECORD_BYTES bytes. END and SYNC records are byte-aligned after
 * them, and SYNC resets the dictionaries, exactly as trc_encode_end/_sync.
 * *dst_len gets the bytes written.
 */
trc_error trc_encode_raw(trc_encoder *e, const trc_record *raw, uint8_t *dst,
                         size_t cap, size_t *dst_len);

/* Writes END (delta 0) and pads to a byte boundary. Dictionaries carry on. */
trc_error trc_encode_end(trc_encoder *e, uint8_t *dst, size_t cap,
                         size_t *dst_len);
/* Writes SYNC (delta 0), pads, and resets every dictionary. */
trc_error trc_encode_sync(trc_encoder *e, uint8_t *dst, size_t cap,
                          size_t *dst_len);

/* ---- Decoder ------------------------------------------------------------ */

enum { TRC_F_TIMESTAMP, TRC_F_FUNCTION, TRC_F_TYPE, TRC_F_VALUE, TRC_F__COUNT };

/* Per-stream figures, kept by the decoder (all counts since init). */
typedef struct {
    uint64_t function;   /* function records */
    uint64_t os;         /* OS records, reserved ones included */
    uint64_t time_ext, end, sync, lost; /* reserved records among os */
    uint64_t raw_bits[TRC_F__COUNT];   /* field widths, see docs/format.md */
    uint64_t coded_bits[TRC_F__COUNT]; /* bits the stream spent per field */
    uint64_t kind_bits;                /* one per record */
    uint64_t pad_bits;                 /* alignment after END/SYNC */
    uint64_t lookups[3], hits[3];      /* dictionaries: function, type, value */
    /* Stack mode only (zero in paper mode): function records the context
     * table predicted, exits coded as the exit of the top, and the delta
     * symbols of all records: EQ, NEAR, a bit length, ESC. */
    uint64_t predicted, top_exits, delta_sym[4];
    /* Stack mode 2 only: OS records whose type and value the OS context
     * table predicted. */
    uint64_t os_predicted;
    /* Checked streams (format.md 4.10): units closed by a CRC-32, and the
     * bits of their zero bytes and CRCs (not in pad_bits). */
    uint64_t units, check_bits;
} trc_stats;

typedef struct {
    trc_params p;
    unsigned nz;
    trc_dict fdict, tdict, vdict;
    trc_stk stk;        /* stack mode only */
    int stk_due;        /* stack modes: stk returns to the reset state
                           before the next record (a SYNC was read) */
    unsigned bit;       /* bits of the next input byte already consumed */
    uint64_t carry;     /* delta folded from TIME_EXT/END/SYNC so far */
    uint64_t bits_done; /* stream bits consumed, for error offsets */
    int ended;          /* last record was END or SYNC (clean stop point) */
    int stop_at_mark;   /* set to 1 to make trc_decode return after END/SYNC */
    int v1;             /* set to 1 for a container version 1 stream: a
                           TIME_EXT value other than 0 is then corrupt */
    int check;          /* set to 1 for a checked stream (format.md 4.10):
                           each END and SYNC is followed by zero bytes and
                           the unit's CRC-32, checked (TRC_ERR_CHECK) */
    uint32_t ucrc;      /* checked streams: CRC-32 of the unit so far */
    uint64_t ubytes;    /* ... and its length in bytes */
    uint32_t count;     /* checked streams: trace records so far, mod 2^31;
                           each unit's count must equal it (TRC_ERR_CHECK) */
    int ureset;         /* checked streams: the unit began in the reset state
                           (its count word's bit 31 must say so) */
    int closing;        /* checked streams: closing units still to read after
                           an END's unit (2, 1 or 0); each is 8 bytes, read
                           before the next record (TRC_ERR_CHECK if one
                           differs). A caller that hands a decoder one unit
                           at a time passes them as their own 8 bytes. */
    uint32_t ccount;    /* ... the count word they repeat */
    trc_stats st;
} trc_decoder;

/* Sets the decoder to the reset state. Returns TRC_ERR_PARAM on bad params
 * (or several CPUs: trc_mp_decoder_init), and trc_decode then refuses the
 * decoder with TRC_ERR_PARAM, reading nothing. */
trc_error trc_decoder_init(trc_decoder *d, const trc_params *p);

/*
 * Decodes the stream bytes src[0..len) into trace records dst[0..cap).
 * Only whole records are decoded. *src_used gets the bytes the decoder is done
 * with; the next call must start at src + *src_used (the decoder remembers how
 * many bits of that byte it already read). *n_out gets the records written.
 * final != 0 says no more bytes follow: then a record cut short, or a stream
 * whose last record is not END or SYNC, returns TRC_ERR_TRUNCATED.
 * On any error, trc_decoder_bit_offset() gives the stream bit offset of the
 * record at fault; records decoded before it are in dst[0..*n_out).
 * With d->stop_at_mark set, it also returns right after each END or SYNC
 * record (byte-aligned: *src_used ends there), so a caller can cut frames;
 * in a checked stream also after each closing unit of an END (format.md
 * 4.10), which sets d->ended as the END does.
 * Give it room for many records a call (cap): in the stack modes each call
 * sets up its symbol tables first (some thousand instructions).
 */
trc_error trc_decode(trc_decoder *d, const uint8_t *src, size_t len,
                     size_t *src_used, trc_record *dst, size_t cap,
                     size_t *n_out, int final);

/* Stream bit offset of the next record (of the faulty one after an error). */
uint64_t trc_decoder_bit_offset(const trc_decoder *d);

/* Checked streams (format.md 4.10): the longest unit, in bytes, that a
 * reader resumes at after damage. */
#define TRC_CHECK_FIND_MAX 4096
/*
 * Where a reader of a checked stream resumes after a unit that failed: the
 * first c >= from, c - from a multiple of 8, such that src[c..e) is one
 * whole unit (e <= len, e - c <= TRC_CHECK_FIND_MAX) whose CRC-32 checks,
 * whose count word says that it began in the reset state, and which decodes
 * from the reset state to exactly its END or SYNC, zero bytes and count
 * word; or such that src[c..c + 8) is a closing unit (the 8 bytes after an
 * END's unit: a count word and its own CRC-32). Returns TRC_OK with *at = c,
 * *end = e, *records = its trace records (0 for a closing unit, which has
 * e - c == 8) and *count = the trace records up to its end (mod 2^31, from
 * its count word); TRC_ERR_TRUNCATED when there is none. After a closing
 * unit the stream carries on the END's dictionaries: a reader counts the
 * loss it tells and looks further, from e, for a unit to decode. Work: at most
 * TRC_CHECK_FIND_MAX bytes of CRC a candidate, and one unit's decoding for
 * each candidate whose CRC checks.
 */
trc_error trc_check_find(const trc_params *p, const uint8_t *src, size_t len,
                         size_t from, size_t *at, size_t *end,
                         uint64_t *records, uint32_t *count);

/* ---- Container (.trc) ----------------------------------------------------- */

#define TRC_HEADER_BYTES 16
/* The version writers put in byte 4; readers take 1 to 3 (docs/format.md 5:
 * version 2 allows the long-gap TIME_EXT values of 4.2; version 3, written
 * only for streams of several CPUs, holds their number in the flags byte). */
#define TRC_CONTAINER_VERSION 2
#define TRC_CONTAINER_VERSION_CPUS 3

/* Writes the 16-byte header for params; mode must equal p->mode. */
trc_error trc_header_write(const trc_params *p, unsigned mode,
                           uint8_t out[TRC_HEADER_BYTES]);
/* Parses a header into *p (mode, SK, SD, SO included); *mode = p->mode.
 * len may be short: TRC_ERR_TRUNCATED then. */
trc_error trc_header_read(const uint8_t *in, size_t len, trc_params *p,
                          unsigned *mode);

/* Container flags (header byte 13). */
#define TRC_FLAG_FRAMED 1u  /* the stream is cut into frames, see below */
#define TRC_FLAG_TQ 192u    /* stack mode 2: k of the time quantum 10^k */
#define TRC_FLAG_TQ_UNIT 64u
#define TRC_FLAG_FE 2u      /* stack mode 2: fresh entries (trc_params.fe) */
#define TRC_FLAG_CHECKED 32u /* a checked stream (format.md 4.10); one CPU,
                              not framed. (Bit 4, 16, was the first layout
                              of checked streams, without record counts;
                              readers reject it.) */

/* As trc_header_write/_read, with the flags byte. _read rejects unknown
 * flags with TRC_ERR_HEADER. */
trc_error trc_header_write_ex(const trc_params *p, unsigned mode,
                              unsigned flags, uint8_t out[TRC_HEADER_BYTES]);
trc_error trc_header_read_ex(const uint8_t *in, size_t len, trc_params *p,
                             unsigned *mode, unsigned *flags);
/* The container version of a header that trc_header_read accepted. */
unsigned trc_header_version(const uint8_t in[TRC_HEADER_BYTES]);

/* ---- Frames (framed container, docs/format.md section 5.1) ------------- */

#define TRC_FRAME_HEADER_BYTES 40

/* A frame: a stream piece that starts from the reset state and ends with
 * SYNC (END for the last), so it decodes on its own. */
typedef struct {
    uint32_t index;          /* 0, 1, 2, ...; the trailer has index = frames */
    uint64_t records_before; /* trace records in all earlier frames */
    uint64_t time_before;    /* ticks of all raw records before the frame */
    uint32_t payload_bytes;  /* stream bytes after the header (0: trailer) */
    uint32_t records;        /* trace records in this frame (0: trailer) */
    uint32_t payload_crc;    /* CRC-32 of the payload bytes */
} trc_frame_info;

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): start with crc = 0. */
uint32_t trc_crc32(uint32_t crc, const uint8_t *buf, size_t len);
/* Writes a frame header (its own CRC included). */
void trc_frame_header_write(const trc_frame_info *f,
                            uint8_t out[TRC_FRAME_HEADER_BYTES]);
/* Reads a frame header: TRC_ERR_TRUNCATED if len < 40, TRC_ERR_MAGIC if the
 * frame magic is absent, TRC_ERR_CHECK if the header CRC fails. */
trc_error trc_frame_header_read(const uint8_t *in, size_t len,
                                trc_frame_info *f);

/* ---- Several CPUs (docs/format.md 4.9) --------------------------------------
 * One stream, p->cpus CPUs: each CPU has its own dictionaries and its own time
 * line (a record's delta counts from the previous raw record of the same
 * CPU); a CPU switch code comes before a record of another CPU than the
 * last one's. With one CPU these are the single-CPU coders, byte for byte. */

/* CPUs of p: p->cpus, or 1 when it is 0. */
unsigned trc_cpu_count(const trc_params *p);
/* Bits of a CPU switch code: NZ + E, E the extra bits after the escape z
 * (0 when there are as many z values above NT as CPUs). */
unsigned trc_switch_bits(const trc_params *p);

typedef struct {
    trc_params p;
    unsigned ncpu;      /* trc_cpu_count(&p) */
    unsigned cur;       /* the current CPU: 0 at start and after SYNC */
    unsigned swbits;    /* trc_switch_bits(&p) */
    uint64_t switches;  /* switch codes written */
    trc_encoder cpu[TRC_CPU_MAX]; /* one coder state per CPU; the pending
                                     bits live in the current CPU's */
} trc_mp_encoder;

/* Bytes dst needs for one call of the trc_mp_encode* functions. */
#define TRC_MP_MIN_DST (TRC_MAX_RECORD_BYTES + 2)

/* Sets *e (large: keep it static or on the heap) to the reset state.
 * Returns TRC_ERR_PARAM on bad params. */
trc_error trc_mp_encoder_init(trc_mp_encoder *e, const trc_params *p);
/*
 * As trc_encode(), for trace records src[0..n) that all belong to CPU cpu: a
 * switch code first when cpu is not the current CPU. Returns TRC_ERR_FIELD
 * for cpu >= the CPU count and TRC_ERR_DST_SMALL for cap < TRC_MP_MIN_DST
 * (nothing written), else as trc_encode().
 */
trc_error trc_mp_encode(trc_mp_encoder *e, unsigned cpu, const trc_record *src,
                        size_t n, size_t *n_used, uint8_t *dst, size_t cap,
                        size_t *dst_len);
/* As trc_encode_raw() for one raw record of CPU cpu. A SYNC returns every
 * CPU's dictionaries to the reset state and makes CPU 0 current. */
trc_error trc_mp_encode_raw(trc_mp_encoder *e, unsigned cpu,
                            const trc_record *raw, uint8_t *dst, size_t cap,
                            size_t *dst_len);
/* END (delta 0) on the current CPU, padded; SYNC likewise, then the reset
 * of every CPU and CPU 0 current. */
trc_error trc_mp_encode_end(trc_mp_encoder *e, uint8_t *dst, size_t cap,
                            size_t *dst_len);
trc_error trc_mp_encode_sync(trc_mp_encoder *e, uint8_t *dst, size_t cap,
                             size_t *dst_len);

typedef struct {
    trc_params p;
    unsigned ncpu, cur, nz, swbits;
    unsigned bit;       /* bits of the next input byte already consumed */
    uint64_t bits_done; /* stream bits consumed, for error offsets */
    int ended;          /* the last raw record was END or SYNC */
    int stop_at_mark;   /* 1: return right after each END or SYNC */
    int v1;             /* a container version 1 stream (one CPU only) */
    uint64_t switches;  /* switch codes read */
    trc_decoder cpu[TRC_CPU_MAX]; /* per CPU: dictionaries, carried ticks,
                                     and its figures (cpu[k].st) */
} trc_mp_decoder;

/* Sets *d (large) to the reset state. Returns TRC_ERR_PARAM on bad params,
 * and trc_mp_decode then refuses the decoder with TRC_ERR_PARAM. */
trc_error trc_mp_decoder_init(trc_mp_decoder *d, const trc_params *p);
/*
 * As trc_decode(); dst_cpu[i] (when dst_cpu is not NULL) gets the CPU of
 * dst[i]. A switch code to the current CPU or to a CPU past the count is
 * TRC_ERR_CORRUPT; a stream that ends after a switch code is truncated.
 */
trc_error trc_mp_decode(trc_mp_decoder *d, const uint8_t *src, size_t len,
                        size_t *src_used, trc_record *dst, uint8_t *dst_cpu,
                        size_t cap, size_t *n_out, int final);
/* Stream bit offset of the next record (of the faulty one after an error). */
uint64_t trc_mp_decoder_bit_offset(const trc_mp_decoder *d);

/* ---- Trace text v1 -------------------------------------------------------- */

/* Longest canonical line, newline included. */
#define TRC_TEXT_LINE_MAX 64

/*
 * Parses one line (without its newline; a trailing '\r' is allowed).
 * Returns TRC_OK with *is_record = 1 and *r filled for a record line,
 * *is_record = 0 for a blank or comment line. On error *col gets the 1-based
 * column at fault. Range checks follow trc_record_check().
 */
trc_error trc_text_parse(const trc_params *p, const char *line, size_t len,
                         trc_record *r, int *is_record, size_t *col);

/* Writes the canonical line for r, newline included, and returns its length
 * (< TRC_TEXT_LINE_MAX). No terminating NUL. */
size_t trc_text_format(const trc_record *r, char out[TRC_TEXT_LINE_MAX]);

/* Several CPUs (docs/format.md 3): a record line may end with "@K", the CPU
 * of the record (none: CPU 0). trc_text_parse_ex() gives it in *cpu and
 * rejects K >= trc_cpu_count(p) (TRC_ERR_FIELD, at the '@'); so does
 * trc_text_parse(), which takes only CPU 0 lines apart from that.
 * trc_text_format_cpu() writes the CPU column when cpus > 1. */
trc_error trc_text_parse_ex(const trc_params *p, const char *line, size_t len,
                            trc_record *r, unsigned *cpu, int *is_record,
                            size_t *col);
size_t trc_text_format_cpu(const trc_record *r, unsigned cpu, unsigned cpus,
                           char out[TRC_TEXT_LINE_MAX]);

/*
 * Parses the lines of src[0..len) with trc_text_parse() into dst[0..cap).
 * Takes whole lines only, and also a last line without a newline when
 * final != 0. Stops when dst is full, at the end of the input or at the
 * first bad line. *src_used gets the bytes of the lines taken, *n_out the
 * records written, *lines the lines taken (records, comments, blanks).
 * Returns TRC_OK, or trc_text_parse()'s error for the bad line, which then
 * starts at src + *src_used, and *col gets its 1-based column at fault.
 */
trc_error trc_text_parse_lines(const trc_params *p, const char *src,
                               size_t len, int final, size_t *src_used,
                               trc_record *dst, size_t cap, size_t *n_out,
                               size_t *lines, size_t *col);

/* ---- Trace bin v1 (48-bit words; paper parameters only) --------------- */

#define TRC_BIN_BYTES 6
/* Packs a raw record under trc_params_paper(). */
trc_error trc_bin_pack(const trc_record *raw, uint8_t out[TRC_BIN_BYTES]);
/* Unpacks a word into a raw record (checked like trc_raw_check()). */
trc_error trc_bin_unpack(const uint8_t in[TRC_BIN_BYTES], trc_record *raw);

/* ---- Record writer ---------------------------------------------------------
 * Trace records to trace text v1, a .trc container or a bare stream, through
 * the caller's output function (the library does no I/O of its own). The
 * writer checks each record and batches the encoder's work. */

/* Writes len bytes; returns 0 on success, anything else on failure. */
typedef int (*trc_write_fn)(void *ctx, const uint8_t *buf, size_t len);

enum {
    TRC_FORM_TEXT,      /* trace text v1 (canonical lines) */
    TRC_FORM_CONTAINER, /* 16-byte header, then the stream */
    TRC_FORM_STREAM     /* the bare stream */
};

#define TRC_WRITER_BATCH 1024
#define TRC_WRITER_BUF (1u << 16)

typedef struct {
    trc_write_fn fn;
    void *ctx;
    unsigned form;
    trc_params p;
    uint64_t sync_every; /* streams: a SYNC after every N records (0: none) */
    uint64_t since;      /* records since the start or the last SYNC */
    uint64_t records;    /* records accepted so far */
    trc_mp_encoder enc;
    trc_record batch[TRC_WRITER_BATCH];
    uint8_t bcpu[TRC_WRITER_BATCH]; /* CPU of each batched record */
    size_t nb, len;
    int failed; /* the output function failed: every later call fails */
    uint8_t buf[TRC_WRITER_BUF];
} trc_writer;

/*
 * Sets up *w (large: keep it static or on the heap) for form with params p;
 * for a container it writes the header. sync_every applies to the stream
 * forms. Returns TRC_ERR_PARAM on bad params or form, TRC_ERR_IO when fn fails.
 */
trc_error trc_writer_init(trc_writer *w, const trc_params *p, unsigned form,
                          uint64_t sync_every, trc_write_fn fn, void *ctx);
/* Makes the stream a checked one (format.md 4.10; a container gets flag
 * bit 4). Call it right after init. TRC_ERR_PARAM for text or several
 * CPUs. */
trc_error trc_writer_set_check(trc_writer *w);
/* Text form only: writes line (a '#' comment, newline included) before the
 * records; the stream forms have no place for it and ignore it. */
trc_error trc_writer_comment(trc_writer *w, const char *line);
/* Takes one trace record. Returns its trc_record_check() error (nothing is
 * written; w->records is the count of records before it) or TRC_ERR_IO. */
trc_error trc_writer_put(trc_writer *w, const trc_record *r);
/* The same for a record of CPU cpu (TRC_ERR_FIELD past the CPU count). */
trc_error trc_writer_put_cpu(trc_writer *w, unsigned cpu, const trc_record *r);
/* Stream forms: encodes what is pending and the final END; every form:
 * hands out the rest of the bytes. Returns TRC_OK or TRC_ERR_IO. */
trc_error trc_writer_finish(trc_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* TRC_H */
