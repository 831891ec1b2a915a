// trc_sim_util.h - shared pieces of the Verilator harnesses: the format
// parameters the model was built with, a seeded RNG, trace loading (text v1)
// and lowering into raw records exactly as the C model does it.
#ifndef TRC_SIM_UTIL_H
#define TRC_SIM_UTIL_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "trc.h"

// Format parameters of this build (sim/sim.mk passes them with -D).
#ifndef TRC_P_NT
#define TRC_P_NT 23
#endif
#ifndef TRC_P_FID_W
#define TRC_P_FID_W 15
#endif
#ifndef TRC_P_TYPE_W
#define TRC_P_TYPE_W 7
#endif
#ifndef TRC_P_VAL_W
#define TRC_P_VAL_W 16
#endif
#ifndef TRC_P_ND_F
#define TRC_P_ND_F 3
#endif
#ifndef TRC_P_ND_T
#define TRC_P_ND_T 3
#endif
#ifndef TRC_P_ND_V
#define TRC_P_ND_V 3
#endif
#ifndef TRC_P_MODE
#define TRC_P_MODE 0
#endif
#ifndef TRC_P_SK
#define TRC_P_SK 0
#endif
#ifndef TRC_P_SD
#define TRC_P_SD 0
#endif
#ifndef TRC_P_SO
#define TRC_P_SO 0
#endif
#ifndef TRC_P_LEAN
#define TRC_P_LEAN 0 /* the lean encoder (the harness's time limit) */
#endif
#ifndef TRC_P_TQ
#define TRC_P_TQ 1
#endif
#ifndef TRC_P_FE
#define TRC_P_FE 0
#endif
#ifndef TRC_P_NCPU
#define TRC_P_NCPU 1
#endif
#ifndef TRC_P_OUT_W
#define TRC_P_OUT_W 64 /* builds of one output width (trc_core and the SoCs) */
#endif
#ifndef TRC_P_PRESCALE
#define TRC_P_PRESCALE 1
#endif

static inline trc_params sim_params(void)
{
    trc_params p;
    p.nt = TRC_P_NT;
    p.fid_w = TRC_P_FID_W;
    p.type_w = TRC_P_TYPE_W;
    p.val_w = TRC_P_VAL_W;
    p.nd_f = TRC_P_ND_F;
    p.nd_t = TRC_P_ND_T;
    p.nd_v = TRC_P_ND_V;
    p.mode = TRC_P_MODE;
    p.sk = TRC_P_SK;
    p.sd = TRC_P_SD;
    p.so = TRC_P_SO;
    p.cpus = TRC_P_NCPU;
    p.tq = TRC_P_TQ;
    p.fe = TRC_P_FE;
    return p;
}

static inline unsigned sim_info_w(const trc_params &p)
{
    unsigned f = 1 + p.fid_w, o = p.type_w + p.val_w;
    return f > o ? f : o;
}

// xorshift64*: the same seed gives the same run.
struct SimRng {
    uint64_t s;
    explicit SimRng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    // true with probability p (0..1)
    bool chance(double p) { return (double)(next() >> 11) * (1.0 / 9007199254740992.0) < p; }
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }
};

// Packs a raw record into the s_axis_tdata layout {os, delta, info}.
static inline uint64_t sim_pack(const trc_params &p, const trc_record &r)
{
    unsigned iw = sim_info_w(p);
    uint64_t info;
    if (r.kind == TRC_OS)
        info = ((uint64_t)r.a << p.val_w) | r.b;
    else
        info = ((uint64_t)(r.kind == TRC_EXIT) << p.fid_w) | r.a;
    uint64_t os = r.kind == TRC_OS;
    return (os << (p.nt + iw)) | (r.delta << iw) | info;
}

// The record sim_pack() packed into x (the RTL's raw record layout).
static inline trc_record sim_unpack(const trc_params &p, uint64_t x)
{
    unsigned iw = sim_info_w(p);
    trc_record r;
    r.delta = (x >> iw) & ((1ull << p.nt) - 1);
    if ((x >> (p.nt + iw)) & 1) {
        r.kind = TRC_OS;
        r.a = (uint32_t)(x >> p.val_w) & ((1u << p.type_w) - 1);
        r.b = (uint32_t)(x & ((1ull << p.val_w) - 1));
    } else {
        r.kind = (x >> p.fid_w) & 1 ? TRC_EXIT : TRC_ENTRY;
        r.a = (uint32_t)(x & ((1ull << p.fid_w) - 1));
        r.b = 0;
    }
    return r;
}

// trc_mpcore's markers and control records (the two types below the
// reserved four) go before a LOST that waits.
static inline bool sim_is_broadcast(const trc_record &r)
{
    return r.kind == TRC_OS &&
           (r.a == (1u << TRC_P_TYPE_W) - 9 || r.a == (1u << TRC_P_TYPE_W) - 10);
}

// Mask of the info bits a record of this kind leaves unused.
static inline uint64_t sim_unused_mask(const trc_params &p, bool os)
{
    unsigned iw = sim_info_w(p);
    unsigned used = os ? p.type_w + p.val_w : 1 + p.fid_w;
    return ((1ull << iw) - 1) & ~((1ull << used) - 1);
}

// Reads trace text v1 (xz-compressed when the name ends in .xz, "-" = stdin).
// Up to max_records records (0 = all). Function ids that do not fit FID_W are
// an error unless map_ids: then id mod 2^FID_W. Returns false with a message.
static inline bool sim_load_trace(const char *path, const trc_params &p, size_t max_records,
                                  bool map_ids, std::vector<trc_record> &out, std::string &err)
{
    std::string name(path);
    FILE *f;
    bool piped = false;
    if (name == "-") {
        f = stdin;
    } else if (name.size() > 3 && name.compare(name.size() - 3, 3, ".xz") == 0) {
        std::string cmd = "xz -dc '" + name + "'";
        f = popen(cmd.c_str(), "r");
        piped = true;
    } else {
        f = fopen(path, "r");
    }
    if (!f) {
        err = std::string("cannot open ") + path;
        return false;
    }
    // Parse with widths wide enough for any sample trace, then map and check.
    trc_params wide = p;
    wide.fid_w = 31;
    wide.type_w = p.type_w;
    char line[256];
    size_t lineno = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n'))
            len--;
        trc_record r;
        int is_rec = 0;
        size_t col = 0;
        trc_error e = trc_text_parse(&wide, line, len, &r, &is_rec, &col);
        if (e == TRC_OK && is_rec && map_ids && r.kind != TRC_OS && r.kind != TRC_LOST)
            r.a &= (1u << p.fid_w) - 1;
        if (e == TRC_OK && is_rec)
            e = trc_record_check(&p, &r);
        if (e != TRC_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s:%zu:%zu: %s", path, lineno, col, trc_error_name(e));
            err = msg;
            ok = false;
            break;
        }
        if (!is_rec)
            continue;
        out.push_back(r);
        if (max_records && out.size() >= max_records)
            break;
    }
    if (piped) {
        pclose(f); // xz may die of SIGPIPE when only a prefix was read
    } else if (f != stdin) {
        fclose(f);
    }
    return ok;
}

// Seeded random trace that fits the parameters: deltas 0, small, around
// 2^NT and far above it (several TIME_EXT); ids, types and values mostly from
// small pools (dictionary hits) and sometimes anywhere in range; user OS
// types only. The same seed gives the same trace.
static inline void sim_random_trace(const trc_params &p, size_t n, uint64_t seed,
                                    std::vector<trc_record> &out)
{
    SimRng rng(seed ^ 0x7ace);
    const uint64_t maxd = (1ull << p.nt) - 1;
    const uint32_t fmask = (uint32_t)((1ull << p.fid_w) - 1);
    const uint32_t vmask = (uint32_t)((1ull << p.val_w) - 1);
    const uint32_t n_types = TRC_TYPE_LOST(&p); // user types 0..LOST-1
    for (size_t i = 0; i < n; i++) {
        trc_record r;
        uint64_t k = rng.below(100);
        if (k < 10)
            r.delta = 0;
        else if (k < 80)
            r.delta = rng.below(64);
        else if (k < 95)
            r.delta = rng.below(maxd + 1);
        else if (k < 98)
            r.delta = maxd + rng.below(3) - 1;
        else
            r.delta = maxd * (1 + rng.below(4)) + rng.below(maxd + 1);
        if (rng.below(3)) {
            r.kind = rng.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = (uint32_t)(rng.below(4) ? rng.below(12) : rng.next()) & fmask;
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            r.a = (uint32_t)(rng.below(4) ? rng.below(6) : rng.next()) % n_types;
            r.b = (uint32_t)(rng.below(3) ? rng.below(10) : rng.next()) & vmask;
        }
        out.push_back(r);
    }
}

// Lowers trace records into raw records (TIME_EXT splitting, LOST -> OS);
// raw2trace[i] is the trace record raw[i] belongs to.
static inline void sim_lower(const trc_params &p, const std::vector<trc_record> &tr,
                             std::vector<trc_record> &raw, std::vector<size_t> &raw2trace)
{
    for (size_t i = 0; i < tr.size(); i++) {
        uint64_t n = trc_time_ext_count(&p, tr[i].delta);
        for (uint64_t k = 0; k < n; k++) {
            raw.push_back(trc_time_ext_nth(&p, tr[i].delta, k));
            raw2trace.push_back(i);
        }
        raw.push_back(trc_lower(&p, &tr[i]));
        raw2trace.push_back(i);
    }
}

static inline trc_record sim_marker(const trc_params &p, unsigned type)
{
    trc_record r;
    r.delta = 0;
    r.a = type;
    r.b = 0;
    r.kind = TRC_OS;
    (void)p;
    return r;
}

#endif
