// trc_sim_mp.cpp - Verilator harness: trc_mpcore, NCPU CPUs into one stream.
//
// Every CPU gets random events in phases: normal traffic with output stalls,
// saturation (an event on every CPU every clock, the output always ready:
// the total rate must stay one record per clock and no CPU may starve),
// overflow storms (every CPU every clock while the output trickles), idle
// gaps longer than 2^NT ticks, and the final flush. Markers and control
// words (start/stop of one CPU or all) come as stimulus events on random
// ports and as pin pulses; SYNC records come as events on random ports (each
// returns every CPU's dictionaries, every bank, to the reset state and makes
// CPU 0 current, and ends a tlast word). With --probes, directed probes come
// first: a broadcast waiting for one CPU made ready in the clock a TIME_EXT
// falls due on it (probe_stimulus); with --wprobes, then the output made
// ready around the clock a whole TIME_EXT or LOST record becomes pending on
// CPU 0, so that it is written while its count's step up still waits in
// trc_wholes. Checks:
//   - every byte and tlast equals the C model's multi-CPU encoder fed with
//     the records the arbiter handed to the coder (their CPU and raw record);
//   - the stream decoded with the model gives, per CPU, exactly the events
//     that CPU presented while its tracing was on, each at its exact absolute
//     time, and LOST records that cover exactly the events it lost (dropped,
//     or the clock a marker took, or a request the core could not take);
//   - every marker is in every CPU's trace, at one time, with one value;
//     control records go to the CPUs their word names and switch their
//     tracing there, and nowhere else.
// `trc_sim_mp --help` prints the options.
#include <memory>
#include <utility>

#include "Vtrc_sim_mp.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_core_check.h"
#include "trc_sim_mp_check.h"
#include "trc_sim_mp_opts.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

namespace {

const unsigned NCPU = TRC_P_NCPU;

class Bench : SimBench<Vtrc_sim_mp>, MpRecord {
  public:
    explicit Bench(const Opts &o)
        : o_(o), iw_(sim_info_w(p_)), axis_(TRC_P_OUT_W), rng_(o.seed)
    {
        min_syncs_ = o.min_syncs;
        min_due_ = o.probes ? o.min_due : 0;
        min_both_ = o.min_both;
    }

    bool setup()
    {
        if (trc_mp_encoder_init(model_.get(), &p_) != TRC_OK) {
            printf("bad parameters for the model\n");
            return false;
        }
        return open_top(o_.seed, o_.wave);
    }

    int run()
    {
        reset();
        int rc = clock_until_done([this](bool &done) { return cycle(done); });
        return rc ? rc : check(o_.seed, o_.min_rate);
    }

  private:
    enum Phase { NORMAL, SAT, STORM, IDLE, PROBE, DRAIN };
    enum ProbeStep { PR_QUIET, PR_FILL, PR_WAIT, PR_DRAIN };

    const Opts &o_;
    const unsigned iw_;
    const uint64_t pre_ = TRC_P_PRESCALE;
    static constexpr uint64_t PROBE_LEAD = 4; // request clocks before the due one
    SimAxisOut axis_;
    SimRng rng_;

    // phases
    Phase phase_ = NORMAL;
    uint64_t phase_left_ = 200, phase_len_ = 200, drain_quiet_ = 0, drain_clocks_ = 0;
    static constexpr uint64_t DRAIN_MAX = 1000000;
    unsigned idles_ = 0, storms_ = 0, sats_ = 0;
    uint64_t storm_period_ = 1, storm_on_ = 1;
    double ev_p_ = 0.2;
    bool final_flush_ = false;
    // probes: step, its first clock, CPU 0's last record written, the
    // clock of the control request
    ProbeStep pr_st_ = PR_QUIET;
    uint64_t pr_since_ = 0, probe_lw_ = 0, pr_req_at_ = 0;
    // the inputs of the last clock: what the core works on now
    bool prev_ev_[NCPU] = {}, prev_req_[NCPU] = {};
    trc_record prev_rec_[NCPU] = {};
    uint64_t prev_t_ = 0;

    void reset()
    {
        top_->rst = 1;
        top_->ev_valid = 0;
        top_->flush = 0;
        top_->mark = 0;
        top_->start = 0;
        top_->stop = 0;
        top_->m_axis_tready = 0;
        for (int i = 0; i < 4; i++) {
            half(0);
            half(1);
        }
        for (unsigned k = 0; k < NCPU; k++)
            tracing_[k] = true; // START = 1
    }

    trc_record random_event()
    {
        static const uint32_t fpool[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55};
        static const uint32_t vpool[] = {0, 1, 7, 100, 1000, 4242};
        trc_record r;
        r.delta = 0;
        if (rng_.below(10) < 7) {
            r.kind = rng_.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = rng_.below(4) ? fpool[rng_.below(10)] : (uint32_t)rng_.next();
            r.a &= (uint32_t)((1ull << p_.fid_w) - 1);
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            // user types below the control and marker types
            r.a = rng_.below(4) ? 1 + (uint32_t)rng_.below(4) : (uint32_t)rng_.below(t_ctl_);
            r.b = rng_.below(3) ? vpool[rng_.below(6)] : (uint32_t)rng_.next();
            r.b &= (uint32_t)((1ull << p_.val_w) - 1);
        }
        return r;
    }

    // A control word: bit 0 start, bit 1 all CPUs, bits 2.. the CPU. Starts
    // are likelier while most CPUs are off.
    uint32_t random_ctl()
    {
        unsigned off = 0;
        for (unsigned k = 0; k < NCPU; k++)
            off += !tracing_[k];
        bool on = rng_.below(NCPU + 1) < off + 1;
        bool all = rng_.below(4) == 0;
        return (uint32_t)((rng_.below(NCPU) << 2) | (all << 1) | on);
    }

    void next_phase()
    {
        const uint64_t maxd = (1ull << p_.nt) - 1;
        if (probes_ < o_.probes || wprobes_ < o_.wprobes) {
            phase_ = PROBE;
            phase_left_ = UINT64_MAX; // the probe ends itself
            pr_st_ = PR_QUIET;
            pr_since_ = cycle_;
            return;
        }
        if (events_ >= o_.events && idles_ >= o_.idles && storms_ >= o_.storms &&
            sats_ >= o_.sats) {
            phase_ = DRAIN;
            phase_left_ = UINT64_MAX;
            return;
        }
        uint64_t k = rng_.below(10);
        if (idles_ < o_.idles && k < 2) {
            phase_ = IDLE;
            idles_++;
            phase_left_ = (maxd + 1) * pre_ * (1 + rng_.below(2)) + rng_.below(maxd * pre_);
        } else if (sats_ < o_.sats && k < 4) {
            phase_ = SAT;
            sats_++;
            phase_left_ = 3000 + rng_.below(3000);
        } else if (storms_ < o_.storms && k < 6) {
            phase_ = STORM;
            storms_++;
            phase_left_ = 1000 + rng_.below(4000);
            storm_period_ = 2 + rng_.below(30);
            storm_on_ = rng_.below(4) == 0 ? 0 : 1 + rng_.below(storm_period_ / 2 + 1);
        } else {
            phase_ = NORMAL;
            phase_left_ = 100 + rng_.below(2000);
            ev_p_ = 0.01 + 0.4 * (double)rng_.below(1000) / 1000.0;
        }
        phase_len_ = phase_left_;
    }

    // Falling edge: this clock's inputs onto the ports, then what the core
    // did with the last clock's (it runs a clock behind its ports, the time
    // base too): a broadcast first, then each CPU's own, then the coder's.
    int drive()
    {
        if (phase_left_ == 0)
            next_phase();
        phase_left_--;
        bool ev[NCPU], req[NCPU];
        trc_record rec[NCPU];
        if (phase_ == PROBE)
            probe_stimulus(ev, req, rec);
        else
            stimulus(ev, req, rec);
        drive_ports(ev, rec);
        top_->eval();

        const uint64_t t = prev_t_;
        prev_t_ = cycle_ / pre_;
        for (unsigned k = 0; k < NCPU; k++) {
            std::swap(ev[k], prev_ev_[k]);
            std::swap(req[k], prev_req_[k]);
            std::swap(rec[k], prev_rec_[k]);
        }
        uint64_t put = top_->bc_put;
        trc_record b;
        b.delta = 0;
        b.kind = TRC_OS;
        b.a = (uint32_t)(top_->bc_info >> p_.val_w) & ((1u << p_.type_w) - 1);
        b.b = (uint32_t)(top_->bc_info & ((1ull << p_.val_w) - 1));
        if (put && check_broadcast(put, b))
            return 1;
        if (check_cpus(t, put, b, top_->tracing, top_->drop, ev, req, rec))
            return 1;
        bool measured = phase_ == SAT && phase_left_ < phase_len_ - 200; // FIFOs filled
        if (take_record(top_->tap_valid, top_->tap_cpu, sim_unpack(p_, top_->tap_rec), measured))
            return 1;
        due_cases_ += top_->due_case;
        both_cases_ += top_->whole_both;
        if (top_->ts_wr & 1)
            probe_lw_ = cycle_;
        return 0;
    }

    // This clock's events and requests of every CPU (random, by phase), and
    // the pins and the output readiness.
    void stimulus(bool ev[], bool req[], trc_record rec[])
    {
        bool all_ev = phase_ == SAT || phase_ == STORM;
        // markers and controls spread over the run (and the budget)
        double mark_p = (double)o_.marks / (double)(o_.events + 1) / 2;
        double ctl_p = (double)o_.ctls / (double)(o_.events + 1) / 2;
        double sync_p = (double)o_.syncs / (double)(o_.events + 1) / 2;
        for (unsigned k = 0; k < NCPU; k++) {
            ev[k] = phase_ != IDLE && phase_ != DRAIN && (all_ev || rng_.chance(ev_p_));
            req[k] = false;
            rec[k] = random_event();
            bool may = phase_ == NORMAL || phase_ == STORM; // not while measuring
            if (may && ev[k] && mark_req_ + mark_pins_ < o_.marks && rng_.chance(mark_p)) {
                rec[k] = {0, t_mark_, (uint32_t)rng_.below(1u << (p_.val_w < 12 ? p_.val_w : 12)),
                          TRC_OS};
                req[k] = true;
                mark_req_++;
            } else if (may && ev[k] && ctl_req_ + ctl_pins_ < o_.ctls && rng_.chance(ctl_p)) {
                rec[k] = {0, t_ctl_, random_ctl(), TRC_OS};
                req[k] = true;
                ctl_req_++;
            } else if (may && ev[k] && sync_req_ < o_.syncs && rng_.chance(sync_p)) {
                rec[k] = {0, TRC_TYPE_SYNC(&p_), 0, TRC_OS};
                sync_req_++;
            }
        }
        bool pin_mark = phase_ == NORMAL && mark_req_ + mark_pins_ < o_.marks &&
                        rng_.chance(mark_p / 4);
        bool pin_ctl = phase_ == NORMAL && ctl_req_ + ctl_pins_ < o_.ctls && rng_.chance(ctl_p / 4);
        bool pin_start = pin_ctl && rng_.below(2);
        mark_pins_ += pin_mark;
        ctl_pins_ += pin_ctl;
        top_->mark = pin_mark;
        top_->mark_value = (uint32_t)rng_.below(1u << (p_.val_w < 12 ? p_.val_w : 12));
        // a saturation starts with every CPU tracing
        top_->start = pin_start || (phase_ == SAT && phase_left_ + 1 == phase_len_);
        top_->stop = pin_ctl && !pin_start;
        bool flush = phase_ == DRAIN && !final_flush_;
        final_flush_ = final_flush_ || flush;
        top_->flush = flush;
        if (phase_ == DRAIN || phase_ == SAT)
            top_->m_axis_tready = 1;
        else if (phase_ == STORM)
            top_->m_axis_tready = cycle_ % storm_period_ < storm_on_;
        else
            top_->m_axis_tready = !rng_.chance(o_.stall_out);
    }

    // A probe of the broadcast's ready rule (docs/rtl.md "Markers, start/stop
    // and drain"): behind a stalled output, CPU 0's FIFO is filled to one
    // free entry, then CPU 0 is quiet until a TIME_EXT falls due, and a
    // control word for CPU 0 alone comes on the last port around that clock
    // (each probe at another offset), so that the broadcast, waiting for
    // CPU 0 only, would be ready in the clock the TIME_EXT falls due.
    // A whole probe (after the others): CPU 0's FIFO filled, then CPU 0
    // quiet until its TIME_EXT is a whole one that waits (even probes), or
    // an event on CPU 0 every clock, dropped, until 2^VAL_W of them make a
    // whole LOST record wait (odd ones); the output ready from around that
    // clock (offsets -8..+7), so that a record leaves CPU 0's FIFO just
    // before the clock trc_wholes serves CPU 0.
    void probe_stimulus(bool ev[], bool req[], trc_record rec[])
    {
        const bool whole = probes_ >= o_.probes, lost = whole && wprobes_ % 2;
        const uint64_t off = (wprobes_ / 2) % 16;
        const uint64_t depth = 1ull << TRC_P_FIFO_AW, in = cycle_ - pr_since_;
        for (unsigned k = 0; k < NCPU; k++) {
            ev[k] = req[k] = false;
            rec[k] = random_event();
        }
        top_->mark = top_->stop = top_->flush = 0;
        top_->start = pr_st_ == PR_QUIET && in == 0; // every CPU traces
        top_->m_axis_tready = pr_st_ == PR_QUIET || pr_st_ == PR_DRAIN ||
                              (whole && pr_st_ == PR_WAIT && cycle_ >= pr_req_at_);
        if (pr_st_ == PR_QUIET && in >= 200) {
            pr_st_ = PR_FILL;
            pr_since_ = cycle_;
        } else if (pr_st_ == PR_FILL && in % 8 == 0) {
            // the last event 8 clocks ago has settled; the FIFO is full
            // (a TIME_EXT came on top) or CPU 0 is off: this probe misses.
            // (A whole probe fills the last entry too.)
            bool filled = top_->occ0 == depth || (!whole && top_->occ0 + 1 == depth);
            if (filled || in > 4000) {
                pr_st_ = PR_WAIT;
                pr_since_ = cycle_;
                pr_req_at_ = probe_lw_ + ((1ull << p_.nt) - 1) * pre_ + probes_ % 8 - PROBE_LEAD;
                if (whole) // the whole one pends 2^NT ticks after the last record,
                           // or with the 2^VAL_W-th drop
                    pr_req_at_ = (lost ? cycle_ + (1ull << p_.val_w) : probe_lw_ +
                                 (1ull << p_.nt) * pre_) + off - 8;
            } else {
                ev[0] = true;
            }
        } else if (pr_st_ == PR_WAIT && lost && cycle_ < pr_req_at_ + 16) {
            ev[0] = true;
        } else if (pr_st_ == PR_WAIT && cycle_ == pr_req_at_ && !whole) {
            unsigned k = NCPU - 1;
            ev[k] = req[k] = true;
            rec[k] = {0, t_ctl_, 1, TRC_OS}; // start, CPU 0 alone
            ctl_req_++;
        } else if (pr_st_ == PR_WAIT && cycle_ > pr_req_at_ + 64) {
            pr_st_ = PR_DRAIN;
            pr_since_ = cycle_;
        } else if (pr_st_ == PR_DRAIN && in >= 400) {
            if (whole)
                wprobes_++;
            else
                probes_++;
            phase_left_ = 0;
        }
    }

    // Every CPU's event onto its port.
    void drive_ports(const bool ev[], const trc_record rec[])
    {
        top_->rst = 0;
        for (unsigned k = 0; k < NCPU; k++) {
            put_bits(top_->ev_info, k * iw_, iw_, sim_pack(p_, rec[k]) & ((1ull << iw_) - 1));
            put_bits(top_->ev_valid, k, 1, ev[k]);
            put_bits(top_->ev_os, k, 1, rec[k].kind == TRC_OS);
        }
    }

    int cycle(bool &done)
    {
        half(0);
        if (drive())
            return 1;
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            size_t at = bytes_.size();
            if (!take_beat(axis_, bytes_, tl_, tlasts_))
                return 1;
            size_t i = sim_first_diff(bytes_, at, want_);
            if (i < bytes_.size()) {
                printf("MISMATCH at byte offset %zu (record %llu into the coder): RTL "
                       "0x%02x, model %s\n",
                       i, (unsigned long long)(i < want_rec_.size() ? want_rec_[i] : taps_),
                       bytes_[i], i < want_.size() ? "differs" : "has no byte yet");
                return 1;
            }
            drain_quiet_ = 0;
        } else if (phase_ == DRAIN) {
            drain_quiet_++;
        }
        // (a core that keeps writing, say TIME_EXTs of a count gone wrong,
        // fails here rather than filling the memory)
        if (phase_ == DRAIN && ++drain_clocks_ > DRAIN_MAX) {
            printf("TIMEOUT: the output still busy after %llu clocks of drain\n",
                   (unsigned long long)DRAIN_MAX);
            return 1;
        }
        // every CPU's END is out when the output has been quiet a while (the
        // SYNCs, all before the drain, end words with tlast too)
        return end_clock(cycle_, phase_ == DRAIN, drain_quiet_, 200,
                         tlasts_ >= NCPU + sync_taps_, done);
    }
};

} // namespace

int main(int argc, char **argv)
{
    return sim_main<Opts, Bench>(argc, argv, "trc_sim_mp", opt_table);
}
