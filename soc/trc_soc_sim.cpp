// trc_soc_sim.cpp - Verilator harness of trc_soc: PicoRV32 runs its firmware
// while trc_rvfi and trc_core trace it.
//
// Every event the adapter hands to trc_core is recorded with its clock; when
// the firmware writes the exit register the harness pulses trace_flush and
// drains the stream. Then every output byte is compared with the C model's
// encoding of those events (deltas from their clocks, TIME_EXT as the model
// lowers them, then END a clock after the flush pulse), the stream is decoded
// with the model, and the run's figures are printed: clocks, retired instructions, events per clock, trace
// bits per retired instruction and per clock (peak over 1024-clock windows).
//
// `Vtrc_soc --help` prints the options. Returns 0 on success, 1 on any difference (first byte offset and event),
// a trap, a dropped event or a firmware that does not exit.
#include <memory>
#include <string>

#include "Vtrc_soc.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"

namespace {

struct Ev {
    uint64_t cycle;
    trc_record r;
};

// The model's stream for the events: deltas from their clocks (PRESCALE 1),
// TIME_EXT records where the model splits them, END at the flush clock.
bool model_stream(const trc_params &p, const std::vector<Ev> &evs, uint64_t flush_cycle,
                  std::vector<uint8_t> &out, std::vector<size_t> &ev_end)
{
    trc_encoder e;
    if (trc_encoder_init(&e, &p) != TRC_OK)
        return false;
    uint8_t buf[TRC_MAX_RECORD_BYTES];
    uint64_t last = 0;
    auto raw = [&](const trc_record &r) {
        size_t n = 0;
        if (trc_encode_raw(&e, &r, buf, sizeof buf, &n) != TRC_OK)
            return false;
        out.insert(out.end(), buf, buf + n);
        return true;
    };
    auto lowered = [&](trc_record r, uint64_t t) {
        r.delta = t - last;
        last = t;
        // trc_core's time-stamper writes value-0 TIME_EXTs in real time,
        // one per 2^NT-1 ticks, never the long-gap form
        const uint64_t m = (1ull << p.nt) - 1;
        uint64_t n = r.delta > m ? (r.delta - 1) / m : 0;
        for (uint64_t k = 0; k < n; k++)
            if (!raw(trc_time_ext_record(&p)))
                return false;
        return raw(trc_lower(&p, &r));
    };
    for (const Ev &v : evs) {
        if (!lowered(v.r, v.cycle))
            return false;
        ev_end.push_back(out.size());
    }
    trc_record end;
    end.kind = TRC_OS;
    end.a = TRC_TYPE_END(&p);
    end.b = 0;
    return lowered(end, flush_cycle + 1); // trc_core registers the flush: END a clock later
}

struct Opts {
    const char *hex = nullptr, *out = nullptr, *uart = nullptr;
    uint64_t workload = 0, seed = 1, max_cycles = 200000000ull;
    double stall_out = 0;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--workload", SimOpt::UINT, &o.workload, "N  0 all, 1 recursion, 2 sort, 3 calculator"},
        {"--out", SimOpt::STR, &o.out, "F  write the trace stream to F"},
        {"--uart", SimOpt::STR, &o.uart, "F  write the firmware's UART output to F"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  chance of a cycle without tready"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds stalls and initial state"},
        {"--max-cycles", SimOpt::UINT, &o.max_cycles, "N  give up after N clocks"},
    };
}

// ---- drive and check: the firmware runs to its exit, then every byte

class Bench : SimBench<Vtrc_soc> {
  public:
    explicit Bench(const Opts &o)
        : o_(o), p_(sim_params()), iw_(sim_info_w(p_)), axis_(TRC_P_OUT_W), rng_(o.seed)
    {
    }

    bool setup()
    {
        if (!sim_can_read("trc_soc_sim", o_.hex))
            return false;
        a_fw_ = std::string("+firmware=") + o_.hex;
        a_wl_ = "+workload=" + std::to_string(o_.workload);
        return open_top(o_.seed, nullptr, {"Vtrc_soc", a_fw_.c_str(), a_wl_.c_str()});
    }

    int run()
    {
        reset();
        int rc = clock_until_done([this](bool &done) { return cycle(done); });
        fputs(uart_.c_str(), stdout);
        if (o_.uart && !sim_write_file("trc_soc_sim", o_.uart, uart_.data(), uart_.size()))
            rc = rc ? rc : 2;
        if (o_.out && !sim_write_file("trc_soc_sim", o_.out, bytes_.data(), bytes_.size()))
            rc = rc ? rc : 2;
        return rc ? rc : check();
    }

  private:
    const Opts &o_;
    const trc_params p_;
    const unsigned iw_;
    SimAxisOut axis_;
    SimRng rng_;
    std::string a_fw_, a_wl_;

    std::vector<Ev> evs_;
    std::vector<uint8_t> bytes_;
    std::string uart_;
    uint64_t cycle_ = 0, retired_ = 0, drops_ = 0, gaps_ = 0, tlasts_ = 0;
    uint64_t flush_cycle_ = UINT64_MAX, quiet_ = 0, exit_code_ = 0;
    uint64_t win_bits_ = 0, win_start_ = 0, peak_bits_ = 0, n_fn_ = 0, n_os_ = 0;
    bool exited_ = false;

    void reset()
    {
        top_->rst = 1;
        top_->m_axis_tready = 0;
        top_->trace_flush = 0;
        for (int i = 0; i < 8; i++) {
            top_->clk = 0;
            top_->eval();
            top_->clk = 1;
            top_->eval();
        }
    }

    // The adapter's event of this clock, as a trace record.
    void record_event()
    {
        uint64_t d = top_->ev_data;
        Ev v;
        v.cycle = cycle_;
        v.r.delta = 0;
        v.r.b = 0;
        if ((d >> iw_) & 1) {
            v.r.kind = TRC_OS;
            v.r.a = (uint32_t)((d >> p_.val_w) & ((1u << p_.type_w) - 1));
            v.r.b = (uint32_t)(d & ((1ull << p_.val_w) - 1));
            n_os_++;
        } else {
            v.r.kind = (d >> p_.fid_w) & 1 ? TRC_EXIT : TRC_ENTRY;
            v.r.a = (uint32_t)(d & ((1u << p_.fid_w) - 1));
            n_fn_++;
        }
        evs_.push_back(v);
    }

    // One clock: 0 to go on, 1 on a trap, a bad beat, an assertion or a
    // timeout; done once the stream has drained after the flush.
    int cycle(bool &done)
    {
        // ---- falling edge: drive inputs, sample this clock's outputs
        top_->clk = 0;
        top_->rst = 0;
        top_->eval();
        bool flush = exited_ && flush_cycle_ == UINT64_MAX;
        if (flush)
            flush_cycle_ = cycle_;
        top_->trace_flush = flush;
        top_->m_axis_tready = flush_cycle_ != UINT64_MAX || !rng_.chance(o_.stall_out);
        top_->eval();
        if (top_->ev_valid)
            record_event();
        drops_ += top_->trace_drop;
        gaps_ += top_->trace_gap;
        if (top_->retire && !exited_)
            retired_++; // up to the exit store: not _exit's idle loop
        if (top_->uart_valid)
            uart_.push_back((char)top_->uart_data);
        if (top_->exit_valid && !exited_) {
            exited_ = true;
            exit_code_ = top_->exit_code;
        }
        if (top_->trap) {
            printf("TRAP: PicoRV32 halted at clock %llu\n", (unsigned long long)cycle_);
            return 1;
        }
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            size_t n0 = bytes_.size();
            bool last = top_->m_axis_tlast;
            if (!axis_.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, bytes_, n0))
                return 1;
            win_bits_ += 8ull * (bytes_.size() - n0);
            tlasts_ += last;
            if (last && flush_cycle_ != UINT64_MAX)
                quiet_ = 1;
        }
        if (cycle_ - win_start_ == 1024) {
            peak_bits_ = win_bits_ > peak_bits_ ? win_bits_ : peak_bits_;
            win_bits_ = 0;
            win_start_ = cycle_;
        }
        // ---- rising edge
        return end_firmware_clock(cycle_, quiet_, 64, o_.max_cycles, done);
    }

    // Every byte against the model, then the stream decoded back to the
    // events at their clocks, then the figures.
    int check()
    {
        if (exit_code_ != 0) {
            printf("EXIT CODE %llu from the firmware\n", (unsigned long long)exit_code_);
            return 1;
        }
        if (drops_ || gaps_) {
            printf("EVENTS LOST: %llu dropped by trc_core, %llu by trc_rvfi (the model "
                   "comparison assumes none)\n", (unsigned long long)drops_,
                   (unsigned long long)gaps_);
            return 1;
        }
        std::vector<uint8_t> want;
        std::vector<size_t> ev_end;
        if (!model_stream(p_, evs_, flush_cycle_, want, ev_end)) {
            printf("MODEL: an event does not encode\n");
            return 1;
        }
        size_t n = bytes_.size() < want.size() ? bytes_.size() : want.size();
        for (size_t i = 0; i < n || bytes_.size() != want.size(); i++) {
            if (i < n && bytes_[i] == want[i])
                continue;
            size_t k = 0;
            while (k < ev_end.size() && ev_end[k] <= i)
                k++;
            printf("MISMATCH at byte %zu (event %zu of %zu, clock %llu): RTL %s, model %s; "
                   "%zu vs %zu bytes\n", i, k, evs_.size(),
                   (unsigned long long)(k < evs_.size() ? evs_[k].cycle : flush_cycle_),
                   i < bytes_.size() ? std::to_string(bytes_[i]).c_str() : "ended",
                   i < want.size() ? std::to_string(want[i]).c_str() : "ended",
                   bytes_.size(), want.size());
            return 1;
        }
        trc_decoder d;
        trc_decoder_init(&d, &p_);
        std::vector<trc_record> dec(evs_.size() + 16);
        size_t used = 0, got = 0;
        trc_error e = trc_decode(&d, bytes_.data(), bytes_.size(), &used, dec.data(),
                                 dec.size(), &got, 1);
        uint64_t t = 0;
        bool same = e == TRC_OK && got == evs_.size();
        for (size_t i = 0; same && i < got; i++) {
            t += dec[i].delta;
            same = dec[i].kind == evs_[i].r.kind && dec[i].a == evs_[i].r.a &&
                   dec[i].b == evs_[i].r.b && t == evs_[i].cycle;
        }
        if (!same) {
            printf("DECODE: %s, %zu records for %zu events\n", trc_error_name(e), got,
                   evs_.size());
            return 1;
        }
        double cyc = (double)flush_cycle_;
        printf("clocks %llu retired %llu events %zu (function %llu, os %llu) bytes %zu "
               "tlast %llu\n",
               (unsigned long long)flush_cycle_, (unsigned long long)retired_, evs_.size(),
               (unsigned long long)n_fn_, (unsigned long long)n_os_, bytes_.size(),
               (unsigned long long)tlasts_);
        printf("events/clock %.5f instructions/clock %.4f bits/event %.3f "
               "bits/instruction %.4f bits/clock %.4f peak bits/clock %.4f (1024-clock "
               "windows)\n",
               (double)evs_.size() / cyc, (double)retired_ / cyc,
               8.0 * (double)bytes_.size() / (double)evs_.size(),
               8.0 * (double)bytes_.size() / (double)retired_,
               8.0 * (double)bytes_.size() / cyc, (double)peak_bits_ / 1024.0);
        printf("PASS: %zu bytes equal the C model's, decoded to the %zu events at their "
               "clocks\n", bytes_.size(), evs_.size());
        return 0;
    }
};

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    std::vector<const char *> pos;
    if (!sim_options(argc, argv, "Vtrc_soc", "FW.hex ", opt_table(o), pos, 1, 1))
        return 2;
    o.hex = pos[0];
    Bench b(o);
    return sim_run(b);
}
