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
// CPU 0 current, and ends a tlast word). Checks:
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
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

namespace {

const unsigned NCPU = TRC_P_NCPU;

struct Opts {
    uint64_t events = 20000, idles = 2, seed = 1, storms = 2, sats = 2, marks = 20, ctls = 12;
    uint64_t syncs = 12, min_syncs = 0;
    double stall_out = 0.2, min_rate = 0.0;
    const char *wave = nullptr;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--events", SimOpt::UINT, &o.events, "N  events to present, all CPUs (20000)"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds events, phases and initial state"},
        {"--idles", SimOpt::UINT, &o.idles, "N  idle gaps longer than 2^NT ticks (2)"},
        {"--storms", SimOpt::UINT, &o.storms, "N  overflow storms: all CPUs, output trickling"},
        {"--sats", SimOpt::UINT, &o.sats, "N  saturations: all CPUs, output ready (2)"},
        {"--marks", SimOpt::UINT, &o.marks, "N  marker requests, ports and pin (20)"},
        {"--ctls", SimOpt::UINT, &o.ctls, "N  start/stop requests, ports and pins (12)"},
        {"--syncs", SimOpt::UINT, &o.syncs, "N  SYNC events on random ports (12)"},
        {"--min-syncs", SimOpt::UINT, &o.min_syncs, "N  fail if fewer SYNCs reach the coder (0)"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  output stall probability (0.2)"},
        {"--min-rate", SimOpt::DOUBLE, &o.min_rate,
         "R  fail if records/clock under saturation ends below R"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
    };
}

class Bench : SimBench<Vtrc_sim_mp>, MpRecord {
  public:
    explicit Bench(const Opts &o)
        : o_(o), iw_(sim_info_w(p_)), axis_(TRC_P_OUT_W), rng_(o.seed)
    {
        min_syncs_ = o.min_syncs;
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
    enum Phase { NORMAL, SAT, STORM, IDLE, DRAIN };

    const Opts &o_;
    const unsigned iw_;
    const uint64_t pre_ = TRC_P_PRESCALE;
    const unsigned t_ctl_ = (1u << TRC_P_TYPE_W) - 10;
    SimAxisOut axis_;
    SimRng rng_;

    bool tracing_[NCPU];
    // phases
    Phase phase_ = NORMAL;
    uint64_t phase_left_ = 200, phase_len_ = 200, drain_quiet_ = 0;
    unsigned idles_ = 0, storms_ = 0, sats_ = 0;
    uint64_t storm_period_ = 1, storm_on_ = 1;
    double ev_p_ = 0.2;
    bool final_flush_ = false;
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

    // Falling edge: every CPU's event, the pins and the output readiness;
    // then what the core does with them in this clock.
    int drive()
    {
        if (phase_left_ == 0)
            next_phase();
        phase_left_--;
        bool all_ev = phase_ == SAT || phase_ == STORM;
        bool ev[NCPU], req[NCPU];
        trc_record rec[NCPU];
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
            put_bits(top_->ev_info, k * iw_, iw_, sim_pack(p_, rec[k]) & ((1ull << iw_) - 1));
            put_bits(top_->ev_valid, k, 1, ev[k]);
            put_bits(top_->ev_os, k, 1, rec[k].kind == TRC_OS);
        }
        bool pin_mark = phase_ == NORMAL && mark_req_ + mark_pins_ < o_.marks &&
                        rng_.chance(mark_p / 4);
        bool pin_ctl = phase_ == NORMAL && ctl_req_ + ctl_pins_ < o_.ctls && rng_.chance(ctl_p / 4);
        bool pin_start = pin_ctl && rng_.below(2);
        mark_pins_ += pin_mark;
        ctl_pins_ += pin_ctl;
        top_->rst = 0;
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
        top_->eval();

        // what the core did with last clock's inputs (it runs a clock behind
        // its ports, the time base too): a broadcast first, then each CPU's own
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
        if (put) {
            if (b.a == t_mark_) {
                mark_bc_++;
                mark_vals_.push_back(b.b);
                if (put != (1ull << NCPU) - 1) {
                    printf("MARKER at cycle %llu not to every CPU (mask 0x%llx)\n",
                           (unsigned long long)cycle_, (unsigned long long)put);
                    return 1;
                }
            } else {
                ctl_bc_++;
                uint64_t want = 0;
                for (unsigned k = 0; k < NCPU; k++)
                    if ((b.b >> 1) & 1 || (b.b >> 2) == k)
                        want |= 1ull << k;
                if (b.a != t_ctl_ || put != want) {
                    printf("CONTROL 0x%x at cycle %llu to CPUs 0x%llx, its word names 0x%llx\n",
                           b.b, (unsigned long long)cycle_, (unsigned long long)put,
                           (unsigned long long)want);
                    return 1;
                }
            }
        }
        for (unsigned k = 0; k < NCPU; k++) {
            bool on = (top_->tracing >> k) & 1, dr = (top_->drop >> k) & 1;
            if (on != tracing_[k]) {
                printf("TRACING of CPU %u changed without a control record (cycle %llu)\n", k,
                       (unsigned long long)cycle_);
                return 1;
            }
            if ((put >> k) & 1) {
                Ev e = {t, b, false};
                evs_[k].push_back(e);
                if (b.a == t_ctl_)
                    tracing_[k] = b.b & 1; // from the next clock on
            }
            if (dr && !ev[k]) {
                printf("DROP of CPU %u without an event at cycle %llu\n", k,
                       (unsigned long long)cycle_);
                return 1;
            }
            drops_[k] += dr;
            if (!ev[k])
                continue;
            events_++;
            if (req[k]) {
                if (dr) { // not taken: lost, in the CPU's next LOST count
                    Ev e = {t, rec[k], true};
                    evs_[k].push_back(e);
                    (rec[k].a == t_mark_ ? mark_lost_ : ctl_lost_)++;
                }
                continue;
            }
            if (!on) {
                if (dr) {
                    printf("DROP of CPU %u while its tracing is off (cycle %llu)\n", k,
                           (unsigned long long)cycle_);
                    return 1;
                }
                continue;
            }
            bool sync = rec[k].kind == TRC_OS && rec[k].a == TRC_TYPE_SYNC(&p_);
            if (sync && !dr) { // written, and not a trace record: its ticks
                syncs_[k]++;   // fold into the CPU's next record
                continue;
            }
            emitted_[k]++;
            Ev e = {t, rec[k], dr};
            evs_[k].push_back(e);
        }
        // the record the arbiter hands to the coder: the model encodes it
        if (top_->tap_valid) {
            unsigned cpu = top_->tap_cpu;
            trc_record r = sim_unpack(p_, top_->tap_rec);
            uint8_t buf[TRC_MP_MIN_DST];
            size_t len;
            if (cpu >= NCPU ||
                trc_mp_encode_raw(model_.get(), cpu, &r, buf, sizeof buf, &len) != TRC_OK) {
                printf("BAD RECORD from the arbiter at cycle %llu (CPU %u)\n",
                       (unsigned long long)cycle_, cpu);
                return 1;
            }
            want_.insert(want_.end(), buf, buf + len);
            want_rec_.insert(want_rec_.end(), len, taps_);
            if (r.kind == TRC_OS && (r.a == TRC_TYPE_END(&p_) || r.a == TRC_TYPE_SYNC(&p_)))
                want_tl_.push_back(want_.size());
            sync_taps_ += r.kind == TRC_OS && r.a == TRC_TYPE_SYNC(&p_);
            taps_++;
            if (phase_ == SAT && phase_left_ < phase_len_ - 200)
                sat_taken_[cpu]++;
        }
        if (phase_ == SAT && phase_left_ < phase_len_ - 200) {
            sat_clocks_++; // after the FIFOs have filled
            sat_taps_ += top_->tap_valid;
            for (unsigned k = 0; k < NCPU; k++)
                sat_off_[k] += !tracing_[k];
        }
        return 0;
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
