// trc_lz4_sim.cpp - Verilator harness of trc_lz4_core against the C model.
//
// Feeds a file as one packet (frame) per --frame bytes, with random input
// gaps and random output back-pressure (--stall P), collects the frames, and
// compares them byte for byte with model/lz4 (same parameters). Returns
// non-zero with the first mismatch (byte offset, frame). --out writes the
// RTL's frames (for `lz4 -d`); the last line gives clocks per input byte.
//
// usage: trc_lz4_sim --in FILE [--out FILE] [--frame N] [--seed S]
//                    [--stall P] [--wave F.fst]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vtrc_lz4_core.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "trc_lz4.h"
}

#ifndef TRC_LZ4_P_WIN_BITS
#define TRC_LZ4_P_WIN_BITS 12
#endif
#ifndef TRC_LZ4_P_OUT_AW
#define TRC_LZ4_P_OUT_AW 11
#endif
#ifndef TRC_LZ4_P_LIT_AW
#define TRC_LZ4_P_LIT_AW 9
#endif

namespace {

struct Rng { // xorshift64*: the same seed gives the same run
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 2685821657736338717ull + 1) {}
    uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ull;
    }
    bool chance(double p) { return (double)(next() >> 11) * (1.0 / 9007199254740992.0) < p; }
};

bool read_file(const char *path, std::vector<uint8_t> &v) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t buf[65536];
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) v.insert(v.end(), buf, buf + r);
    fclose(f);
    return true;
}

int run(const char *in_path, const char *out_path, size_t frame, uint64_t seed,
        double stall, const char *wave) {
    std::vector<uint8_t> in, ref, got;
    if (!read_file(in_path, in) || in.empty()) {
        fprintf(stderr, "trc_lz4_sim: %s: cannot read or empty\n", in_path);
        return 2;
    }
    if (frame == 0) frame = in.size();

    // the model's frames
    trc_lz4_cfg cfg;
    cfg.win_bits = TRC_LZ4_P_WIN_BITS;
    cfg.out_aw = TRC_LZ4_P_OUT_AW;
    cfg.lit_aw = TRC_LZ4_P_LIT_AW;
    trc_lz4 *st = nullptr;
    int e = trc_lz4_new(&st, &cfg);
    if (e) { fprintf(stderr, "trc_lz4_sim: %s\n", trc_lz4_error_name(e)); return 2; }
    std::vector<size_t> ref_ends; // end offset of each model frame
    {
        std::vector<uint8_t> buf(trc_lz4_bound(&cfg, frame) + 64);
        for (size_t at = 0; at < in.size(); at += frame) {
            size_t len = std::min(frame, in.size() - at);
            long r = trc_lz4_frame(st, in.data() + at, len, buf.data(), buf.size(), nullptr);
            if (r < 0) {
                fprintf(stderr, "trc_lz4_sim: model: %s\n", trc_lz4_error_name((int)r));
                return 2;
            }
            ref.insert(ref.end(), buf.begin(), buf.begin() + r);
            ref_ends.push_back(ref.size());
        }
    }
    trc_lz4_free(st);

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7fffffff));
    auto top = std::make_unique<Vtrc_lz4_core>(ctx.get(), "top");
    std::unique_ptr<VerilatedFstC> tfp;
    if (wave) {
        ctx->traceEverOn(true);
        tfp = std::make_unique<VerilatedFstC>();
        top->trace(tfp.get(), 99);
        tfp->open(wave);
    }
    Rng rng(seed);
    size_t pos = 0, frames_out = 0;
    uint64_t cyc = 0, first_in = 0, last_out = 0;
    int rc = 0;
    const uint64_t limit = 64 * (uint64_t)in.size() + 200000;

    auto tick = [&](void) {
        top->clk = 1;
        top->eval();
        if (tfp) tfp->dump(ctx->time());
        ctx->timeInc(1);
        top->clk = 0;
        top->eval();
        if (tfp) tfp->dump(ctx->time());
        ctx->timeInc(1);
        cyc++;
    };

    top->clk = 0;
    top->rst = 1;
    top->s_axis_tvalid = 0;
    top->m_axis_tready = 0;
    top->eval();
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
    while (cyc < limit) {
        // drive inputs away from the sampling edge (after the falling edge)
        bool vin = pos < in.size() && !(stall > 0 && rng.chance(stall));
        top->s_axis_tvalid = vin;
        top->s_axis_tdata = vin ? in[pos] : 0;
        top->s_axis_tlast = vin && ((pos + 1) % frame == 0 || pos + 1 == in.size());
        top->m_axis_tready = !(stall > 0 && rng.chance(stall));
        top->eval();
        bool took = top->s_axis_tvalid && top->s_axis_tready;
        bool out = top->m_axis_tvalid && top->m_axis_tready;
        if (took && pos == 0) first_in = cyc;
        if (out) {
            size_t o = got.size();
            got.push_back(top->m_axis_tdata);
            last_out = cyc;
            if (o >= ref.size() || got[o] != ref[o]) {
                fprintf(stderr, "trc_lz4_sim: mismatch at output byte %zu (frame %zu): "
                        "rtl 0x%02x model 0x%02x\n", o, frames_out, got[o],
                        o < ref.size() ? ref[o] : 0);
                rc = 1;
                break;
            }
            bool want_last = frames_out < ref_ends.size() && ref_ends[frames_out] == got.size();
            if ((bool)top->m_axis_tlast != want_last) {
                fprintf(stderr, "trc_lz4_sim: tlast %d at output byte %zu, model says %d\n",
                        (int)top->m_axis_tlast, o, (int)want_last);
                rc = 1;
                break;
            }
            if (want_last) frames_out++;
        }
        if (took) pos++;
        tick();
        if (frames_out == ref_ends.size()) break;
    }
    if (!rc && got.size() != ref.size()) {
        fprintf(stderr, "trc_lz4_sim: rtl wrote %zu bytes, model %zu (stopped after %llu "
                "clocks)\n",
                got.size(), ref.size(), (unsigned long long)cyc);
        rc = 1;
    }
    top->final();
    if (tfp) tfp->close();
    if (out_path) {
        FILE *f = fopen(out_path, "wb");
        if (!f || fwrite(got.data(), 1, got.size(), f) != got.size() || fclose(f)) {
            fprintf(stderr, "trc_lz4_sim: %s: cannot write\n", out_path);
            rc = rc ? rc : 2;
        }
    }
    printf("in %zu out %zu frames %zu clocks %llu clocks_per_byte %.4f\n", in.size(),
           got.size(), frames_out, (unsigned long long)(last_out - first_in + 1),
           (double)(last_out - first_in + 1) / (double)in.size());
    return rc;
}

} // namespace

int main(int argc, char **argv) {
    const char *in = nullptr, *out = nullptr, *wave = nullptr;
    size_t frame = 0;
    uint64_t seed = 1;
    double stall = 0.0;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--in" && i + 1 < argc) in = argv[++i];
        else if (a == "--out" && i + 1 < argc) out = argv[++i];
        else if (a == "--frame" && i + 1 < argc) frame = strtoull(argv[++i], nullptr, 0);
        else if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 0);
        else if (a == "--stall" && i + 1 < argc) stall = atof(argv[++i]);
        else if (a == "--wave" && i + 1 < argc) wave = argv[++i];
        else {
            fprintf(stderr, "usage: trc_lz4_sim --in FILE [--out FILE] [--frame N] [--seed S]"
                            " [--stall P] [--wave F.fst]\n");
            return 2;
        }
    }
    if (!in) { fprintf(stderr, "trc_lz4_sim: --in is required\n"); return 2; }
    return run(in, out, frame, seed, stall, wave);
}
