// trc_sim_enc.cpp - Verilator harness: trc_enc against the C model.
//
// Reads a trace (text v1; or random:N, N seeded random records that fit the
// parameters), lowers it into raw records with the model's own
// TIME_EXT splitting, feeds them to the RTL under seeded random stalls on both
// sides, and compares every output byte with trc_encode_raw()'s stream. Prints
// records, bytes, cycles and records/cycle; on the first difference prints the
// byte offset and record index and returns 1. `trc_sim_enc --help`: options.
// records/cycle = raw records / cycles from the first input beat to the last
// output beat (pipeline fill and the final flush included).
#include <algorithm>
#include <chrono>
#include <memory>

#include <unistd.h>

#include "Vtrc_sim_enc.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_enc_inject.h"
#include "trc_sim_enc_setup.h"
#include "trc_sim_expect.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"
#include "trc_sim_wave.h"

namespace {

// ---- drive and check: one Bench per run (setup: trc_sim_enc_setup.h)

class Bench : SimBench<Vtrc_sim_enc> {
  public:
    Bench(const Opts &o, const trc_params &p, const Records &r)
        : o_(o), p_(p), r_(r), axis_((unsigned)o.out_w), rng_(o.seed)
    {
        // the lean encoder writes a chunk of at most 8 bits a clock whatever
        // OUT_W (docs/lean.md): about 21 clocks a record on random traces at
        // the widest parameters
        double ow = TRC_P_LEAN ? 8.0 : (double)o.out_w;
        limit_ = 200 + (uint64_t)((r.raw.size() * (72.0 / ow + 2)) /
                                  ((1 - o.stall_in) * (1 - o.stall_out))) * 4;
    }

    // Builds the RTL and the model's stream; false (message printed) on failure.
    bool setup()
    {
        if (!model_stream(p_, r_.raw, 0, x_))
            return false;
        if (!open_top(o_.seed, o_.wave))
            return false;
        top_->out_sel = sim_out_sel(o_.out_w);
        return true;
    }

    // Runs to the final END and a quiet tail; 0 pass, 1 difference.
    int run()
    {
        int rc = 0;
        bool show = o_.progress || isatty(2);
        auto t0 = std::chrono::steady_clock::now(), last = t0;
        auto line = [&](std::chrono::steady_clock::time_point now) {
            double s = std::chrono::duration<double>(now - t0).count();
            fprintf(stderr, "harness: %5.1f%% (%zu of %zu raw records in), %llu cycles, "
                    "%.0f cycles/s\n", 100.0 * (double)next_ / (double)r_.raw.size(),
                    next_, r_.raw.size(), (unsigned long long)cycle_,
                    s > 0 ? (double)cycle_ / s : 0.0);
        };
        while (rc == 0 && !ended_) {
            rc = cycle();
            if (show && (cycle_ & 0xFFFF) == 0) { // long runs say how far they are
                auto now = std::chrono::steady_clock::now();
                if (std::chrono::duration<double>(now - last).count() >= 1.0) {
                    last = now;
                    line(now);
                }
            }
        }
        if (o_.progress)
            line(std::chrono::steady_clock::now());
        if (rc == 0)
            rc = quiet_tail();
        end_sim();
        return report(rc);
    }

  private:
    const Opts &o_;
    const trc_params p_;
    const Records &r_;
    SimAxisOut axis_;
    SimRng rng_;
    Expect x_;

    std::vector<uint8_t> wire_;  // the accepted output bytes (--inject)
    size_t next_ = 0;            // next raw record to present
    bool presenting_ = false;
    bool held_ = false;          // last cycle's input beat was not taken
    uint64_t held_cycles_ = 0;   // for --violate
    uint64_t junk_ = 0;
    size_t got_ = 0, fpos_ = 0;  // bytes checked in x_, next flush boundary
    uint64_t total_bytes_ = 0;
    unsigned rst_cycles_ = 4;
    bool reset_done_ = o_.reset_at == 0;
    uint64_t reset_when_ = UINT64_MAX;
    uint64_t cycle_ = 0, first_in_ = UINT64_MAX, last_in_ = 0, last_out_ = 0, limit_ = 0;
    bool ended_ = false;
    std::vector<uint8_t> beat_;

    size_t trace_index(size_t off) const
    {
        return r_.raw2trace[std::min(record_at(x_, off), r_.raw.size() - 1)];
    }

    // Falling edge: inputs change away from the sampling edge.
    void drive(bool rst)
    {
        top_->rst = rst;
        if (rst) {
            presenting_ = false;
            top_->s_axis_tvalid = 0;
        } else {
            const std::vector<trc_record> &raw = r_.raw;
            if (!presenting_ && next_ < raw.size()) {
                presenting_ = !rng_.chance(o_.stall_in);
                junk_ = o_.junk ? rng_.next() & sim_unused_mask(p_, raw[next_].kind == TRC_OS)
                                : 0;
            }
            top_->s_axis_tvalid = presenting_;
            top_->s_axis_tdata =
                presenting_ ? sim_pack(p_, raw[next_]) | junk_ : rng_.next() & 0xffff;
            // --violate: break the AXI-Stream rule once, so that the RTL's
            // handshake assertion must fire (the harness then fails)
            if (held_ && ++held_cycles_ == o_.violate)
                top_->s_axis_tdata ^= 1;
        }
        top_->m_axis_tready = !rng_.chance(o_.stall_out);
        top_->eval();
    }

    // One accepted output beat against the model: bytes, then tlast exactly
    // at the END/SYNC boundaries. 0 or 1.
    int check_beat()
    {
        bool last = top_->m_axis_tlast;
        beat_.clear();
        if (!axis_.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, beat_, got_)) {
            printf("  (record index %zu)\n", trace_index(got_));
            return 1;
        }
        for (uint8_t b : beat_) {
            if (got_ >= x_.bytes.size()) {
                printf("EXTRA BYTE 0x%02x after the model's %zu bytes\n", b, x_.bytes.size());
                return 1;
            }
            if (b != x_.bytes[got_]) {
                size_t ri = record_at(x_, got_);
                printf("MISMATCH at byte offset %zu (record index %zu, raw record %zu): "
                       "rtl 0x%02x model 0x%02x\n",
                       got_, r_.raw2trace[ri], ri, b, x_.bytes[got_]);
                return 1;
            }
            got_++;
            total_bytes_++;
            if (o_.inject)
                wire_.push_back(b);
        }
        size_t n = beat_.size();
        while (fpos_ < x_.flush_ends.size() && x_.flush_ends[fpos_] < got_ - n + 1)
            fpos_++;
        bool at_flush = fpos_ < x_.flush_ends.size() && x_.flush_ends[fpos_] <= got_;
        if (at_flush != last || (at_flush && x_.flush_ends[fpos_] != got_)) {
            printf("BAD TLAST %d at byte offset %zu (record index %zu)\n", last, got_,
                   trace_index(got_ ? got_ - 1 : 0));
            return 1;
        }
        last_out_ = cycle_;
        return 0;
    }

    // One clock: 0 to go on, 1 on a difference, 2 when the model fails.
    int cycle()
    {
        half(0);
        if (cycle_ == reset_when_) {
            rst_cycles_ = 1 + (unsigned)rng_.below(3);
            reset_when_ = UINT64_MAX;
        }
        bool rst = rst_cycles_ > 0;
        drive(rst);
        bool in_fire = !rst && top_->s_axis_tvalid && top_->s_axis_tready;
        held_ = !rst && top_->s_axis_tvalid && !top_->s_axis_tready;
        if (!rst && top_->m_axis_tvalid && top_->m_axis_tready && check_beat())
            return 1;
        half(1);
        if (in_fire) {
            if (first_in_ == UINT64_MAX)
                first_in_ = cycle_;
            last_in_ = cycle_;
            next_++;
            presenting_ = false;
            if (!reset_done_ && next_ == o_.reset_at) {
                reset_when_ = cycle_ + 1 + rng_.below(8);
                reset_done_ = true;
            }
        }
        if (rst_cycles_ && --rst_cycles_ == 0 && cycle_ > 8) {
            // Mid-stream reset: in-flight records are gone by design; the
            // stream restarts from the reset state at the next record.
            printf("reset at cycle %llu after %zu raw records, %zu bytes\n",
                   (unsigned long long)cycle_, next_, got_);
            if (!model_stream(p_, r_.raw, next_, x_))
                return 2;
            got_ = 0;
            fpos_ = 0;
        }
        cycle_++;
        if (ctx_->gotError()) {
            printf("ASSERTION failed in the RTL at cycle %llu (byte offset %zu)\n",
                   (unsigned long long)cycle_, got_);
            return 1;
        }
        if (next_ == r_.raw.size() && got_ == x_.bytes.size() && !rst_cycles_)
            ended_ = true;
        if (cycle_ > limit_) {
            printf("TIMEOUT after %llu cycles: %zu of %zu raw records in, byte offset %zu "
                   "(record index %zu)\n",
                   (unsigned long long)cycle_, next_, r_.raw.size(), got_, trace_index(got_));
            return 1;
        }
        return 0;
    }

    // Nothing may follow the final END.
    int quiet_tail()
    {
        for (int k = 0; k < 16; k++) {
            top_->m_axis_tready = 1;
            top_->s_axis_tvalid = 0;
            half(0);
            if (top_->m_axis_tvalid) {
                printf("EXTRA WORD after the final END\n");
                return 1;
            }
            half(1);
        }
        return 0;
    }

    int report(int rc)
    {
        bool some = first_in_ != UINT64_MAX;
        uint64_t span = some && last_out_ >= first_in_ ? last_out_ - first_in_ + 1 : 1;
        uint64_t in_span = some && last_in_ >= first_in_ ? last_in_ - first_in_ + 1 : 1;
        if (rc)
            span = in_span = 0; // no throughput figure for a failed run
        printf("records %zu raw %zu bytes %llu cycles %llu records/cycle %.4f (input side "
               "%.4f) out_w %u stall-in %.2f stall-out %.2f seed %llu",
               r_.tr.size(), r_.raw.size(), (unsigned long long)total_bytes_,
               (unsigned long long)span, span ? (double)r_.raw.size() / (double)span : 0.0,
               in_span ? (double)next_ / (double)in_span : 0.0, (unsigned)o_.out_w,
               o_.stall_in, o_.stall_out, (unsigned long long)o_.seed);
        if (TRC_P_SYNC_EVERY)
            printf(" frames %llu (SYNC_EVERY %u, since the last reset)",
                   (unsigned long long)x_.frames, (unsigned)TRC_P_SYNC_EVERY);
        printf("\n");
        if (rc == 0 && (double)r_.raw.size() / (double)span < o_.min_rate) {
            printf("SLOW: records/cycle below %.4f\n", o_.min_rate);
            rc = 1;
        }
        if (rc == 0 && ctx_->gotError()) {
            printf("assertion or $error raised in the RTL\n");
            rc = 1;
        }
        if (rc == 0 && o_.inject)
            rc = inject();
        return rc;
    }

    // --inject N (trc_sim_enc_inject.h): on the output of a run without a
    // reset
    int inject()
    {
        if (o_.reset_at || wire_.size() < 8) {
            printf("INJECT needs a run without --reset-at\n");
            return 1;
        }
        return inject_check(p_, wire_, o_.inject, o_.seed);
    }
};

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    if (!parse(argc, argv, o)) {
        sim_usage("trc_sim_enc", "TRACE ", opt_table(o));
        return 2;
    }
    const trc_params p = sim_params();
    if (1 + p.nt + sim_info_w(p) > 64) {
        fprintf(stderr, "harness: record wider than 64 bits is not supported\n");
        return 2;
    }
    Records r;
    if (!make_records(o, p, r))
        return 2;
    Bench b(o, p, r);
    return sim_run(b);
}
