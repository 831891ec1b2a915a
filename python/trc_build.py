"""Builds trc._libtrc: the C model library (model/*.c of the repository,
declared in model/trc.h) compiled into a cffi extension module (API mode, so
the compiler checks every declaration below against trc.h).

Run by setuptools (setup.py, cffi_modules) during `pip install ./python`.
"""
import glob
import os

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(os.path.dirname(HERE), "model")
# setuptools wants source paths relative to setup.py's folder.
SOURCES = sorted(os.path.relpath(p, HERE) for p in glob.glob(os.path.join(MODEL, "*.c")))
if not os.path.exists(os.path.join(MODEL, "trc.h")) or not SOURCES:
    raise SystemExit(
        "trc: the C model is not at %s: install the package from a checkout "
        "of the trc repository (pip install ./python at its top)" % MODEL)

# What the binding uses of trc.h. "...;" lets the compiler fill in the rest of
# a struct; trc_record is declared in full, so that cffi checks its layout,
# which the numpy record dtype relies on.
CDEF = """
typedef enum { TRC_OK, TRC_ERR_PARAM, TRC_ERR_TRUNCATED, TRC_ERR_MAGIC,
               TRC_ERR_CORRUPT, TRC_ERR_SYNTAX, TRC_ERR_DST_SMALL, ... } trc_error;
const char *trc_error_name(trc_error err);
const char *trc_error_text(trc_error err);

typedef struct {
    unsigned nt, fid_w, type_w, val_w, nd_f, nd_t, nd_v, mode, sk, sd;
    unsigned cpus, so, tq, fe;
    ...;
} trc_params;
trc_params trc_params_paper(void);
trc_params trc_params_stack(void);
trc_params trc_params_stack2(void);
trc_error trc_params_check(const trc_params *p);

typedef struct {
    uint64_t delta;
    uint32_t a;
    uint32_t b;
    uint32_t kind;
} trc_record;

#define TRC_MAX_RECORD_BYTES ...
typedef struct { ...; } trc_encoder;
trc_error trc_encoder_init(trc_encoder *e, const trc_params *p);
trc_error trc_encode(trc_encoder *e, const trc_record *src, size_t n,
                     size_t *n_used, uint8_t *dst, size_t cap, size_t *dst_len);
trc_error trc_encode_end(trc_encoder *e, uint8_t *dst, size_t cap,
                         size_t *dst_len);

typedef struct {
    uint64_t function, os, time_ext, end, sync, lost;
    uint64_t raw_bits[4];
    uint64_t coded_bits[4];
    uint64_t kind_bits, pad_bits;
    uint64_t lookups[3], hits[3];
    uint64_t predicted, top_exits, delta_sym[4];
    uint64_t os_predicted;
    uint64_t units, check_bits;
    ...;
} trc_stats;

typedef struct {
    uint64_t carry;
    int ended;
    int stop_at_mark;
    int v1;
    int check;
    uint32_t count;
    int closing;
    trc_stats st;
    ...;
} trc_decoder;
trc_error trc_decoder_init(trc_decoder *d, const trc_params *p);
trc_error trc_decode(trc_decoder *d, const uint8_t *src, size_t len,
                     size_t *src_used, trc_record *dst, size_t cap,
                     size_t *n_out, int final);
uint64_t trc_decoder_bit_offset(const trc_decoder *d);
#define TRC_CHECK_FIND_MAX ...
trc_error trc_check_find(const trc_params *p, const uint8_t *src, size_t len,
                         size_t from, size_t *at, size_t *end,
                         uint64_t *records, uint32_t *count);

#define TRC_CPU_MAX ...
unsigned trc_cpu_count(const trc_params *p);
unsigned trc_switch_bits(const trc_params *p);
typedef struct {
    unsigned ncpu;
    int v1;
    uint64_t switches;
    trc_decoder cpu[...];
    ...;
} trc_mp_decoder;
trc_error trc_mp_decoder_init(trc_mp_decoder *d, const trc_params *p);
trc_error trc_mp_decode(trc_mp_decoder *d, const uint8_t *src, size_t len,
                        size_t *src_used, trc_record *dst, uint8_t *dst_cpu,
                        size_t cap, size_t *n_out, int final);
uint64_t trc_mp_decoder_bit_offset(const trc_mp_decoder *d);

#define TRC_HEADER_BYTES ...
#define TRC_FLAG_FRAMED ...
#define TRC_FLAG_CHECKED ...
trc_error trc_header_read_ex(const uint8_t *in, size_t len, trc_params *p,
                             unsigned *mode, unsigned *flags);
unsigned trc_header_version(const uint8_t *in);

#define TRC_FRAME_HEADER_BYTES ...
typedef struct {
    uint32_t index;
    uint64_t records_before;
    uint64_t time_before;
    uint32_t payload_bytes;
    uint32_t records;
    uint32_t payload_crc;
    ...;
} trc_frame_info;
uint32_t trc_crc32(uint32_t crc, const uint8_t *buf, size_t len);
trc_error trc_frame_header_read(const uint8_t *in, size_t len,
                                trc_frame_info *f);

trc_error trc_text_parse_lines(const trc_params *p, const char *src,
                               size_t len, int final, size_t *src_used,
                               trc_record *dst, size_t cap, size_t *n_out,
                               size_t *lines, size_t *col);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "trc._libtrc",
    '#include "trc.h"',
    sources=SOURCES,
    include_dirs=[os.path.relpath(MODEL, HERE)],
    extra_compile_args=["-O2"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
