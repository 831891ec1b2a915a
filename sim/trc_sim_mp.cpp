// trc_sim_mp.cpp - Verilator harness: trc_mpcore, NCPU CPUs into one stream.
//
// Every CPU gets random events in phases: normal traffic with output stalls,
// saturation (an event on every CPU every clock, the output always ready:
// the total rate must stay one record per clock and no CPU may starve),
// overflow storms (every CPU every clock while the output trickles), idle
// gaps longer than 2^NT ticks, and the final flush. Markers and control
// words (start/stop of one CPU or all) come as stimulus events on random
// ports and as pin pulses. Checks:
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

#include "Vtrc_sim_mp.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_core_check.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

#ifndef TRC_P_PRESCALE
#define TRC_P_PRESCALE 1
#endif
#ifndef TRC_P_OUT_W
#define TRC_P_OUT_W 64
#endif

namespace {

const unsigned NCPU = TRC_P_NCPU;

// trc_mpcore's markers and control records go before a LOST that waits.
bool is_broadcast(const trc_record &r)
{
    return r.kind == TRC_OS && (r.a == (1u << TRC_P_TYPE_W) - 9 || r.a == (1u << TRC_P_TYPE_W) - 10);
}

struct Opts {
    uint64_t events = 20000, idles = 2, seed = 1, storms = 2, sats = 2, marks = 20, ctls = 12;
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
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  output stall probability (0.2)"},
        {"--min-rate", SimOpt::DOUBLE, &o.min_rate,
         "R  fail if records/clock under saturation ends below R"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
    };
}

// Bits [lo, lo+n) of a Verilator port of any width.
template <class T> void put_bits(T &w, unsigned lo, unsigned n, uint64_t v)
{
    uint64_t m = (n >= 64 ? ~0ull : (1ull << n) - 1) << lo;
    w = (T)(((uint64_t)w & ~m) | ((v << lo) & m));
}
template <std::size_t N> void put_bits(VlWide<N> &w, unsigned lo, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        uint32_t bit = 1u << (b % 32);
        w[b / 32] = ((v >> i) & 1) ? (w[b / 32] | bit) : (w[b / 32] & ~bit);
    }
}

class Bench {
  public:
    explicit Bench(const Opts &o)
        : o_(o), p_(sim_params()), iw_(sim_info_w(p_)), axis_(TRC_P_OUT_W), rng_(o.seed)
    {
    }

    bool setup()
    {
        if (trc_mp_encoder_init(model_.get(), &p_) != TRC_OK) {
            printf("bad parameters for the model\n");
            return false;
        }
        ctx_ = std::make_unique<VerilatedContext>();
        ctx_->randReset(2);
        ctx_->randSeed((int)(o_.seed & 0x7fffffff));
        ctx_->fatalOnError(false);
        top_ = std::make_unique<Vtrc_sim_mp>(ctx_.get(), "top");
        return !o_.wave || wave_.open(ctx_.get(), top_.get(), o_.wave);
    }

    int run()
    {
        reset();
        int rc = 0;
        bool done = false;
        while (rc == 0 && !done)
            rc = cycle(done);
        top_->final();
        wave_.close();
        return rc ? rc : check();
    }

  private:
    enum Phase { NORMAL, SAT, STORM, IDLE, DRAIN };

    const Opts &o_;
    const trc_params p_;
    const unsigned iw_;
    const uint64_t pre_ = TRC_P_PRESCALE;
    const unsigned t_mark_ = (1u << TRC_P_TYPE_W) - 9, t_ctl_ = (1u << TRC_P_TYPE_W) - 10;
    SimAxisOut axis_;
    SimRng rng_;
    std::unique_ptr<trc_mp_encoder> model_ = std::make_unique<trc_mp_encoder>();
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtrc_sim_mp> top_;
    SimWave<Vtrc_sim_mp> wave_;

    // per CPU: what it presented (and what was written for it), drops
    std::vector<Ev> evs_[NCPU];
    uint64_t drops_[NCPU] = {}, emitted_[NCPU] = {}, sat_taken_[NCPU] = {}, sat_off_[NCPU] = {};
    bool tracing_[NCPU];
    // the stream: the RTL's bytes and tlasts, the model's
    std::vector<uint8_t> bytes_, want_;
    std::vector<size_t> tl_, want_tl_;
    std::vector<uint64_t> want_rec_; // the coder's record index of each model byte
    uint64_t taps_ = 0, cycle_ = 0, tlasts_ = 0;
    // markers and controls
    uint64_t mark_req_ = 0, mark_lost_ = 0, mark_pins_ = 0, mark_bc_ = 0;
    uint64_t ctl_req_ = 0, ctl_lost_ = 0, ctl_pins_ = 0, ctl_bc_ = 0;
    std::vector<uint32_t> mark_vals_;
    // saturation: clocks measured, records taken in them
    uint64_t sat_clocks_ = 0, sat_taps_ = 0;
    // phases
    Phase phase_ = NORMAL;
    uint64_t phase_left_ = 200, phase_len_ = 200, events_ = 0, drain_quiet_ = 0;
    unsigned idles_ = 0, storms_ = 0, sats_ = 0;
    uint64_t storm_period_ = 1, storm_on_ = 1;
    double ev_p_ = 0.2;
    bool final_flush_ = false;

    void half(int clk)
    {
        top_->clk = clk;
        top_->eval();
        wave_.dump(ctx_->time());
        ctx_->timeInc(1);
    }

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

        // what the core did with them: a broadcast first, then each CPU's own
        const uint64_t t = cycle_ / pre_;
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
            emitted_[k]++;
            Ev e = {t, rec[k], dr};
            evs_[k].push_back(e);
        }
        // the record the arbiter hands to the coder: the model encodes it
        if (top_->tap_valid) {
            unsigned cpu = top_->tap_cpu;
            uint64_t x = top_->tap_rec;
            trc_record r;
            r.delta = (x >> iw_) & ((1ull << p_.nt) - 1);
            if ((x >> (p_.nt + iw_)) & 1) {
                r.kind = TRC_OS;
                r.a = (uint32_t)(x >> p_.val_w) & ((1u << p_.type_w) - 1);
                r.b = (uint32_t)(x & ((1ull << p_.val_w) - 1));
            } else {
                r.kind = (x >> p_.fid_w) & 1 ? TRC_EXIT : TRC_ENTRY;
                r.a = (uint32_t)(x & ((1ull << p_.fid_w) - 1));
                r.b = 0;
            }
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
            if (r.kind == TRC_OS && r.a == TRC_TYPE_END(&p_))
                want_tl_.push_back(want_.size());
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
            bool last = top_->m_axis_tlast;
            size_t at = bytes_.size();
            if (!axis_.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, bytes_, at))
                return 1;
            for (size_t i = at; i < bytes_.size(); i++) {
                if (i >= want_.size() || bytes_[i] != want_[i]) {
                    printf("MISMATCH at byte offset %zu (record %llu into the coder): RTL "
                           "0x%02x, model %s\n",
                           i, (unsigned long long)(i < want_rec_.size() ? want_rec_[i] : taps_),
                           bytes_[i], i < want_.size() ? "differs" : "has no byte yet");
                    return 1;
                }
            }
            if (last) {
                tl_.push_back(bytes_.size());
                tlasts_++;
            }
            drain_quiet_ = 0;
        } else if (phase_ == DRAIN) {
            drain_quiet_++;
        }
        half(1);
        cycle_++;
        if (ctx_->gotError()) {
            printf("ASSERTION failed in the RTL at cycle %llu\n", (unsigned long long)cycle_);
            return 1;
        }
        // every CPU's END is out when the output has been quiet a while
        if (phase_ == DRAIN && drain_quiet_ > 200 && tlasts_ >= NCPU)
            done = true;
        if (phase_ == DRAIN && drain_quiet_ > 100000) {
            printf("TIMEOUT: no final END\n");
            return 1;
        }
        return 0;
    }

    int check()
    {
        if (tl_ != want_tl_ || bytes_.size() != (want_tl_.empty() ? 0 : want_tl_.back())) {
            printf("TLAST MISMATCH: RTL %zu tlast words, %zu bytes; model %zu END, %zu bytes\n",
                   tl_.size(), bytes_.size(), want_tl_.size(), want_.size());
            for (size_t i = 0; i < tl_.size() || i < want_tl_.size(); i++)
                printf("  tlast %zu: RTL %lld model %lld\n", i,
                       i < tl_.size() ? (long long)tl_[i] : -1LL,
                       i < want_tl_.size() ? (long long)want_tl_[i] : -1LL);
            return 1;
        }
        // decode, split by CPU
        auto dec = std::make_unique<trc_mp_decoder>();
        trc_mp_decoder_init(dec.get(), &p_);
        std::vector<trc_record> out(bytes_.size() * 8 + 16);
        std::vector<uint8_t> cpu(out.size());
        size_t used = 0, n = 0;
        trc_error e = trc_mp_decode(dec.get(), bytes_.data(), bytes_.size(), &used, out.data(),
                                    cpu.data(), out.size(), &n, 1);
        if (e != TRC_OK || used != bytes_.size()) {
            printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
                   (unsigned long long)trc_mp_decoder_bit_offset(dec.get()));
            return 1;
        }
        std::vector<trc_record> per[NCPU];
        for (size_t i = 0; i < n; i++)
            per[cpu[i]].push_back(out[i]);
        Totals tot;
        int rc = 0;
        std::vector<std::pair<uint64_t, uint32_t>> marks[NCPU];
        for (unsigned k = 0; k < NCPU && rc == 0; k++) {
            char who[32];
            snprintf(who, sizeof who, "CPU %u: ", k);
            rc = match_events(per[k], evs_[k], drops_[k], true, who, tot, is_broadcast);
            uint64_t t = 0;
            for (const trc_record &r : per[k]) {
                t += r.delta;
                if (r.kind == TRC_OS && r.a == t_mark_)
                    marks[k].push_back({t, r.b});
            }
        }
        if (rc)
            return rc;
        // every marker in every CPU's trace, at one time, with one value
        for (unsigned k = 0; k < NCPU; k++) {
            if (marks[k] != marks[0] || marks[k].size() != mark_bc_) {
                printf("MARKERS of CPU %u (%zu) differ from CPU 0's (%zu), %llu written\n", k,
                       marks[k].size(), marks[0].size(), (unsigned long long)mark_bc_);
                return 1;
            }
        }
        if (mark_bc_ < mark_req_ - mark_lost_ || mark_bc_ > mark_req_ - mark_lost_ + mark_pins_) {
            printf("MARKERS: %llu written for %llu port requests (%llu lost) and %llu pins\n",
                   (unsigned long long)mark_bc_, (unsigned long long)mark_req_,
                   (unsigned long long)mark_lost_, (unsigned long long)mark_pins_);
            return 1;
        }
        double rate = sat_clocks_ ? (double)sat_taps_ / (double)sat_clocks_ : 0;
        printf("cpus %u cycles %llu events %llu traced %llu delivered %llu lost %llu "
               "lost-records %llu markers %llu (pins %llu, requests lost %llu) controls %llu "
               "(lost %llu) switches %llu bytes %zu bits/record %.2f\n",
               NCPU, (unsigned long long)cycle_, (unsigned long long)events_,
               (unsigned long long)tot.events, (unsigned long long)tot.delivered,
               (unsigned long long)tot.drops, (unsigned long long)tot.lost_recs,
               (unsigned long long)mark_bc_, (unsigned long long)mark_pins_,
               (unsigned long long)mark_lost_, (unsigned long long)ctl_bc_,
               (unsigned long long)ctl_lost_, (unsigned long long)model_->switches, bytes_.size(),
               n ? 8.0 * (double)bytes_.size() / (double)n : 0.0);
        printf("saturation: clocks %llu records/clock %.4f, per CPU", (unsigned long long)sat_clocks_,
               rate);
        uint64_t least = UINT64_MAX;
        for (unsigned k = 0; k < NCPU; k++) {
            printf(" %llu", (unsigned long long)sat_taken_[k]);
            if (sat_off_[k])
                printf(" (off %llu clocks)", (unsigned long long)sat_off_[k]);
            least = sat_taken_[k] < least ? sat_taken_[k] : least;
        }
        printf(" seed %llu\n", (unsigned long long)o_.seed);
        if (sat_clocks_ && rate < o_.min_rate) {
            printf("RATE %.4f below %.4f\n", rate, o_.min_rate);
            return 1;
        }
        // no CPU starves: each gets at least half its share under saturation
        if (sat_clocks_ && least * 2 * NCPU < sat_taps_) {
            printf("STARVED: a CPU got %llu of %llu records under saturation\n",
                   (unsigned long long)least, (unsigned long long)sat_taps_);
            return 1;
        }
        return 0;
    }
};

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    std::vector<const char *> pos;
    if (!sim_parse(argc, argv, opt_table(o), pos, 0)) {
        sim_usage("trc_sim_mp", "", opt_table(o));
        return 2;
    }
    Bench b(o);
    if (!b.setup())
        return 2;
    return b.run();
}
