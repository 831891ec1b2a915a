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
// `trc_sim_cdc --help` prints the options.
// --no-loss: traffic within what both sides take (0.5 events per trc clock,
// no output stalls): nothing may be dropped at all.
#include <algorithm>
#include <cmath>
#include <memory>

#include "Vtrc_core_dc.h"
#include "verilated.h"

#include "trc_sim_bench.h"
#include "trc_sim_cdc_check.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

static_assert(TRC_P_PRESCALE == 1, "the time check needs one tick per trc clock");

namespace {

struct Opts {
    const char *ratio = "1:1", *wave = nullptr;
    uint64_t events = 20000, seed = 1, min_redo = 0, resets = 0;
    double jitter = 0.05;
    bool exact = false, no_loss = false;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--ratio", SimOpt::STR, &o.ratio, "C:T  clock frequencies CPU:trc (1:1)"},
        {"--events", SimOpt::UINT, &o.events, "N  events to present (20000)"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds clocks, events and initial state"},
        {"--jitter", SimOpt::DOUBLE, &o.jitter, "F  random jitter of every period (0.05)"},
        {"--resets", SimOpt::UINT, &o.resets, "N  resets of trc's side in mid-stream"},
        {"--exact-latency", SimOpt::FLAG, &o.exact, "   nothing queues: latency exactly SYNC+1"},
        {"--no-loss", SimOpt::FLAG, &o.no_loss, "   traffic within capacity: nothing lost"},
        {"--min-redo", SimOpt::UINT, &o.min_redo, "N  fail unless LOST-redo reaches N"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
    };
}

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
    Opts o;
    std::vector<const char *> pos;
    double rc_cpu = 1, rc_trc = 1;
    if (!sim_options(argc, argv, "trc_sim_cdc", "", opt_table(o), pos, 0, 0))
        return 2;
    if (sscanf(o.ratio, "%lf:%lf", &rc_cpu, &rc_trc) != 2 || rc_cpu <= 0 || rc_trc <= 0) {
        fprintf(stderr, "trc_sim_cdc: --ratio wants C:T, e.g. 1:3\n");
        return 2;
    }
    Harness h(o.seed, rc_cpu, rc_trc, o.jitter);
    h.exact = o.exact;
    h.no_loss = o.no_loss;
    return run(h, o.events, (unsigned)o.resets, o.min_redo, o.seed, o.wave);
}
