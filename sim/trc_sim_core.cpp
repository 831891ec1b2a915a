// trc_sim_core.cpp - Verilator harness: trc_core driven with random events.
//
// Events arrive at random times in phases: normal traffic, overflow bursts
// (every cycle while the output is blocked), long idle gaps (> 2^NT ticks,
// sometimes with the output blocked so TIME_EXT must wait for room), and
// mid-stream flushes. The output stream is decoded with the C model; every
// delivered event must come back with its exact absolute time (in ticks since
// reset), and every LOST count must equal the events the core dropped there.
//
// Overflow storms (thousands of cycles with an event every cycle
// while the output trickles, so the FIFO sits at full and LOST records
// interleave with drops; at VAL_W = 8 a count above 255 is split over several
// LOST records), random resets of trc_core in mid-stream (--resets N: each
// segment between resets is checked on its own: the bytes up to its last
// tlast decode cleanly from the reset state and every event in them is
// exact; the events still inside the core at the reset are counted as
// reset-lost), and with SYNC_EVERY > 0, frames: each ends with SYNC and
// tlast, holds exactly SYNC_EVERY trace records, and decodes on its own (a
// fresh decoder) to the very same records, deltas included.
// `trc_sim_core --help` prints the options; sim/trc_sim_core_check.h checks.
#include <memory>

#include "Vtrc_core.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_core_check.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

namespace {

struct Opts {
    uint64_t events = 20000, idles = 3, seed = 1, resets = 0, storms = 0;
    const char *wave = nullptr;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--events", SimOpt::UINT, &o.events, "N  events to present (20000)"},
        {"--idles", SimOpt::UINT, &o.idles, "N  idle gaps longer than 2^NT ticks (3)"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds events, phases and initial state"},
        {"--resets", SimOpt::UINT, &o.resets, "N  resets in mid-stream"},
        {"--storms", SimOpt::UINT, &o.storms, "N  overflow storms"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
    };
}

// ---- drive and check: trc_core in phases of traffic, one Bench per run

class Bench : SimBench<Vtrc_core> {
  public:
    Bench(const Opts &o) : o_(o), p_(sim_params()), axis_(TRC_P_OUT_W), rng_(o.seed) {}

    bool setup() { return open_top(o_.seed, o_.wave); }

    int run()
    {
        reset();
        int rc = clock_until_done([this](bool &done) { return cycle(done); });
        if (rc)
            return rc;
        rc = check_segment(p_, evs_, bytes_, tl_, drops_, true, tot_);
        printf("events %llu delivered %llu dropped %llu lost-records %llu time_ext %llu "
               "end %llu frames %llu resets %u reset-lost %llu storms %u bytes %llu "
               "seed %llu\n",
               (unsigned long long)tot_.events, (unsigned long long)tot_.delivered,
               (unsigned long long)tot_.drops, (unsigned long long)tot_.lost_recs,
               (unsigned long long)tot_.time_ext, (unsigned long long)tot_.end,
               (unsigned long long)tot_.frames, resets_, (unsigned long long)tot_.reset_lost,
               storms_, (unsigned long long)tot_.bytes, (unsigned long long)o_.seed);
        return rc;
    }

  private:
    enum Phase { NORMAL, BURST, IDLE, STORM, DRAIN };

    const Opts &o_;
    const trc_params p_;
    const uint64_t pre_ = TRC_P_PRESCALE;
    SimAxisOut axis_;
    SimRng rng_;

    // this segment (since the last reset) and the totals
    std::vector<Ev> evs_;
    std::vector<uint8_t> bytes_;
    std::vector<size_t> tl_; // byte counts at each tlast
    uint64_t drops_ = 0, cycle_ = 0, tlasts_ = 0;
    Totals tot_;
    size_t events_total_ = 0;
    unsigned resets_ = 0, storms_ = 0, rst_left_ = 0, idles_ = 0;
    uint64_t reset_in_ = UINT64_MAX, storm_period_ = 1, storm_on_ = 1;
    uint64_t drain_quiet_ = 0;
    bool final_flush_ = false;

    // the phase machine
    Phase phase_ = NORMAL;
    uint64_t phase_left_ = 100;
    double ev_p_ = 0.3, rdy_p_ = 1.0;

    void reset()
    {
        top_->rst = 1;
        top_->ev_valid = 0;
        top_->flush = 0;
        top_->m_axis_tready = 0;
        for (int i = 0; i < 4; i++) {
            top_->clk = 0;
            top_->eval();
            ctx_->timeInc(1);
            top_->clk = 1;
            top_->eval();
            ctx_->timeInc(1);
        }
    }

    trc_record random_event()
    {
        static const uint32_t fpool[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55};
        static const uint32_t tpool[] = {1, 2, 3, 4};
        static const uint32_t vpool[] = {0, 1, 7, 100, 1000, 4242};
        trc_record r;
        r.delta = 0;
        uint64_t k = rng_.below(10);
        if (k < 7) {
            r.kind = rng_.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = rng_.below(4) ? fpool[rng_.below(10)] : (uint32_t)rng_.next();
            r.a &= (uint32_t)((1ull << p_.fid_w) - 1);
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            r.a = rng_.below(4) ? tpool[rng_.below(4)]
                                : (uint32_t)rng_.below(TRC_TYPE_LOST(&p_)); // user types
            r.a &= (1u << p_.type_w) - 1;
            r.b = rng_.below(3) ? vpool[rng_.below(6)] : (uint32_t)rng_.next();
            r.b &= (uint32_t)((1ull << p_.val_w) - 1);
        }
        return r;
    }

    // Picks the next phase (or the final drain once everything asked for
    // has happened), with a reset somewhere inside it until all are used.
    void next_phase()
    {
        const uint64_t maxd = (1ull << p_.nt) - 1;
        if (events_total_ + evs_.size() >= o_.events && idles_ >= o_.idles &&
            storms_ >= o_.storms && resets_ >= o_.resets) {
            phase_ = DRAIN;
            phase_left_ = UINT64_MAX;
            return;
        }
        uint64_t k = rng_.below(10);
        if (idles_ < o_.idles && k < 2) {
            phase_ = IDLE;
            idles_++;
            // > 2^NT ticks; sometimes with the output blocked throughout
            phase_left_ = (maxd + 1) * pre_ * (1 + rng_.below(3)) + rng_.below(maxd * pre_);
            rdy_p_ = rng_.below(3) == 0 ? 0.0 : 0.7;
        } else if (storms_ < o_.storms && k < 4) {
            // Overflow storm: an event every cycle for thousands of cycles,
            // the output ready storm_on of every storm_period cycles (never,
            // for some).
            phase_ = STORM;
            storms_++;
            phase_left_ = 2000 + rng_.below(8000);
            storm_period_ = 2 + rng_.below(60);
            storm_on_ = rng_.below(4) == 0 ? 0 : 1 + rng_.below(storm_period_ / 2 + 1);
        } else if (k < 3) {
            phase_ = BURST;
            phase_left_ = 20 + rng_.below(300);
            rdy_p_ = rng_.below(2) ? 0.0 : 0.3;
        } else {
            phase_ = NORMAL;
            phase_left_ = 50 + rng_.below(2000);
            ev_p_ = 0.02 + 0.5 * (double)rng_.below(1000) / 1000.0;
            rdy_p_ = 0.5 + 0.5 * (double)rng_.below(1000) / 1000.0;
        }
        if (resets_ < o_.resets && phase_ != IDLE && rng_.below(3) == 0)
            reset_in_ = rng_.below(phase_left_);
    }

    // The segment so far is checked, then a reset of 1..3 cycles begins.
    int start_reset()
    {
        int rc = check_segment(p_, evs_, bytes_, tl_, drops_, false, tot_);
        if (rc)
            return rc;
        events_total_ += evs_.size();
        evs_.clear();
        bytes_.clear();
        tl_.clear();
        drops_ = 0;
        resets_++;
        reset_in_ = UINT64_MAX;
        rst_left_ = 1 + (unsigned)rng_.below(3);
        return 0;
    }

    // A cycle in reset: no events, the output is ignored.
    int reset_cycle()
    {
        top_->rst = 1;
        top_->ev_valid = 0;
        top_->flush = 0;
        top_->m_axis_tready = rng_.chance(0.5);
        top_->eval();
        half(1);
        if (--rst_left_ == 0)
            cycle_ = 0; // time restarts: the next cycle is c = 0
        if (ctx_->gotError()) {
            printf("ASSERTION failed in the RTL during a reset\n");
            return 1;
        }
        return 0;
    }

    // Falling edge: this cycle's event, flush and output readiness.
    bool drive()
    {
        if (phase_left_ == 0)
            next_phase();
        phase_left_--;
        bool ev = phase_ == BURST || phase_ == STORM || (phase_ == NORMAL && rng_.chance(ev_p_));
        bool flush = phase_ == NORMAL && rng_.chance(0.0005);
        if (phase_ == DRAIN && !final_flush_)
            flush = final_flush_ = true;
        trc_record r = random_event();
        top_->rst = 0;
        top_->ev_valid = ev;
        top_->ev_os = r.kind == TRC_OS;
        top_->ev_info = (uint32_t)(sim_pack(p_, r) & ((1ull << sim_info_w(p_)) - 1));
        top_->flush = flush;
        if (phase_ == DRAIN)
            top_->m_axis_tready = 1;
        else if (phase_ == STORM)
            top_->m_axis_tready = cycle_ % storm_period_ < storm_on_;
        else
            top_->m_axis_tready = rng_.chance(rdy_p_);
        top_->eval();
        if (ev) {
            Ev e;
            e.t = cycle_ / pre_;
            e.r = r;
            e.dropped = top_->drop;
            evs_.push_back(e);
        }
        return ev;
    }

    // One clock; done when the stream has ended. 0 or 1.
    int cycle(bool &done)
    {
        half(0);
        if (reset_in_ != UINT64_MAX && reset_in_-- == 0 && start_reset())
            return 1;
        if (rst_left_)
            return reset_cycle();
        bool ev = drive();
        if (top_->drop) {
            drops_++;
            if (!ev) {
                printf("DROP without an event at cycle %llu\n", (unsigned long long)cycle_);
                return 1;
            }
        }
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            if (!take_beat(axis_, bytes_, tl_, tlasts_))
                return 1;
            drain_quiet_ = 0;
        } else if (phase_ == DRAIN) {
            drain_quiet_++;
        }
        // Idle TIME_EXT words may trail the final END; 64 quiet cycles end it.
        return end_clock(cycle_, phase_ == DRAIN, drain_quiet_, 64, tlasts_ != 0, done);
    }
};

} // namespace

int main(int argc, char **argv)
{
    return sim_main<Opts, Bench>(argc, argv, "trc_sim_core", opt_table);
}
