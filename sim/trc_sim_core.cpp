// trc_sim_core.cpp - Verilator harness: trc_core driven with random events.
//
// Events arrive at random times in phases: normal traffic, overflow bursts
// (every cycle while the output is blocked), long idle gaps (> 2^NT ticks,
// sometimes with the output blocked so TIME_EXT must wait for room), and
// mid-stream flushes. The output stream is decoded with the C model; every
// delivered event must come back with its exact absolute time (in ticks since
// reset), and every LOST count must equal the events the core dropped there.
//
// Issue 7: overflow storms (thousands of cycles with an event every cycle
// while the output trickles, so the FIFO sits at full and LOST records
// interleave with drops; at VAL_W = 8 a count above 255 is split over several
// LOST records), random resets of trc_core in mid-stream (--resets N: each
// segment between resets is checked on its own: the bytes up to its last
// tlast decode cleanly from the reset state and every event in them is
// exact; the events still inside the core at the reset are counted as
// reset-lost), and with SYNC_EVERY > 0, frames: each ends with SYNC and
// tlast, holds exactly SYNC_EVERY trace records, and decodes on its own (a
// fresh decoder) to the very same records, deltas included.
//
// usage: trc_sim_core [--events N] [--idles N] [--seed S] [--resets N]
//        [--storms N] [--wave F.fst]
#include <memory>

#include "Vtrc_core.h"
#include "verilated.h"

#include "trc_sim_util.h"
#include "trc_sim_wave.h"

#ifndef TRC_P_PRESCALE
#define TRC_P_PRESCALE 1
#endif
#ifndef TRC_P_OUT_W
#define TRC_P_OUT_W 64
#endif
#ifndef TRC_P_SYNC_EVERY
#define TRC_P_SYNC_EVERY 0
#endif

namespace {

struct Ev {
    uint64_t t; // ticks since reset
    trc_record r;
    bool dropped;
};

struct Totals {
    uint64_t events = 0, delivered = 0, drops = 0, lost_recs = 0, time_ext = 0, end = 0;
    uint64_t frames = 0, bytes = 0, reset_lost = 0, segments = 0;
};

// Decodes src[0..len) completely into out; the error of the first bad record.
trc_error decode_all(trc_decoder &d, const uint8_t *src, size_t len,
                     std::vector<trc_record> &out)
{
    std::vector<trc_record> chunk(4096);
    size_t pos = 0;
    while (pos < len) {
        size_t used = 0, n = 0;
        trc_error e = trc_decode(&d, src + pos, len - pos, &used, chunk.data(), chunk.size(),
                                 &n, 1);
        out.insert(out.end(), chunk.begin(), chunk.begin() + (long)n);
        if (e != TRC_OK)
            return e;
        if (used == 0 && n == 0)
            break;
        pos += used;
    }
    return TRC_OK;
}

bool same_rec(const trc_record &a, const trc_record &b)
{
    return a.kind == b.kind && a.a == b.a && a.b == b.b && a.delta == b.delta;
}

// Checks one segment of the stream (reset to reset, or to the end): decodes
// the bytes up to the last tlast and matches every record with the events.
// final: the segment ended with the final flush, so every event must be
// accounted for; otherwise events after the last delivered one were inside
// the core at the reset (counted in t.reset_lost).
int check_segment(const trc_params &p, const std::vector<Ev> &evs,
                  const std::vector<uint8_t> &bytes, const std::vector<size_t> &tl,
                  uint64_t drops, bool final, Totals &t_all)
{
    int rc = 0;
    size_t last_end = tl.empty() ? 0 : tl.back();
    trc_decoder d;
    if (trc_decoder_init(&d, &p) != TRC_OK)
        return 2;
    std::vector<trc_record> out;
    // Piece by piece (tlast to tlast); a piece that holds a SYNC ends a frame.
    const uint64_t every = TRC_P_SYNC_EVERY;
    size_t prev = 0, frame_start = 0, frame_first = 0;
    for (size_t k = 0; k < tl.size(); k++) {
        uint64_t syncs = d.st.sync;
        trc_error e = decode_all(d, bytes.data() + prev, tl[k] - prev, out);
        if (e != TRC_OK) {
            printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
                   (unsigned long long)trc_decoder_bit_offset(&d));
            return 1;
        }
        prev = tl[k];
        bool frame_end = d.st.sync != syncs;
        if (every && (frame_end || k + 1 == tl.size())) {
            // The frame alone, from a fresh decoder: the very same records.
            trc_decoder f;
            std::vector<trc_record> alone;
            if (trc_decoder_init(&f, &p) != TRC_OK)
                return 2;
            trc_error fe = decode_all(f, bytes.data() + frame_start, tl[k] - frame_start, alone);
            size_t n = out.size() - frame_first;
            bool same = fe == TRC_OK && alone.size() == n;
            for (size_t i = 0; same && i < n; i++)
                same = same_rec(alone[i], out[frame_first + i]);
            if (!same) {
                printf("FRAME %llu (bytes %zu..%zu) does not decode alone to the same "
                       "records (%s, %zu vs %zu records)\n",
                       (unsigned long long)t_all.frames, frame_start, tl[k],
                       trc_error_name(fe), alone.size(), n);
                return 1;
            }
            if (frame_end ? n != every : n >= every) {
                printf("FRAME %llu holds %zu trace records, SYNC_EVERY is %llu%s\n",
                       (unsigned long long)t_all.frames, n, (unsigned long long)every,
                       frame_end ? "" : " (last frame)");
                return 1;
            }
            if (frame_end)
                t_all.frames++;
            frame_start = tl[k];
            frame_first = out.size();
        }
    }
    uint64_t t = 0, lost_sum = 0, delivered = 0, lost_recs = 0;
    size_t gi = 0;
    for (size_t i = 0; i < out.size() && rc == 0; i++) {
        const trc_record &r = out[i];
        t += r.delta;
        if (r.kind == TRC_LOST) {
            lost_recs++;
            lost_sum += r.a;
            for (uint32_t k = 0; k < r.a; k++, gi++) {
                if (gi >= evs.size() || !evs[gi].dropped) {
                    printf("LOST MISMATCH: record %zu counts %u, event %zu was not dropped\n", i,
                           r.a, gi);
                    rc = 1;
                    break;
                }
            }
            continue;
        }
        if (gi >= evs.size()) {
            printf("EXTRA EVENT at record %zu\n", i);
            rc = 1;
            break;
        }
        const Ev &g = evs[gi];
        bool same_kind = r.kind == g.r.kind;
        if (g.dropped || !same_kind || r.a != g.r.a || (r.kind == TRC_OS && r.b != g.r.b) ||
            t != g.t) {
            printf("EVENT MISMATCH at record %zu (event %zu): got kind %u a %u b %u t %llu, "
                   "want kind %u a %u b %u t %llu%s\n",
                   i, gi, r.kind, r.a, r.b, (unsigned long long)t, g.r.kind, g.r.a, g.r.b,
                   (unsigned long long)g.t, g.dropped ? " (dropped)" : "");
            rc = 1;
            break;
        }
        gi++;
        delivered++;
    }
    if (!final) {
        // The rest was inside the core (or the LOST count waiting) at the reset.
        t_all.reset_lost += evs.size() - gi;
    } else if (rc == 0 && gi != evs.size()) {
        printf("MISSING EVENTS: %zu of %zu accounted for\n", gi, evs.size());
        rc = 1;
    }
    if (rc == 0 && final && lost_sum != drops) {
        printf("LOST SUM %llu != dropped %llu\n", (unsigned long long)lost_sum,
               (unsigned long long)drops);
        rc = 1;
    }
    t_all.events += evs.size();
    t_all.delivered += delivered;
    t_all.drops += drops;
    t_all.lost_recs += lost_recs;
    t_all.time_ext += d.st.time_ext;
    t_all.end += d.st.end;
    t_all.bytes += last_end;
    t_all.segments++;
    (void)lost_sum;
    return rc;
}

int run(size_t n_events, unsigned n_idles, uint64_t seed, unsigned n_resets, unsigned n_storms,
        const char *wave)
{
    const trc_params p = sim_params();
    const uint64_t pre = TRC_P_PRESCALE;
    const unsigned out_w = TRC_P_OUT_W, kw = out_w / 8;
    const uint64_t maxd = (1ull << p.nt) - 1;

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7fffffff));
    ctx->fatalOnError(false);
    auto top = std::make_unique<Vtrc_core>(ctx.get(), "top");
    SimWave<Vtrc_core> tfp;
    if (wave && !tfp.open(ctx.get(), top.get(), wave))
        return 2;
    SimRng rng(seed);
    std::vector<Ev> evs;
    std::vector<uint8_t> bytes;
    std::vector<size_t> tl; // byte counts at each tlast
    uint64_t drops = 0, cycle = 0, tlasts = 0;
    int rc = 0;
    Totals tot;
    size_t events_total = 0;
    unsigned resets = 0, storms = 0, rst_left = 0;
    uint64_t reset_in = UINT64_MAX, storm_period = 1, storm_on = 1;

    // Phase machine
    enum { NORMAL, BURST, IDLE, STORM, DRAIN } phase = NORMAL;
    uint64_t phase_left = 100;
    double ev_p = 0.3, rdy_p = 1.0;
    unsigned idles = 0;
    const uint32_t fpool[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55};
    const uint32_t tpool[] = {1, 2, 3, 4};
    const uint32_t vpool[] = {0, 1, 7, 100, 1000, 4242};

    auto random_event = [&](void) {
        trc_record r;
        r.delta = 0;
        uint64_t k = rng.below(10);
        if (k < 7) {
            r.kind = rng.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = rng.below(4) ? fpool[rng.below(10)] : (uint32_t)rng.next();
            r.a &= (uint32_t)((1ull << p.fid_w) - 1);
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            r.a = rng.below(4) ? tpool[rng.below(4)]
                               : (uint32_t)rng.below(TRC_TYPE_LOST(&p)); // user types only
            r.a &= (1u << p.type_w) - 1;
            r.b = rng.below(3) ? vpool[rng.below(6)] : (uint32_t)rng.next();
            r.b &= (uint32_t)((1ull << p.val_w) - 1);
        }
        return r;
    };

    // Reset
    top->rst = 1;
    top->ev_valid = 0;
    top->flush = 0;
    top->m_axis_tready = 0;
    for (int i = 0; i < 4; i++) {
        top->clk = 0;
        top->eval();
        ctx->timeInc(1);
        top->clk = 1;
        top->eval();
        ctx->timeInc(1);
    }
    uint64_t drain_quiet = 0;
    bool final_flush = false;
    for (;;) {
        // ---- falling edge: drive inputs
        top->clk = 0;
        top->eval();
        tfp.dump(ctx->time());
        ctx->timeInc(1);
        if (reset_in != UINT64_MAX && reset_in-- == 0) {
            // Check the segment so far, then reset for 1..3 cycles.
            rc = check_segment(p, evs, bytes, tl, drops, false, tot);
            if (rc)
                break;
            events_total += evs.size();
            evs.clear();
            bytes.clear();
            tl.clear();
            drops = 0;
            resets++;
            reset_in = UINT64_MAX;
            rst_left = 1 + (unsigned)rng.below(3);
        }
        top->rst = rst_left > 0;
        if (rst_left) {
            // Mid-stream reset: no events, the output is ignored.
            top->ev_valid = 0;
            top->flush = 0;
            top->m_axis_tready = rng.chance(0.5);
            top->eval();
            top->clk = 1;
            top->eval();
            tfp.dump(ctx->time());
            ctx->timeInc(1);
            if (--rst_left == 0)
                cycle = 0; // time restarts: the next cycle is c = 0
            if (ctx->gotError()) {
                printf("ASSERTION failed in the RTL during a reset\n");
                rc = 1;
                break;
            }
            continue;
        }
        if (phase_left == 0) {
            if (events_total + evs.size() >= n_events && idles >= n_idles &&
                storms >= n_storms && resets >= n_resets) {
                phase = DRAIN;
                phase_left = UINT64_MAX;
            } else {
                uint64_t k = rng.below(10);
                if (idles < n_idles && k < 2) {
                    phase = IDLE;
                    idles++;
                    // > 2^NT ticks; sometimes with the output blocked throughout
                    phase_left = (maxd + 1) * pre * (1 + rng.below(3)) + rng.below(maxd * pre);
                    rdy_p = rng.below(3) == 0 ? 0.0 : 0.7;
                } else if (storms < n_storms && k < 4) {
                    // Overflow storm: an event every cycle for thousands of
                    // cycles, the output ready storm_on of every storm_period
                    // cycles (never, for some).
                    phase = STORM;
                    storms++;
                    phase_left = 2000 + rng.below(8000);
                    storm_period = 2 + rng.below(60);
                    storm_on = rng.below(4) == 0 ? 0 : 1 + rng.below(storm_period / 2 + 1);
                } else if (k < 3) {
                    phase = BURST;
                    phase_left = 20 + rng.below(300);
                    rdy_p = rng.below(2) ? 0.0 : 0.3;
                } else {
                    phase = NORMAL;
                    phase_left = 50 + rng.below(2000);
                    ev_p = 0.02 + 0.5 * (double)rng.below(1000) / 1000.0;
                    rdy_p = 0.5 + 0.5 * (double)rng.below(1000) / 1000.0;
                }
                // A reset somewhere inside this phase, until all are used.
                if (resets < n_resets && phase != IDLE && rng.below(3) == 0)
                    reset_in = rng.below(phase_left);
            }
        }
        phase_left--;
        bool ev = false;
        if (phase == NORMAL)
            ev = rng.chance(ev_p);
        else if (phase == BURST || phase == STORM)
            ev = true;
        bool flush = false;
        if (phase == NORMAL && rng.chance(0.0005))
            flush = true;
        if (phase == DRAIN && !final_flush) {
            flush = true;
            final_flush = true;
        }
        trc_record r = random_event();
        top->ev_valid = ev;
        top->ev_os = r.kind == TRC_OS;
        top->ev_info = (uint32_t)(sim_pack(p, r) & ((1ull << sim_info_w(p)) - 1));
        top->flush = flush;
        if (phase == DRAIN)
            top->m_axis_tready = 1;
        else if (phase == STORM)
            top->m_axis_tready = cycle % storm_period < storm_on;
        else
            top->m_axis_tready = rng.chance(rdy_p);
        top->eval();
        if (ev) {
            Ev e;
            e.t = cycle / pre;
            e.r = r;
            e.dropped = top->drop;
            evs.push_back(e);
        }
        if (top->drop) {
            drops++;
            if (!ev) {
                printf("DROP without an event at cycle %llu\n", (unsigned long long)cycle);
                rc = 1;
                break;
            }
        }
        if (top->m_axis_tvalid && top->m_axis_tready) {
            uint64_t data = top->m_axis_tdata;
            unsigned keep = top->m_axis_tkeep;
            bool last = top->m_axis_tlast;
            unsigned nkeep = 0;
            while (nkeep < kw && ((keep >> (kw - 1 - nkeep)) & 1))
                nkeep++;
            unsigned want = ((1u << kw) - 1) & ~((1u << (kw - nkeep)) - 1);
            if (keep != want || nkeep == 0 || (!last && nkeep != kw)) {
                printf("BAD TKEEP 0x%x at byte offset %zu\n", keep, bytes.size());
                rc = 1;
                break;
            }
            for (unsigned j = 0; j < nkeep; j++)
                bytes.push_back((uint8_t)(data >> (out_w - 8 - 8 * j)));
            if (last) {
                tl.push_back(bytes.size());
                tlasts++;
            }
            drain_quiet = 0;
        } else if (phase == DRAIN) {
            drain_quiet++;
        }
        // ---- rising edge
        top->clk = 1;
        top->eval();
        tfp.dump(ctx->time());
        ctx->timeInc(1);
        cycle++;
        if (ctx->gotError()) {
            printf("ASSERTION failed in the RTL at cycle %llu\n", (unsigned long long)cycle);
            rc = 1;
            break;
        }
        // Idle TIME_EXT words may trail the final END; 64 quiet cycles end it.
        if (phase == DRAIN && drain_quiet > 64 && tlasts)
            break;
        if (phase == DRAIN && drain_quiet > 100000) {
            printf("TIMEOUT: no final END\n");
            rc = 1;
            break;
        }
    }
    top->final();
    tfp.close();
    if (rc)
        return rc;
    rc = check_segment(p, evs, bytes, tl, drops, true, tot);
    printf("events %llu delivered %llu dropped %llu lost-records %llu time_ext %llu end %llu "
           "frames %llu resets %u reset-lost %llu storms %u bytes %llu seed %llu\n",
           (unsigned long long)tot.events, (unsigned long long)tot.delivered,
           (unsigned long long)tot.drops, (unsigned long long)tot.lost_recs,
           (unsigned long long)tot.time_ext, (unsigned long long)tot.end,
           (unsigned long long)tot.frames, resets, (unsigned long long)tot.reset_lost, storms,
           (unsigned long long)tot.bytes, (unsigned long long)seed);

    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    size_t events = 20000;
    unsigned idles = 3;
    uint64_t seed = 1;
    const char *wave = nullptr;
    unsigned resets = 0, storms = 0;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!v) {
            fprintf(stderr, "usage: trc_sim_core [--events N] [--idles N] [--seed S] "
                            "[--resets N] [--storms N] [--wave F.fst]\n");
            return 2;
        }
        i++;
        if (a == "--events")
            events = strtoull(v, nullptr, 0);
        else if (a == "--idles")
            idles = (unsigned)strtoul(v, nullptr, 0);
        else if (a == "--seed")
            seed = strtoull(v, nullptr, 0);
        else if (a == "--wave")
            wave = v;
        else if (a == "--resets")
            resets = (unsigned)strtoul(v, nullptr, 0);
        else if (a == "--storms")
            storms = (unsigned)strtoul(v, nullptr, 0);
        else {
            fprintf(stderr, "trc_sim_core: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    return run(events, idles, seed, resets, storms, wave);
}
