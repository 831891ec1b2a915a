/* trc_lz4: command line of the LZ4 baseline model.
 *   trc_lz4 [-w WIN_BITS] [-o OUT_AW] [-l LIT_AW] [--frame N] [--stats] IN OUT
 *       compress IN (any bytes) into LZ4 frames, one frame per N input bytes
 *       (default: the whole file); exactly the bytes the RTL core writes.
 *   trc_lz4 bin IN.txt OUT.bin
 *       convert trace text v1 to trace bin v1 (48-bit big-endian records). */
#include "trc_lz4.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_all(const char *path, uint8_t **buf, size_t *n) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  size_t cap = 1 << 20, len = 0, r;
  uint8_t *p;
  if (!f) { fprintf(stderr, "trc_lz4: %s: %s\n", path, strerror(errno)); return 1; }
  p = malloc(cap);
  while (p && (r = fread(p + len, 1, cap - len, f)) > 0) {
    len += r;
    if (len == cap) {
      uint8_t *q = realloc(p, cap *= 2);
      if (!q) { free(p); p = NULL; }
      else p = q;
    }
  }
  if (f != stdin) fclose(f);
  if (!p) { fprintf(stderr, "trc_lz4: %s: out of memory\n", path); return 1; }
  *buf = p;
  *n = len;
  return 0;
}

static int write_all(const char *path, const uint8_t *p, size_t n) {
  FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
  if (!f || fwrite(p, 1, n, f) != n || (f != stdout && fclose(f))) {
    fprintf(stderr, "trc_lz4: %s: %s\n", path, strerror(errno));
    return 1;
  }
  return 0;
}

static void put48(uint8_t *p, uint64_t v) {
  int i;
  for (i = 0; i < 6; i++) p[i] = (uint8_t)(v >> (40 - 8 * i));
}

/* trace text v1 -> trace bin v1 (paper parameters: NT 23, FID 15, TYPE 7). */
static int to_bin(const char *src, const char *dst) {
  uint8_t *txt, *bin;
  size_t n, nb = 0, cap, line = 0;
  char *s, *e;
  if (read_all(src, &txt, &n)) return 1;
  cap = n * 2 + 64;
  bin = malloc(cap);
  txt = realloc(txt, n + 1);
  if (!bin || !txt) { fprintf(stderr, "trc_lz4: out of memory\n"); return 1; }
  txt[n] = 0;
  for (s = (char *)txt; *s; s = e) {
    unsigned long long d, a = 0, b = 0;
    char kind;
    uint64_t info;
    e = strchr(s, '\n');
    e = e ? e + 1 : s + strlen(s);
    line++;
    if (*s == '#' || *s == '\n' || *s == '\r') continue;
    if (sscanf(s, "%llu %c %lli %lli", &d, &kind, &a, &b) < 3) {
      fprintf(stderr, "trc_lz4: %s:%zu: bad record\n", src, line);
      return 1;
    }
    switch (kind) {
    case 'E': case 'X':
      if (a > 0x7FFF) goto range;
      info = (uint64_t)(kind == 'X') << 23 | a;
      break;
    case 'O':
      if (a > 123 || b > 0xFFFF) goto range;
      info = (uint64_t)1 << 47 | a << 16 | b;
      break;
    case 'L':
      info = (uint64_t)1 << 47 | 124u << 16 | (a > 0xFFFF ? 0xFFFF : a);
      break;
    default:
      goto range;
    }
    for (; d > 0x7FFFFF; d -= 0x7FFFFF) { /* TIME_EXT records */
      if (nb + 12 > cap) goto big;
      put48(bin + nb, (uint64_t)1 << 47 | (uint64_t)0x7FFFFF << 24 | 127u << 16);
      nb += 6;
    }
    if (nb + 6 > cap) goto big;
    put48(bin + nb, info | (uint64_t)d << 24);
    nb += 6;
  }
  return write_all(dst, bin, nb);
range:
  fprintf(stderr, "trc_lz4: %s:%zu: field out of range\n", src, line);
  return 1;
big:
  fprintf(stderr, "trc_lz4: %s: too many TIME_EXT records\n", src);
  return 1;
}

int main(int argc, char **argv) {
  trc_lz4_cfg cfg = trc_lz4_default_cfg();
  size_t frame = 0, n, at, cap, total = 0;
  int i, stats = 0, rc;
  const char *src = NULL, *dst = NULL;
  uint8_t *in, *out;
  trc_lz4 *st;
  trc_lz4_stats ss, sum;

  if (argc == 4 && !strcmp(argv[1], "bin")) return to_bin(argv[2], argv[3]);
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-w") && i + 1 < argc) cfg.win_bits = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) cfg.out_aw = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "-l") && i + 1 < argc) cfg.lit_aw = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--frame") && i + 1 < argc) frame = (size_t)atoll(argv[++i]);
    else if (!strcmp(argv[i], "--stats")) stats = 1;
    else if (!src) src = argv[i];
    else if (!dst) dst = argv[i];
    else { src = NULL; break; }
  }
  if (!src || !dst) {
    fprintf(stderr, "usage: trc_lz4 [-w WIN_BITS] [-o OUT_AW] [-l LIT_AW] [--frame N]"
                    " [--stats] IN OUT\n       trc_lz4 bin IN.txt OUT.bin\n");
    return 2;
  }
  rc = trc_lz4_new(&st, &cfg);
  if (rc) { fprintf(stderr, "trc_lz4: %s\n", trc_lz4_error_name(rc)); return 2; }
  if (read_all(src, &in, &n)) return 1;
  if (frame == 0) frame = n ? n : 1;
  cap = trc_lz4_bound(&cfg, n) + (n / frame + 1) * 64;
  out = malloc(cap);
  if (!out) { fprintf(stderr, "trc_lz4: out of memory\n"); return 1; }
  memset(&sum, 0, sizeof sum);
  for (at = 0; at < n; at += frame) {
    size_t len = n - at < frame ? n - at : frame;
    long r = trc_lz4_frame(st, in + at, len, out + total, cap - total, &ss);
    if (r < 0) {
      fprintf(stderr, "trc_lz4: %s: frame at byte %zu: %s\n", src, at, trc_lz4_error_name((int)r));
      return 1;
    }
    total += (size_t)r;
    sum.in_bytes += ss.in_bytes; sum.out_bytes += ss.out_bytes; sum.blocks += ss.blocks;
    sum.sequences += ss.sequences; sum.literals += ss.literals;
    sum.match_bytes += ss.match_bytes;
  }
  if (write_all(dst, out, total)) return 1;
  if (stats)
    fprintf(stderr, "in %llu out %llu ratio %.4f blocks %llu sequences %llu literals %llu"
            " match_bytes %llu\n", (unsigned long long)sum.in_bytes,
            (unsigned long long)sum.out_bytes,
            sum.out_bytes ? (double)sum.in_bytes / (double)sum.out_bytes : 0.0,
            (unsigned long long)sum.blocks, (unsigned long long)sum.sequences,
            (unsigned long long)sum.literals, (unsigned long long)sum.match_bytes);
  trc_lz4_free(st);
  free(in);
  free(out);
  return 0;
}
