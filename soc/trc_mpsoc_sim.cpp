// trc_mpsoc_sim.cpp - Verilator harness of trc_mpsoc: NCPU PicoRV32s run the
// multi-CPU firmware while their trc_rvfi adapters feed trc_mpcore.
//
// Every event each adapter hands to the tracer is recorded with its clock
// and CPU; the markers the firmware raises are recorded where trc_mpcore
// writes them (into every CPU's time-stamper in one clock). When every CPU has
// written its exit register the harness pulses trace_flush and drains the
// stream. Then: every output byte against the C model's multi-CPU encoder
// fed with the records the arbiter handed to the coder; the stream decoded
// with the model, per CPU, against that CPU's events at their clocks (and any
// LOST record against the events the core lost); the run's figures.
//
// `Vtrc_mpsoc --help` prints the options. Returns 0 on success, 1 on any
// difference (first byte offset and record), a trap, an adapter GAP, a failed
// assertion or a firmware that does not exit.
#include <memory>
#include <string>

#include "Vtrc_mpsoc.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_core_check.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"

namespace {

const unsigned NCPU = TRC_P_NCPU;

struct Opts {
    const char *hex = nullptr, *out = nullptr, *uart = nullptr;
    uint64_t workload = 0, seed = 1, max_cycles = 400000000ull, mark_every = 0;
    double stall_out = 0;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--workload", SimOpt::UINT, &o.workload,
         "N  every CPU runs N (1 recursion, 2 sort, 3 calculator); 0: CPU k runs k%3+1"},
        {"--out", SimOpt::STR, &o.out, "F  write the trace stream (bare, several CPUs) to F"},
        {"--uart", SimOpt::STR, &o.uart, "P  write CPU k's UART output to Pk.log"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  chance of a cycle without tready"},
        {"--mark-every", SimOpt::UINT, &o.mark_every, "N  a pin marker every N clocks (0: none)"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds stalls and initial state"},
        {"--max-cycles", SimOpt::UINT, &o.max_cycles, "N  give up after N clocks"},
    };
}

class Bench : SimBench<Vtrc_mpsoc> {
  public:
    explicit Bench(const Opts &o)
        : o_(o), p_(sim_params()), iw_(sim_info_w(p_)), axis_(TRC_P_OUT_W), rng_(o.seed)
    {
    }

    bool setup()
    {
        if (!sim_can_read("trc_mpsoc_sim", o_.hex) ||
            trc_mp_encoder_init(model_.get(), &p_) != TRC_OK)
            return false;
        a_fw_ = std::string("+firmware=") + o_.hex;
        a_wl_ = "+workload=" + std::to_string(o_.workload);
        return open_top(o_.seed, nullptr, {"Vtrc_mpsoc", a_fw_.c_str(), a_wl_.c_str()});
    }

    int run()
    {
        reset();
        int rc = clock_until_done([this](bool &done) { return cycle(done); });
        for (unsigned k = 0; k < NCPU; k++) {
            printf("--- CPU %u\n%s", k, uart_[k].c_str());
            std::string path = o_.uart ? std::string(o_.uart) + std::to_string(k) + ".log" : "";
            if (o_.uart &&
                !sim_write_file("trc_mpsoc_sim", path, uart_[k].data(), uart_[k].size()))
                rc = rc ? rc : 2;
        }
        if (o_.out && !sim_write_file("trc_mpsoc_sim", o_.out, bytes_.data(), bytes_.size()))
            rc = rc ? rc : 2;
        return rc ? rc : check();
    }

  private:
    const Opts &o_;
    const trc_params p_;
    const unsigned iw_;
    const unsigned t_mark_ = (1u << TRC_P_TYPE_W) - 9, t_ctl_ = (1u << TRC_P_TYPE_W) - 10;
    SimAxisOut axis_;
    SimRng rng_;
    std::string a_fw_, a_wl_;
    std::unique_ptr<trc_mp_encoder> model_ = std::make_unique<trc_mp_encoder>();

    std::vector<Ev> evs_[NCPU];
    uint64_t drops_[NCPU] = {}, events_[NCPU] = {}, gaps_ = 0, exit_code_[NCPU] = {};
    bool exited_[NCPU] = {};
    std::string uart_[NCPU];
    std::vector<uint8_t> bytes_, want_;
    std::vector<uint64_t> want_rec_;
    uint64_t cycle_ = 0, taps_ = 0, tlasts_ = 0, markers_ = 0, requests_ = 0;
    uint64_t flush_cycle_ = UINT64_MAX, quiet_ = 0, last_exit_ = 0;
    // the adapters' events of the last clock: what trc_mpcore works on now
    // (it runs a clock behind its ports, its time base too)
    bool prev_ev_[NCPU] = {};
    trc_record prev_rec_[NCPU] = {};
    uint64_t prev_t_ = 0;

    void reset()
    {
        top_->rst = 1;
        top_->m_axis_tready = 0;
        top_->trace_flush = 0;
        top_->trace_mark = 0;
        for (int i = 0; i < 8; i++) {
            top_->clk = 0;
            top_->eval();
            top_->clk = 1;
            top_->eval();
        }
    }

    // The adapter's event of CPU k in this clock, as a trace record.
    trc_record event_of(unsigned k)
    {
        uint64_t d = get_bits(top_->ev_data, k * (iw_ + 1), iw_ + 1);
        trc_record r;
        r.delta = 0;
        r.b = 0;
        if ((d >> iw_) & 1) {
            r.kind = TRC_OS;
            r.a = (uint32_t)((d >> p_.val_w) & ((1u << p_.type_w) - 1));
            r.b = (uint32_t)(d & ((1ull << p_.val_w) - 1));
        } else {
            r.kind = (d >> p_.fid_w) & 1 ? TRC_EXIT : TRC_ENTRY;
            r.a = (uint32_t)(d & ((1u << p_.fid_w) - 1));
        }
        return r;
    }

    int cycle(bool &done)
    {
        // ---- falling edge: drive inputs, sample this clock's outputs
        top_->clk = 0;
        top_->rst = 0;
        top_->eval();
        bool all = true;
        for (unsigned k = 0; k < NCPU; k++)
            all = all && exited_[k];
        bool flush = all && flush_cycle_ == UINT64_MAX;
        if (flush)
            flush_cycle_ = cycle_;
        top_->trace_flush = flush;
        // the marker pin: value 0xf000 + the pulse's number (the firmware's
        // markers carry its CPU number above bit 12, below 0xf000)
        uint64_t every = o_.mark_every ? o_.mark_every : UINT64_MAX;
        top_->trace_mark = !all && cycle_ % every == every - 1;
        top_->trace_mark_value = 0xf000u | (uint32_t)(cycle_ / every % 0x1000);
        top_->m_axis_tready = flush_cycle_ != UINT64_MAX || !rng_.chance(o_.stall_out);
        top_->eval();

        const uint64_t t = prev_t_;
        prev_t_ = cycle_;
        if (top_->bc_put) {
            trc_record b;
            b.delta = 0;
            b.kind = TRC_OS;
            b.a = (uint32_t)(top_->bc_info >> p_.val_w) & ((1u << p_.type_w) - 1);
            b.b = (uint32_t)(top_->bc_info & ((1ull << p_.val_w) - 1));
            markers_ += b.a == t_mark_;
            for (unsigned k = 0; k < NCPU; k++)
                if ((top_->bc_put >> k) & 1)
                    evs_[k].push_back(Ev{t, b, false});
        }
        for (unsigned k = 0; k < NCPU; k++) {
            bool dr = (top_->trace_drop >> k) & 1;
            drops_[k] += dr;
            bool ev = prev_ev_[k];
            trc_record r = prev_rec_[k];
            prev_ev_[k] = (top_->ev_valid >> k) & 1;
            if (prev_ev_[k])
                prev_rec_[k] = event_of(k);
            if (ev) {
                bool req = r.kind == TRC_OS && (r.a == t_mark_ || r.a == t_ctl_);
                requests_ += req;
                events_[k] += !req;
                if (!req || dr) // (a request taken: the broadcast is its record)
                    evs_[k].push_back(Ev{t, r, dr});
            } else if (dr) {
                printf("DROP of CPU %u without an event at clock %llu\n", k,
                       (unsigned long long)cycle_);
                return 1;
            }
            if ((top_->uart_valid >> k) & 1)
                uart_[k].push_back((char)get_bits(top_->uart_data, 8 * k, 8));
            if (((top_->exit_valid >> k) & 1) && !exited_[k]) {
                exited_[k] = true;
                exit_code_[k] = get_bits(top_->exit_code, 32 * k, 32);
                last_exit_ = cycle_;
            }
            if ((top_->trap >> k) & 1) {
                printf("TRAP: PicoRV32 %u halted at clock %llu\n", k, (unsigned long long)cycle_);
                return 1;
            }
        }
        gaps_ += top_->trace_gap != 0;
        if (top_->tap_valid && encode_tap())
            return 1;
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            bool last = top_->m_axis_tlast;
            size_t at = bytes_.size();
            if (!axis_.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, bytes_, at))
                return 1;
            size_t i = sim_first_diff(bytes_, at, want_);
            if (i < bytes_.size()) {
                printf("MISMATCH at byte offset %zu (record %llu into the coder, clock "
                       "%llu): RTL 0x%02x, model %s\n",
                       i, (unsigned long long)(i < want_rec_.size() ? want_rec_[i] : taps_),
                       (unsigned long long)cycle_, bytes_[i],
                       i < want_.size() ? "differs" : "has no byte yet");
                return 1;
            }
            tlasts_ += last;
            if (flush_cycle_ != UINT64_MAX)
                quiet_ = 1;
        }
        // ---- rising edge
        return end_firmware_clock(cycle_, quiet_, 200, o_.max_cycles, done);
    }

    // The record the arbiter hands to the coder now: the model encodes it.
    int encode_tap()
    {
        unsigned cpu = top_->tap_cpu;
        trc_record r = sim_unpack(p_, top_->tap_rec);
        uint8_t buf[TRC_MP_MIN_DST];
        size_t len;
        if (cpu >= NCPU || trc_mp_encode_raw(model_.get(), cpu, &r, buf, sizeof buf, &len)) {
            printf("BAD RECORD from the arbiter at clock %llu (CPU %u)\n",
                   (unsigned long long)cycle_, cpu);
            return 1;
        }
        want_.insert(want_.end(), buf, buf + len);
        want_rec_.insert(want_rec_.end(), len, taps_);
        taps_++;
        return 0;
    }

    int check()
    {
        for (unsigned k = 0; k < NCPU; k++) {
            if (exit_code_[k] != 0) {
                printf("EXIT CODE %llu from CPU %u\n", (unsigned long long)exit_code_[k], k);
                return 1;
            }
        }
        if (gaps_) {
            printf("EVENTS LOST by trc_rvfi: %llu clocks with a GAP\n", (unsigned long long)gaps_);
            return 1;
        }
        if (bytes_ != want_) {
            printf("STREAM: RTL %zu bytes, model %zu\n", bytes_.size(), want_.size());
            return 1;
        }
        std::vector<trc_record> per[NCPU];
        size_t n;
        if (!decode_mp_split(p_, bytes_, NCPU, per, &n, false))
            return 1;
        Totals tot;
        for (unsigned k = 0; k < NCPU; k++) {
            char who[32];
            snprintf(who, sizeof who, "CPU %u: ", k);
            if (match_events(per[k], evs_[k], drops_[k], true, who, tot, sim_is_broadcast))
                return 1;
        }
        double cyc = (double)flush_cycle_;
        printf("cpus %u clocks %llu events", NCPU, (unsigned long long)flush_cycle_);
        for (unsigned k = 0; k < NCPU; k++)
            printf(" %llu", (unsigned long long)events_[k]);
        printf(" markers %llu (requests %llu) lost %llu switches %llu bytes %zu "
               "records %llu bits/record %.3f events/clock %.5f\n",
               (unsigned long long)markers_, (unsigned long long)requests_,
               (unsigned long long)tot.drops, (unsigned long long)model_->switches,
               bytes_.size(), (unsigned long long)taps_,
               8.0 * (double)bytes_.size() / (double)taps_, (double)tot.events / cyc);
        printf("PASS: %zu bytes equal the C model's; every CPU's events decoded at their "
               "clocks\n", bytes_.size());
        return 0;
    }
};

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    std::vector<const char *> pos;
    if (!sim_options(argc, argv, "Vtrc_mpsoc", "FW.hex ", opt_table(o), pos, 1, 1))
        return 2;
    o.hex = pos[0];
    Bench b(o);
    return sim_run(b);
}
