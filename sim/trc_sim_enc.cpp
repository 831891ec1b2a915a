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

    // Decodes s with the model (checked when the build is): 0 when it
    // decodes to the end without an error.
    int decode_fails(const std::vector<uint8_t> &s) const
    {
        trc_decoder d;
        trc_decoder_init(&d, &p_);
        d.check = TRC_P_CHECK;
        static trc_record out[4096];
        size_t at = 0, used, n;
        for (;;) {
            trc_error e = trc_decode(&d, s.data() + at, s.size() - at, &used, out, 4096,
                                     &n, 1);
            at += used;
            if (e != TRC_OK)
                return 1;
            if (at == s.size())
                return 0;
            if (used == 0 && n == 0)
                return 1;
        }
    }

    // A checked stream read as the trc tools read it (docs/format.md 4.10,
    // "Damage"): unit by unit, a unit's records counted once it checks; after
    // a unit that fails, resumed at the next unit trc_check_find() finds, the
    // records in between counted lost from its count word. Sets the units
    // that failed, the records decoded and lost, and whether the damage
    // reached the end (no unit after it: the loss there is unknown).
    struct Resync {
        uint64_t damaged = 0, decoded = 0, lost = 0;
        bool open_end = false;
    };
    Resync resync_decode(const std::vector<uint8_t> &s) const
    {
        Resync r;
        trc_decoder d;
        trc_decoder_init(&d, &p_);
        d.check = 1;
        d.stop_at_mark = 1;
        static trc_record out[4096];
        size_t at = 0, used, n;
        uint64_t unit = 0;
        size_t ustart = 0;
        while (at < s.size()) {
            trc_error e = trc_decode(&d, s.data() + at, s.size() - at, &used, out, 4096,
                                     &n, 1);
            at += used;
            unit += n;
            if (e == TRC_OK && d.ended) { // a unit that checks
                r.decoded += unit;
                unit = 0;
                ustart = at;
                d.ended = 0;
                continue;
            }
            if (e == TRC_OK && (used || n))
                continue;
            r.damaged++;
            if (d.closing) { // an END's closing unit fails, or the stream ends in them:
                at = std::min(s.size(), at + 8u * d.closing); // no records lost
                ustart = at;
                d.closing = 0;
                continue;
            }
            size_t c = 0, end, from = ustart + 8;
            uint64_t recs;
            uint32_t count;
            bool closed = false; // the last unit found is a closing unit
            for (;;) {
                if (trc_check_find(&p_, s.data(), s.size(), from, &c, &end, &recs,
                                   &count) != TRC_OK) {
                    r.open_end = !(closed && from == s.size());
                    return r;
                }
                uint32_t before = (count - (uint32_t)recs) & 0x7FFFFFFFu;
                r.lost += (before - (uint32_t)(r.decoded + r.lost)) & 0x7FFFFFFFu;
                if (end - c > 8u)
                    break;
                from = end; // closing units: the loss so far; look further
                closed = true;
            }
            trc_decoder_init(&d, &p_);
            d.check = 1;
            d.stop_at_mark = 1;
            d.count = (uint32_t)(r.decoded + r.lost) & 0x7FFFFFFFu;
            at = ustart = c;
            unit = 0;
        }
        if (d.closing) // the stream ends before an END's closing units
            r.damaged++;
        return r;
    }

    // --inject N: N seeded errors on the RTL's output bytes, one at a time,
    // half single bits, half bursts of 2..32 bits (first and last flipped);
    // each damaged stream is decoded. Fails unless a checked build catches
    // every one, and, read as the tools read it, gives decoded + reported
    // lost = the records of the undamaged stream in every trial (the
    // harness's streams end with END, whose closing units tell the loss of a
    // damaged last unit; a trial whose loss stays unknown fails).
    int inject()
    {
        if (o_.reset_at || wire_.size() < 8) {
            printf("INJECT needs a run without --reset-at\n");
            return 1;
        }
        if (decode_fails(wire_)) {
            printf("INJECT: the undamaged output does not decode\n");
            return 1;
        }
        Resync ref = TRC_P_CHECK ? resync_decode(wire_) : Resync();
        if (ref.damaged) {
            printf("INJECT: the undamaged output reads as damaged\n");
            return 1;
        }
        SimRng g(o_.seed * 7919u + 1u);
        uint64_t caught[2] = {0, 0}, tried[2] = {0, 0};
        uint64_t exact = 0, open_end = 0, wrong = 0;
        uint64_t nbits = 8u * (uint64_t)wire_.size();
        for (uint64_t t = 0; t < o_.inject; t++) {
            int burst = (int)(t & 1u);
            unsigned len = burst ? 2u + (unsigned)g.below(31) : 1u;
            uint64_t at = g.below(nbits - len + 1);
            std::vector<uint8_t> s = wire_;
            for (unsigned i = 0; i < len; i++)
                if (i == 0 || i == len - 1 || g.below(2))
                    s[(at + i) / 8] ^= (uint8_t)(0x80u >> ((at + i) % 8));
            tried[burst]++;
            caught[burst] += (uint64_t)decode_fails(s);
            if (TRC_P_CHECK) {
                Resync r = resync_decode(s);
                if (r.open_end)
                    open_end++;
                else if (r.damaged && r.decoded + r.lost == ref.decoded)
                    exact++;
                else if (wrong++ == 0)
                    printf("FIRST WRONG: error at bit %llu (%u bits): %llu units damaged, "
                           "%llu decoded + %llu lost != %llu\n", (unsigned long long)at,
                           len, (unsigned long long)r.damaged,
                           (unsigned long long)r.decoded, (unsigned long long)r.lost,
                           (unsigned long long)ref.decoded);
            }
        }
        printf("inject %llu errors on %zu bytes (CHECK %d): single bits %llu of %llu "
               "caught, bursts %llu of %llu caught\n",
               (unsigned long long)o_.inject, wire_.size(), TRC_P_CHECK,
               (unsigned long long)caught[0], (unsigned long long)tried[0],
               (unsigned long long)caught[1], (unsigned long long)tried[1]);
        if (TRC_P_CHECK)
            printf("resumed: %llu of %llu with decoded + lost = %llu records emitted, "
                   "%llu with the loss at the end unknown, %llu wrong\n",
                   (unsigned long long)exact, (unsigned long long)o_.inject,
                   (unsigned long long)ref.decoded, (unsigned long long)open_end,
                   (unsigned long long)wrong);
        if (TRC_P_CHECK && (caught[0] != tried[0] || caught[1] != tried[1])) {
            printf("MISSED: a bit error decoded without an error\n");
            return 1;
        }
        if (TRC_P_CHECK && (wrong || open_end || exact != o_.inject)) {
            printf("MISCOUNTED: decoded + lost differs from the records emitted\n");
            return 1;
        }
        return 0;
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
