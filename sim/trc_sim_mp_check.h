// trc_sim_mp_check.h - what the trc_mpcore harness (sim/trc_sim_mp.cpp)
// records while it drives the RTL, the checks of each clock (broadcasts,
// each CPU's event or drop, the record into the coder given to the model's
// encoder), and the final check: the RTL's tlasts against the model's ENDs,
// the stream decoded and split by CPU against every CPU's events, the
// markers in every CPU's trace, and the rate and fairness under saturation.
#ifndef TRC_SIM_MP_CHECK_H
#define TRC_SIM_MP_CHECK_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "trc.h"
#include "trc_sim_core_check.h"
#include "trc_sim_util.h"

struct MpRecord {
    static constexpr unsigned NCPU = TRC_P_NCPU;
    const trc_params p_ = sim_params();
    const unsigned t_mark_ = (1u << TRC_P_TYPE_W) - 9;
    const unsigned t_ctl_ = (1u << TRC_P_TYPE_W) - 10;
    bool tracing_[NCPU]; // what the control records written so far say
    std::unique_ptr<trc_mp_encoder> model_ = std::make_unique<trc_mp_encoder>();

    // per CPU: what it presented (and what was written for it), drops
    std::vector<Ev> evs_[NCPU];
    uint64_t drops_[NCPU] = {}, emitted_[NCPU] = {}, sat_taken_[NCPU] = {}, sat_off_[NCPU] = {};
    // the stream: the RTL's bytes and tlasts, the model's
    std::vector<uint8_t> bytes_, want_;
    std::vector<size_t> tl_, want_tl_;
    std::vector<uint64_t> want_rec_; // the coder's record index of each model byte
    uint64_t taps_ = 0, cycle_ = 0, tlasts_ = 0, events_ = 0;
    // markers and controls
    uint64_t mark_req_ = 0, mark_lost_ = 0, mark_pins_ = 0, mark_bc_ = 0;
    uint64_t ctl_req_ = 0, ctl_lost_ = 0, ctl_pins_ = 0, ctl_bc_ = 0;
    // SYNC events presented; written per CPU; into the coder
    uint64_t sync_req_ = 0, syncs_[NCPU] = {}, sync_taps_ = 0, min_syncs_ = 0;
    std::vector<uint32_t> mark_vals_;
    // probes (--probes): done; clocks in which the broadcast rule's "TIME_EXT
    // falling due" case decided, and how many the run must reach
    uint64_t probes_ = 0, due_cases_ = 0, min_due_ = 0;
    // whole probes (--wprobes): done; clocks in which a whole record was
    // written while a step up of its count waited in trc_wholes, and how
    // many the run must reach
    uint64_t wprobes_ = 0, both_cases_ = 0, min_both_ = 0;
    // saturation: clocks measured, records taken in them
    uint64_t sat_clocks_ = 0, sat_taps_ = 0;

    // A marker goes to every CPU, a control record to the CPUs its word names.
    int check_broadcast(uint64_t put, const trc_record &b)
    {
        if (b.a == t_mark_) {
            mark_bc_++;
            mark_vals_.push_back(b.b);
            if (put != (1ull << NCPU) - 1) {
                printf("MARKER at cycle %llu not to every CPU (mask 0x%llx)\n",
                       (unsigned long long)cycle_, (unsigned long long)put);
                return 1;
            }
            return 0;
        }
        ctl_bc_++;
        uint64_t want = 0;
        for (unsigned k = 0; k < NCPU; k++)
            if ((b.b >> 1) & 1 || (b.b >> 2) == k)
                want |= 1ull << k;
        if (b.a != t_ctl_ || put != want) {
            printf("CONTROL 0x%x at cycle %llu to CPUs 0x%llx, its word names 0x%llx\n", b.b,
                   (unsigned long long)cycle_, (unsigned long long)put,
                   (unsigned long long)want);
            return 1;
        }
        return 0;
    }

    // What each CPU's trace must hold for the last clock's inputs (at time
    // t): the broadcast written for it, its event or the event lost.
    int check_cpus(uint64_t t, uint64_t put, const trc_record &b, uint64_t tracing,
                   uint64_t drop, const bool ev[], const bool req[], const trc_record rec[])
    {
        for (unsigned k = 0; k < NCPU; k++) {
            bool on = (tracing >> k) & 1, dr = (drop >> k) & 1;
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
            if (dr && !ev[k] && ((put >> k) & 1)) {
                printf("BROADCAST for CPU %u lost at cycle %llu (its time-stamper did not "
                       "write it)\n", k, (unsigned long long)cycle_);
                return 1;
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
        return 0;
    }

    // The record entering the coder (when valid): the model
    // encodes it. measured: a clock of a saturation, FIFOs filled.
    int take_record(bool valid, unsigned cpu, const trc_record &r, bool measured)
    {
        if (valid) {
            uint8_t buf[TRC_MP_MIN_DST];
            size_t len;
            if (cpu >= NCPU ||
                trc_mp_encode_raw(model_.get(), cpu, &r, buf, sizeof buf, &len) != TRC_OK) {
                printf("BAD RECORD into the coder at cycle %llu (CPU %u)\n",
                       (unsigned long long)cycle_, cpu);
                return 1;
            }
            want_.insert(want_.end(), buf, buf + len);
            want_rec_.insert(want_rec_.end(), len, taps_);
            if (r.kind == TRC_OS && (r.a == TRC_TYPE_END(&p_) || r.a == TRC_TYPE_SYNC(&p_)))
                want_tl_.push_back(want_.size());
            sync_taps_ += r.kind == TRC_OS && r.a == TRC_TYPE_SYNC(&p_);
            taps_++;
            if (measured)
                sat_taken_[cpu]++;
        }
        if (measured) {
            sat_clocks_++;
            sat_taps_ += valid;
            for (unsigned k = 0; k < NCPU; k++)
                sat_off_[k] += !tracing_[k];
        }
        return 0;
    }

    // 0 when the run passed, 1 (message printed) otherwise; prints the
    // counts and the saturation figures.
    int check(uint64_t seed, double min_rate)
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
        std::vector<trc_record> per[NCPU];
        size_t n;
        if (!decode_mp_split(p_, bytes_, NCPU, per, &n, true))
            return 1;
        Totals tot;
        int rc = 0;
        std::vector<std::pair<uint64_t, uint32_t>> marks[NCPU];
        for (unsigned k = 0; k < NCPU && rc == 0; k++) {
            char who[32];
            snprintf(who, sizeof who, "CPU %u: ", k);
            rc = match_events(per[k], evs_[k], drops_[k], true, who, tot, sim_is_broadcast);
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
        // every SYNC written for a CPU reached the coder, and enough did
        uint64_t synced = 0;
        for (unsigned k = 0; k < NCPU; k++)
            synced += syncs_[k];
        if (synced != sync_taps_ || sync_taps_ < min_syncs_) {
            printf("SYNC: %llu presented, %llu written, %llu into the coder (at least %llu "
                   "wanted)\n",
                   (unsigned long long)sync_req_, (unsigned long long)synced,
                   (unsigned long long)sync_taps_, (unsigned long long)min_syncs_);
            return 1;
        }
        if (probes_)
            printf("probes %llu: the due case reached in %llu clocks\n",
                   (unsigned long long)probes_, (unsigned long long)due_cases_);
        if (due_cases_ < min_due_) {
            printf("DUE CASE reached in %llu clocks, at least %llu wanted\n",
                   (unsigned long long)due_cases_, (unsigned long long)min_due_);
            return 1;
        }
        if (wprobes_ || min_both_)
            printf("whole probes %llu: a whole record written beside a waiting step "
                   "in %llu clocks\n",
                   (unsigned long long)wprobes_, (unsigned long long)both_cases_);
        if (both_cases_ < min_both_) {
            printf("BOTH CASE reached in %llu clocks, at least %llu wanted\n",
                   (unsigned long long)both_cases_, (unsigned long long)min_both_);
            return 1;
        }
        double rate = sat_clocks_ ? (double)sat_taps_ / (double)sat_clocks_ : 0;
        printf("cpus %u cycles %llu events %llu traced %llu delivered %llu lost %llu "
               "lost-records %llu markers %llu (pins %llu, requests lost %llu) controls %llu "
               "(lost %llu) syncs %llu switches %llu bytes %zu bits/record %.2f\n",
               NCPU, (unsigned long long)cycle_, (unsigned long long)events_,
               (unsigned long long)tot.events, (unsigned long long)tot.delivered,
               (unsigned long long)tot.drops, (unsigned long long)tot.lost_recs,
               (unsigned long long)mark_bc_, (unsigned long long)mark_pins_,
               (unsigned long long)mark_lost_, (unsigned long long)ctl_bc_,
               (unsigned long long)ctl_lost_, (unsigned long long)sync_taps_,
               (unsigned long long)model_->switches, bytes_.size(),
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
        printf(" seed %llu\n", (unsigned long long)seed);
        if (sat_clocks_ && rate < min_rate) {
            printf("RATE %.4f below %.4f\n", rate, min_rate);
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

#endif
