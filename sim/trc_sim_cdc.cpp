// trc_sim_cdc.cpp - Verilator harness: trc_core_dc (the dual-clock front end
// trc_evcdc before trc_core) with the CPU and trc on two clocks.
//
// The clocks run at a frequency ratio CPU:trc given with --ratio (1:3, 3:1,
// 1:1, ...), from a random (seeded) phase, every period drawn with a random
// jitter of up to --jitter (default 5 %), so the edges of the two clocks
// meet in every relative phase. Events come in phases: normal traffic,
// bursts (an event every CPU clock, faster than trc takes them at 3:1),
// output stalls (trc_core drops, and drops LOST records the front end
// presents), random flushes, and with --resets N random resets of trc's
// side in mid-stream. Every event carries its sequence number (function id
// or OS value), so the decoded stream identifies each one.
//
// Checks, on the stream decoded with the C model:
//  - nothing reordered or duplicated: every delivered event is, exactly,
//    the next event not yet accounted for, after skipping as many as the
//    LOST records since the previous delivered event count (so each LOST
//    count covers exactly the events dropped at its place);
//  - nothing lost silently: at the end every event is delivered or counted
//    (those generated while the front end was in reset excepted, and those
//    inside it at a reset, which the contract gives up);
//  - time: an event is presented to trc_core (its decoded tick, PRESCALE 1)
//    no earlier than SYNC_N + 1 trc edges after the first trc edge that
//    follows its CPU edge; with --exact-latency (a run where nothing
//    queues), exactly then;
//  - the RTL's assertions (Gray steps, occupancy, handshakes).
// Prints the latency seen, in trc clocks, and the counts.
//
// usage: trc_sim_cdc [--ratio C:T] [--events N] [--seed S] [--jitter F]
//        [--resets N] [--exact-latency] [--no-loss] [--min-redo N] [--wave F.fst]
// --no-loss: traffic within what both sides take (0.5 events per trc clock,
// no output stalls): nothing may be dropped at all.
#include <algorithm>
#include <cmath>
#include <memory>

#include "Vtrc_core_dc.h"
#include "verilated.h"

#include "trc_sim_util.h"
#include "trc_sim_wave.h"

#ifndef TRC_P_OUT_W
#define TRC_P_OUT_W 64
#endif
#ifndef TRC_P_CDC_SYNC
#define TRC_P_CDC_SYNC 2
#endif
#ifndef TRC_P_PRESCALE
#define TRC_P_PRESCALE 1
#endif
static_assert(TRC_P_PRESCALE == 1, "the time check needs one tick per trc clock");

namespace {

struct Ev {
    trc_record r;
    double t_cpu;      // time of the CPU edge that took it
    uint64_t e1;       // index of the first trc edge after that CPU edge
    bool dropped;      // ev_drop: dropped at the crossing (counted)
    bool ignored;      // ev_rst: the front end was in reset
};

struct Seg {
    std::vector<uint8_t> bytes;
    std::vector<size_t> tl;  // byte counts at each tlast
    uint64_t k_r = 0;        // index of the last trc edge that sampled rst = 1
};

struct Result {
    uint64_t delivered = 0, lost_sum = 0, lost_recs = 0;
    int64_t lat_min = INT64_MAX, lat_max = 0;        // trc edges
    double lat_t_min = 1e300, lat_t_max = 0;          // trc clock periods
};

trc_error decode_all(const trc_params &p, const uint8_t *src, size_t len,
                     std::vector<trc_record> &out, uint64_t *bit)
{
    trc_decoder d;
    trc_decoder_init(&d, &p);
    std::vector<trc_record> chunk(4096);
    size_t pos = 0;
    for (;;) {
        size_t used = 0, n = 0;
        trc_error e = trc_decode(&d, src + pos, len - pos, &used, chunk.data(), chunk.size(),
                                 &n, 1);
        out.insert(out.end(), chunk.begin(), chunk.begin() + (long)n);
        pos += used;
        if (e != TRC_OK) {
            *bit = trc_decoder_bit_offset(&d);
            return e;
        }
        if (n < chunk.size())
            return TRC_OK;
    }
}

bool same_event(const trc_record &a, const trc_record &b)
{
    return a.kind == b.kind && a.a == b.a && a.b == b.b;
}

class Harness {
public:
    Harness(uint64_t seed, double ratio_cpu, double ratio_trc, double jitter)
        : rng(seed), jit(jitter)
    {
        p = sim_params();
        // the faster clock has period 1000 (time units of the harness)
        double fmax = std::max(ratio_cpu, ratio_trc);
        per_cpu = 1000.0 * fmax / ratio_cpu;
        per_trc = 1000.0 * fmax / ratio_trc;
    }

    SimRng rng;
    double jit, per_cpu, per_trc;
    trc_params p;
    std::vector<Ev> evs;        // every event the CPU presented, in order
    std::vector<double> trc_t;  // time of each trc edge
    uint64_t cpu_drops = 0, core_drops = 0;

    double period(double nominal) { return nominal * (1.0 + jit * (2.0 * (double)rng.below(1u << 20) / (1u << 20) - 1.0)); }

    trc_record make_event(uint64_t seq)
    {
        trc_record r;
        r.delta = 0;
        if (rng.below(10) < 7) {
            r.kind = rng.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = (uint32_t)(seq & ((1ull << p.fid_w) - 1));
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            r.a = 1 + (uint32_t)(seq % 5); // user types, below the reserved four
            r.b = (uint32_t)(seq & ((1ull << p.val_w) - 1));
        }
        return r;
    }

    // Checks one segment's records against the events. from: index of the
    // first event the segment may hold; complete_from: with final, every
    // event from there on must be accounted for. Returns 0 or 1 (message
    // printed); *next gets the index after the last event accounted for.
    int check(const Seg &s, size_t from, bool final, size_t complete_from, size_t *next,
              Result &res)
    {
        size_t end = final ? s.bytes.size() : (s.tl.empty() ? 0 : s.tl.back());
        std::vector<trc_record> recs;
        uint64_t bit = 0;
        trc_error e = end || final ? decode_all(p, s.bytes.data(), end, recs, &bit) : TRC_OK;
        if (e != TRC_OK) {
            printf("DECODE ERROR %s at byte %llu, bit %llu of a segment of %zu bytes\n",
                   trc_error_name(e), (unsigned long long)(bit / 8),
                   (unsigned long long)(bit % 8), end);
            return 1;
        }
        if (getenv("TRC_CDC_DEBUG")) {
            for (size_t i = 0; i < recs.size() && i < 12; i++)
                printf("rec %zu: d %llu kind %u a %u b %u\n", i, (unsigned long long)recs[i].delta,
                       recs[i].kind, recs[i].a, recs[i].b);
            for (size_t j = from; j < evs.size() && j < from + 16; j++)
                printf("ev %zu: kind %u a %u b %u dropped %d ignored %d e1 %llu%s\n", j,
                       evs[j].r.kind, evs[j].r.a, evs[j].r.b, evs[j].dropped, evs[j].ignored,
                       (unsigned long long)evs[j].e1, j == complete_from ? " <- complete_from" : "");
        }
        size_t at = from;
        uint64_t pending = 0, tick = 0;
        bool synced = false;
        for (size_t i = 0; i < recs.size(); i++) {
            const trc_record &r = recs[i];
            tick += r.delta;
            if (r.kind == TRC_LOST) {
                pending += r.a;
                res.lost_sum += r.a;
                res.lost_recs++;
                continue;
            }
            // skip the events the LOST records counted (and, at a segment's
            // start, those a reset gave up)
            size_t k = at;
            uint64_t skip = pending;
            if (!synced) {
                while (k < evs.size() &&
                       (evs[k].ignored || evs[k].dropped || !same_event(evs[k].r, r)))
                    k++;
                if (k == evs.size()) {
                    printf("SEGMENT START: record %zu (kind %u a %u b %u) matches no event\n",
                           i, r.kind, r.a, r.b);
                    return 1;
                }
                uint64_t gap = 0;
                for (size_t j = at; j < k; j++)
                    gap += !evs[j].ignored;
                if (final && k > complete_from) {
                    uint64_t must = 0;
                    for (size_t j = complete_from; j < k; j++)
                        must += !evs[j].ignored;
                    if (pending != must) {
                        printf("LOST at the final segment's start: %llu counted, %llu missing\n",
                               (unsigned long long)pending, (unsigned long long)must);
                        return 1;
                    }
                } else if (pending > gap) {
                    printf("LOST before the segment's first event: %llu > %llu missing\n",
                           (unsigned long long)pending, (unsigned long long)gap);
                    return 1;
                }
                synced = true;
            } else {
                while (k < evs.size() && (evs[k].ignored || skip > 0)) {
                    if (!evs[k].ignored)
                        skip--;
                    k++;
                }
                if (k == evs.size() || !same_event(evs[k].r, r)) {
                    printf("MISMATCH at record %zu: got kind %u a %u b %u; expected event %zu "
                           "(kind %u a %u b %u) after skipping %llu lost\n",
                           i, r.kind, r.a, r.b, k, k < evs.size() ? evs[k].r.kind : 0,
                           k < evs.size() ? evs[k].r.a : 0, k < evs.size() ? evs[k].r.b : 0,
                           (unsigned long long)pending);
                    return 1;
                }
            }
            const Ev &ev = evs[k];
            if (ev.dropped) {
                printf("DELIVERED an event the front end reported dropped (event %zu)\n", k);
                return 1;
            }
            // time: the presentation edge P = k_r + tick
            uint64_t P = s.k_r + tick;
            int64_t lat = (int64_t)P - (int64_t)ev.e1;
            if (lat < TRC_P_CDC_SYNC + 1) {
                printf("TOO EARLY: event %zu presented %lld trc edges after the first edge "
                       "that follows its CPU edge (minimum %d)\n",
                       k, (long long)lat, TRC_P_CDC_SYNC + 1);
                return 1;
            }
            if (exact && lat != TRC_P_CDC_SYNC + 1) {
                printf("LATENCY: event %zu took %lld trc edges, not %d\n", k, (long long)lat,
                       TRC_P_CDC_SYNC + 1);
                return 1;
            }
            res.lat_min = std::min(res.lat_min, lat);
            res.lat_max = std::max(res.lat_max, lat);
            if (P < trc_t.size()) {
                double lt = (trc_t[P] - ev.t_cpu) / per_trc;
                res.lat_t_min = std::min(res.lat_t_min, lt);
                res.lat_t_max = std::max(res.lat_t_max, lt);
            }
            res.delivered++;
            pending = 0;
            at = k + 1;
        }
        if (final) {
            uint64_t left = 0;
            for (size_t j = std::max(at, complete_from); j < evs.size(); j++)
                left += !evs[j].ignored;
            if (left != pending) {
                printf("SILENT LOSS: %llu events neither delivered nor counted at the end "
                       "(LOST pending %llu)\n", (unsigned long long)left,
                       (unsigned long long)pending);
                return 1;
            }
        }
        *next = at;
        return 0;
    }

    bool exact = false, no_loss = false;
};

int run(Harness &h, size_t n_events, unsigned n_resets, uint64_t min_redo, uint64_t seed,
        const char *wave)
{
    const unsigned out_w = TRC_P_OUT_W, kw = out_w / 8;
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7fffffff));
    ctx->fatalOnError(false);
    auto top = std::make_unique<Vtrc_core_dc>(ctx.get(), "top");
    SimWave<Vtrc_core_dc> tfp;
    if (wave && !tfp.open(ctx.get(), top.get(), wave))
        return 2;
    SimRng &rng = h.rng;

    top->ev_clk = 0;
    top->clk = 0;
    top->ev_valid = 0;
    top->flush = 0;
    top->rst = 1;
    top->m_axis_tready = 0;
    top->eval();

    double t_cpu = h.per_cpu * (double)rng.below(1000) / 1000.0;
    double t_trc = h.per_trc * (double)rng.below(1000) / 1000.0;
    uint64_t trc_edges = 0, seq = 0;
    unsigned rst_left = 4, resets = 0;
    Seg seg;
    std::vector<Seg> done_segs;
    std::vector<size_t> seg_first; // first event index each segment may hold
    size_t complete_from = 0;      // first event after the last reset's end
    bool in_reset = true, await_release = true;
    int rc = 0;

    enum { NORMAL, BURST, STALL, DRAIN } phase = NORMAL;
    uint64_t phase_left = 50;
    double ev_p = 0.3, rdy_p = 1.0;
    bool final_flush = false;
    uint64_t drain_quiet = 0, tlasts = 0, reset_at = UINT64_MAX;
    seg_first.push_back(0);

    for (;;) {
        if (t_cpu <= t_trc) {
            // ---- CPU edge: what it takes, then the next inputs
            top->eval();
            if (top->ev_drop) {
                h.cpu_drops++;
                if (!top->ev_valid) {
                    printf("ev_drop without an event\n");
                    rc = 1;
                    break;
                }
            }
            if (top->ev_valid) {
                Ev &e = h.evs.back();
                e.t_cpu = t_cpu;
                e.e1 = trc_edges;
                e.dropped = top->ev_drop;
                e.ignored = top->ev_rst;
            }
            bool was_rst = top->ev_rst;
            top->ev_clk = 1;
            top->eval();
            tfp.dump(ctx->time());
            top->ev_clk = 0;
            top->eval();
            if (was_rst && !top->ev_rst) {
                // the front end left its reset (the last time, so far: the
                // synchronizers' power-up contents may make a short false
                // one before the first): from here on, nothing may be lost
                // silently
                complete_from = h.evs.size();
                await_release = false;
            }
            if (phase_left == 0 && phase != DRAIN) {
                if (seq >= n_events && resets >= n_resets) {
                    phase = DRAIN;
                } else {
                    // with --exact-latency: nothing may queue (no stalls);
                    // with --no-loss: normal traffic within what both
                    // sides take
                    uint64_t k = h.exact ? 3 + rng.below(7) : h.no_loss ? 9 : rng.below(10);
                    if (k < 2) {
                        phase = BURST;
                        phase_left = 20 + rng.below(400);
                        rdy_p = rng.below(3) == 0 ? 0.0 : (rng.below(2) ? 0.3 : 1.0);
                    } else if (k < 3) {
                        phase = STALL;
                        phase_left = 50 + rng.below(500);
                        ev_p = 0.2 + 0.8 * (double)rng.below(1000) / 1000.0;
                        rdy_p = 0.0;
                    } else {
                        phase = NORMAL;
                        phase_left = 50 + rng.below(1500);
                        ev_p = 0.02 + 0.9 * (double)rng.below(1000) / 1000.0;
                        rdy_p = h.exact ? 1.0 : 0.5 + 0.5 * (double)rng.below(1000) / 1000.0;
                        if (h.no_loss) {
                            // half an event per trc clock on average (random
                            // arrivals: a queue of 16 is then never full)
                            ev_p = std::min(1.0, 0.5 * h.per_cpu / h.per_trc);
                            rdy_p = 1.0;
                        }
                    }
                    if (resets < n_resets && rng.below(4) == 0)
                        reset_at = trc_edges + 10 + rng.below(2000);
                }
            }
            if (phase_left)
                phase_left--;
            bool ev = phase == BURST || ((phase == NORMAL || phase == STALL) && rng.chance(ev_p));
            bool flush = phase == NORMAL && rng.chance(0.001);
            if (phase == DRAIN && !final_flush && !in_reset && !await_release) {
                flush = true;
                final_flush = true;
            }
            top->ev_valid = ev;
            top->flush = flush;
            if (ev) {
                Ev e{};
                e.r = h.make_event(seq++);
                h.evs.push_back(e);
                top->ev_os = e.r.kind == TRC_OS;
                top->ev_info = (uint32_t)(sim_pack(h.p, e.r) & ((1ull << sim_info_w(h.p)) - 1));
            }
            top->eval();
            t_cpu += h.period(h.per_cpu);
        } else {
            // ---- trc edge: sample, clock, next inputs
            top->eval();
            if (top->drop)
                h.core_drops++;
            if (!top->rst && top->m_axis_tvalid && top->m_axis_tready) {
                uint64_t data = top->m_axis_tdata;
                unsigned keep = top->m_axis_tkeep, nkeep = 0;
                while (nkeep < kw && ((keep >> (kw - 1 - nkeep)) & 1))
                    nkeep++;
                for (unsigned j = 0; j < nkeep; j++)
                    seg.bytes.push_back((uint8_t)(data >> (out_w - 8 - 8 * j)));
                if (top->m_axis_tlast) {
                    seg.tl.push_back(seg.bytes.size());
                    tlasts++;
                }
                drain_quiet = 0;
            } else if (phase == DRAIN && final_flush) {
                drain_quiet++;
            }
            if (top->rst)
                seg.k_r = trc_edges;
            h.trc_t.push_back(t_trc);
            top->clk = 1;
            top->eval();
            tfp.dump(ctx->time());
            top->clk = 0;
            top->eval();
            trc_edges++;
            // next inputs
            if (reset_at == trc_edges && phase != DRAIN) {
                // a reset in mid-stream: close this segment
                done_segs.push_back(seg);
                seg = Seg();
                seg_first.push_back(h.evs.size());
                rst_left = 1 + (unsigned)rng.below(3);
                reset_at = UINT64_MAX;
                resets++;
                await_release = true;
            }
            in_reset = rst_left > 0;
            top->rst = rst_left > 0;
            if (rst_left)
                rst_left--;
            top->m_axis_tready = phase == DRAIN ? 1 : rng.chance(rdy_p);
            top->eval();
            t_trc += h.period(h.per_trc);
            if (phase == DRAIN && final_flush && tlasts && drain_quiet > 200)
                break;
            if (phase == DRAIN && drain_quiet > 200000) {
                printf("TIMEOUT: no final END\n");
                rc = 1;
                break;
            }
        }
        ctx->timeInc(1);
        if (ctx->gotError()) {
            printf("ASSERTION failed in the RTL (trc edge %llu)\n", (unsigned long long)trc_edges);
            rc = 1;
            break;
        }
    }
    top->final();
    tfp.close();
    if (rc)
        return rc;

    Result res;
    size_t next = 0;
    // An event taken before a reset began cannot come out after it (the
    // reset empties the crossing FIFO): segment i starts at seg_first[i].
    for (size_t i = 0; i < done_segs.size() && rc == 0; i++)
        rc = h.check(done_segs[i], std::max(next, seg_first[i]), false, 0, &next, res);
    if (rc == 0)
        rc = h.check(seg, std::max(next, seg_first.back()), true, complete_from, &next, res);
    if (rc)
        return rc;
    uint64_t ignored = 0, dropped = 0;
    for (const Ev &e : h.evs) {
        ignored += e.ignored;
        dropped += e.dropped;
    }
    // LOST records trc_core dropped count one each there; the rest of their
    // count went again: redo = drops seen - LOST total (without resets)
    long long redo = (long long)(h.cpu_drops + h.core_drops) - (long long)res.lost_sum;
    printf("clocks cpu:trc %g:%g (periods %.0f:%.0f) events %zu delivered %llu crossing-drops %llu "
           "core-drops %llu lost-records %llu lost-total %llu ignored-in-reset %llu resets %u "
           "LOST-redo %lld latency trc-edges %lld..%lld (%.2f..%.2f trc periods after the "
           "CPU edge) bytes %zu seed %llu\n",
           h.per_trc / std::min(h.per_cpu, h.per_trc), h.per_cpu / std::min(h.per_cpu, h.per_trc),
           h.per_cpu, h.per_trc, h.evs.size(), (unsigned long long)res.delivered,
           (unsigned long long)dropped, (unsigned long long)h.core_drops,
           (unsigned long long)res.lost_recs, (unsigned long long)res.lost_sum,
           (unsigned long long)ignored, resets, n_resets ? -1ll : redo,
           (long long)res.lat_min, (long long)res.lat_max, res.lat_t_min, res.lat_t_max,
           seg.bytes.size(), (unsigned long long)seed);
    uint64_t late_drops = 0; // dropped after the front end left its reset
    for (size_t j = complete_from; j < h.evs.size(); j++)
        late_drops += h.evs[j].dropped;
    if (h.no_loss && (res.lost_sum || late_drops || h.core_drops)) {
        printf("LOSS in a run within capacity\n");
        return 1;
    }
    if (!n_resets && redo < (long long)min_redo) {
        printf("LOST-redo %lld below the %llu this run must reach\n", redo,
               (unsigned long long)min_redo);
        return 1;
    }
    if (!n_resets && redo < 0) {
        printf("LOST total above the drops\n");
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    size_t events = 20000;
    uint64_t seed = 1, min_redo = 0;
    double rc_cpu = 1, rc_trc = 1, jitter = 0.05;
    unsigned resets = 0;
    bool exact = false, no_loss = false;
    const char *wave = nullptr;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--exact-latency") {
            exact = true;
            continue;
        }
        if (a == "--no-loss") {
            no_loss = true;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!v) {
            fprintf(stderr, "usage: trc_sim_cdc [--ratio C:T] [--events N] [--seed S] "
                            "[--jitter F] [--resets N] [--exact-latency] [--min-redo N] "
                            "[--wave F.fst]\n");
            return 2;
        }
        i++;
        if (a == "--ratio") {
            if (sscanf(v, "%lf:%lf", &rc_cpu, &rc_trc) != 2 || rc_cpu <= 0 || rc_trc <= 0) {
                fprintf(stderr, "trc_sim_cdc: --ratio wants C:T, e.g. 1:3\n");
                return 2;
            }
        } else if (a == "--events") {
            events = strtoull(v, nullptr, 0);
        } else if (a == "--seed") {
            seed = strtoull(v, nullptr, 0);
        } else if (a == "--jitter") {
            jitter = strtod(v, nullptr);
        } else if (a == "--resets") {
            resets = (unsigned)strtoul(v, nullptr, 0);
        } else if (a == "--min-redo") {
            min_redo = strtoull(v, nullptr, 0);
        } else if (a == "--wave") {
            wave = v;
        } else {
            fprintf(stderr, "trc_sim_cdc: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    Harness h(seed, rc_cpu, rc_trc, jitter);
    h.exact = exact;
    h.no_loss = no_loss;
    return run(h, events, resets, min_redo, seed, wave);
}
