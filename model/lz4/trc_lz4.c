/* trc_lz4.c: C model of the LZ4 baseline core (see trc_lz4.h, docs/lz4.md).
 * Every decision mirrors rtl/lz4/: one loop iteration = one position x as it
 * passes the RTL parser stage, in the same order. */
#include "trc_lz4.h"

#include <stdlib.h>
#include <string.h>

#define TBL_N (1u << TRC_LZ4_HASH_BITS)
#define ML_MAX 65535u /* match length cap (16-bit counter in the RTL) */

struct trc_lz4 {
  trc_lz4_cfg cfg;
  uint32_t tbl[TBL_N];
};

const char *trc_lz4_error_name(int err) {
  switch (err) {
  case TRC_LZ4_OK: return "TRC_LZ4_OK";
  case TRC_LZ4_E_PARAM: return "TRC_LZ4_E_PARAM";
  case TRC_LZ4_E_NOMEM: return "TRC_LZ4_E_NOMEM";
  case TRC_LZ4_E_SPACE: return "TRC_LZ4_E_SPACE";
  case TRC_LZ4_E_EMPTY: return "TRC_LZ4_E_EMPTY";
  case TRC_LZ4_E_INTERNAL: return "TRC_LZ4_E_INTERNAL";
  default: return "TRC_LZ4_E_UNKNOWN";
  }
}

trc_lz4_cfg trc_lz4_default_cfg(void) {
  trc_lz4_cfg c;
  c.win_bits = 12;
  c.out_aw = 11;
  c.lit_aw = 9;
  return c;
}

static int cfg_ok(const trc_lz4_cfg *c) {
  return c && c->win_bits >= 10 && c->win_bits <= 16 && c->out_aw >= 8 &&
         c->out_aw <= 14 && c->lit_aw >= 7 && c->lit_aw <= 12;
}

int trc_lz4_new(trc_lz4 **out, const trc_lz4_cfg *cfg) {
  trc_lz4 *st;
  if (!out) return TRC_LZ4_E_PARAM;
  *out = NULL;
  if (!cfg_ok(cfg)) return TRC_LZ4_E_PARAM;
  st = (trc_lz4 *)calloc(1, sizeof *st);
  if (!st) return TRC_LZ4_E_NOMEM;
  st->cfg = *cfg;
  *out = st;
  return TRC_LZ4_OK;
}

void trc_lz4_free(trc_lz4 *st) { free(st); }

size_t trc_lz4_bound(const trc_lz4_cfg *cfg, size_t n) {
  (void)cfg;
  return n + n / 4 + 64;
}

/* The hash of the 4 bytes at x (b0 = byte x): an H3 (linear, XOR-only) hash.
 * v = b0 | b1<<8 | b2<<16 | b3<<24; hash bit j = parity(v & H3_COL[j]).
 * The masks come from a fixed LCG (docs/lz4.md); the RTL has the same table. */
static const uint32_t H3_COL[TRC_LZ4_HASH_BITS] = {
  0x8009CBC2u, 0xED4B3B6Bu, 0xCCDA2DDFu, 0xD855C8D4u, 0xD891B31Du, 0xE55C7BA2u,
  0x4F864560u, 0x3E969CC8u, 0x51756A74u, 0xE0507998u, 0x9F563677u, 0x55773DF9u};

static unsigned lz4_hash(unsigned b0, unsigned b1, unsigned b2, unsigned b3) {
  uint32_t v = b0 | b1 << 8 | b2 << 16 | (uint32_t)b3 << 24, w;
  unsigned h = 0, j;
  for (j = 0; j < TRC_LZ4_HASH_BITS; j++) {
    w = v & H3_COL[j];
    w ^= w >> 16; w ^= w >> 8; w ^= w >> 4; w ^= w >> 2; w ^= w >> 1;
    h |= (w & 1u) << j;
  }
  return h;
}

/* Number of LZ4 length extension bytes grows by one when the count reaches
 * 15, 270, 525, ... (count = literal run, or match length - 4). */
static unsigned ext_step(uint32_t cnt) {
  return cnt >= 15 && (cnt - 15) % 255 == 0;
}

typedef struct {
  uint8_t *p;
  size_t n, cap;
  int err;
} outbuf;

static void put(outbuf *o, uint8_t b) {
  if (o->n < o->cap) o->p[o->n++] = b;
  else o->err = TRC_LZ4_E_SPACE;
}

static void put_ext(outbuf *o, uint32_t v) {
  while (v >= 255) { put(o, 255); v -= 255; }
  put(o, (uint8_t)v);
}

/* One sequence: literals in[ls..ls+L), then a match (ml = 0: none). */
static void put_seq(outbuf *o, const uint8_t *lit, uint32_t L, uint32_t off,
                    uint32_t ml) {
  uint32_t mc = ml ? ml - 4 : 0, i;
  put(o, (uint8_t)(((L < 15 ? L : 15) << 4) | (mc < 15 ? mc : 15)));
  if (L >= 15) put_ext(o, L - 15);
  for (i = 0; i < L; i++) put(o, lit[i]);
  if (ml) {
    put(o, (uint8_t)(off & 255));
    put(o, (uint8_t)(off >> 8));
    if (mc >= 15) put_ext(o, mc - 15);
  }
}

long trc_lz4_frame(trc_lz4 *st, const uint8_t *in, size_t n, uint8_t *out,
                   size_t cap, trc_lz4_stats *ss) {
  static const uint8_t hdr[7] = {0x04, 0x22, 0x4D, 0x18, 0x40, 0x70, 0xDF};
  const uint32_t W = 1u << st->cfg.win_bits, WM = W - 1, MAXOFF = W - 16;
  const uint32_t BMAX = 1u << (st->cfg.out_aw - 1);
  const uint32_t LMAX = (1u << (st->cfg.lit_aw - 1)) - TRC_LZ4_GUARD;
  outbuf o = {out, 0, cap, 0};
  size_t blk_at = 0, x, i;
  trc_lz4_stats s;
  /* parser state, named as in trc_lz4_parse.v */
  int mode = 0;                 /* 0 literal run, 1 in a match */
  uint32_t off = 0, mlen = 0, sv = 0, lr = 0, bc = 0;
  int bfinal = 0;
  size_t lit_at = 0;            /* position of the first pending literal */
  size_t chk_pos = (size_t)-1;  /* position that has a chunk read */

  memset(&s, 0, sizeof s);
  if (!in || !out) return TRC_LZ4_E_PARAM;
  if (n == 0) return TRC_LZ4_E_EMPTY;
  for (i = 0; i < sizeof hdr; i++) put(&o, hdr[i]);
  blk_at = o.n;

#define B(i) ((size_t)(i) < n ? in[(size_t)(i)] : 0u)
  for (x = 0; x < n; x++) {
    /* front end: hash, table read-then-write, candidate check, 4-byte read */
    unsigned h = lz4_hash(B(x), B(x + 1), B(x + 2), B(x + 3));
    uint32_t c = st->tbl[h], ofs, eq = 0;
    int ck = (chk_pos == x), cv, start_ok, ext_ok, last, is_lit = 0;
    size_t a;
    st->tbl[h] = (uint32_t)x & WM;
    ofs = ((uint32_t)x - c) & WM;
    cv = ofs != 0 && ofs <= MAXOFF && ofs <= x;
    a = ck ? x - off : x - ofs;
    if (ck || cv)
      for (i = 0; i < 8; i++)
        eq |= (uint32_t)(B(a + i) == B(x + i)) << i;
    start_ok = x + 11 < n;
    ext_ok = x + 5 < n;
    last = x + 1 == n;

    /* parser */
    if (mode == 1) {
      uint32_t e = ck ? (eq & 1) : (sv & 1);
      uint32_t nsv = ck ? (eq >> 1) : (sv >> 1);
      if (mlen < 4 || (e && ext_ok && !bfinal && mlen < ML_MAX)) {
        mlen++;
        sv = nsv;
        bc += ext_step(mlen - 4);
        if (ck && eq == 255) chk_pos = x + 8;
      } else {
        put_seq(&o, in + lit_at, lr, off, mlen);
        s.sequences++;
        s.match_bytes += mlen;
        lr = 0;
        mode = 0;
      }
    }
    if (mode == 0) {
      if (!ck && cv && (eq & 15) == 15 && start_ok && !bfinal) {
        mode = 1;
        off = ofs;
        mlen = 1;
        sv = eq >> 1;
        bc += (lr == 0) + 2;
        if (eq == 255) chk_pos = x + 8;
      } else {
        if (lr == 0) { bc += 1; lit_at = x; }
        lr++;
        bc += 1 + ext_step(lr);
        s.literals++;
        is_lit = 1;
      }
    }
    if (is_lit && ((bfinal && lr >= 12) || last)) {
      put_seq(&o, in + lit_at, lr, 0, 0);
      /* the block: 4-byte size, then its bytes; insert the size in front */
      if (o.err) return o.err;
      if (o.n - blk_at != bc) return TRC_LZ4_E_INTERNAL;
      if (o.n + 4 > o.cap) return TRC_LZ4_E_SPACE;
      memmove(o.p + blk_at + 4, o.p + blk_at, bc);
      for (i = 0; i < 4; i++) o.p[blk_at + i] = (uint8_t)(bc >> (8 * i));
      o.n += 4;
      blk_at = o.n;
      s.blocks++;
      lr = 0;
      bc = 0;
      bfinal = 0;
    } else {
      if (last) return TRC_LZ4_E_INTERNAL; /* a match cannot reach the end */
      bfinal |= bc >= BMAX - TRC_LZ4_GUARD || lr >= LMAX ||
                (mode == 1 && mlen == ML_MAX);
    }
  }
#undef B
  for (i = 0; i < 4; i++) put(&o, 0);
  if (o.err) return o.err;
  s.in_bytes = n;
  s.out_bytes = o.n;
  if (ss) *ss = s;
  return (long)o.n;
}
