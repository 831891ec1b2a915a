// trc_sim_bench.h - what the benches of the Verilator harnesses share: the
// simulation context (random initial state seeded from --seed; a failed
// assertion is reported by the bench, not an abort), the top, an optional
// FST waveform, one half clock period, the clock loop, and main()'s steps
// (options, setup, run). A bench derives from SimBench<Vtop>, sets its
// inputs in its own setup and drives and checks them in its own cycle().
#ifndef TRC_SIM_BENCH_H
#define TRC_SIM_BENCH_H

#include <cstdint>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_opts.h"
#include "trc_sim_wave.h"

// Bits [lo, lo+n) (n <= 64) of a Verilator port of any width: read, written.
template <class T> uint64_t get_bits(const T &w, unsigned lo, unsigned n)
{
    return ((uint64_t)w >> lo) & (n >= 64 ? ~0ull : (1ull << n) - 1);
}
template <std::size_t N> uint64_t get_bits(const VlWide<N> &w, unsigned lo, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)((w[(lo + i) / 32] >> ((lo + i) % 32)) & 1) << i;
    return v;
}
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

// trc_sim_enc's out_sel input for an output width of 8, 16, 32 or 64 bits.
static inline unsigned sim_out_sel(uint64_t out_w)
{
    unsigned sel = 0;
    while ((8u << sel) != out_w)
        sel++;
    return sel;
}

template <class Top> class SimBench {
  protected:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Top> top_;
    SimWave<Top> wave_;

    // Makes the context and the top; args (argv[0] first, then +name=value)
    // is the command line the RTL's $value$plusargs read. false (message
    // printed) when the waveform cannot be written.
    bool open_top(uint64_t seed, const char *wave, std::vector<const char *> args = {})
    {
        ctx_ = std::make_unique<VerilatedContext>();
        if (!args.empty())
            ctx_->commandArgs((int)args.size(), args.data());
        ctx_->randReset(2);
        ctx_->randSeed((int)(seed & 0x7fffffff));
        ctx_->fatalOnError(false); // a failed assertion is reported, not an abort
        top_ = std::make_unique<Top>(ctx_.get(), "top");
        return !wave || wave_.open(ctx_.get(), top_.get(), wave);
    }

    // Half a clock period: the clock set to clk, evaluated and dumped.
    void half(int clk)
    {
        top_->clk = clk;
        top_->eval();
        wave_.dump(ctx_->time());
        ctx_->timeInc(1);
    }

    // Runs cycle(done) until it returns non-zero or sets done, then ends
    // the simulation (final blocks, the waveform closed); its last value.
    template <class Cycle> int clock_until_done(Cycle cycle)
    {
        int rc = 0;
        bool done = false;
        while (rc == 0 && !done)
            rc = cycle(done);
        end_sim();
        return rc;
    }

    void end_sim()
    {
        top_->final();
        wave_.close();
    }

    // An output beat the RTL hands over in this clock: its bytes appended
    // to bytes (checked by axis), and at tlast the byte count appended to
    // tl and counted. false (message printed) on a malformed beat.
    bool take_beat(SimAxisOut &axis, std::vector<uint8_t> &bytes, std::vector<size_t> &tl,
                   uint64_t &tlasts)
    {
        bool last = top_->m_axis_tlast;
        if (!axis.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, bytes, bytes.size()))
            return false;
        if (last) {
            tl.push_back(bytes.size());
            tlasts++;
        }
        return true;
    }

    // The rising edge that ends a clock of a bench that drains its output
    // at the end: the clock counted, the RTL's assertions checked; while
    // draining, done once the output has been quiet more than enough
    // clocks with ended true, and a TIMEOUT after 100000 quiet clocks. 0 to
    // go on, 1 on a failure (message printed).
    int end_clock(uint64_t &cycle, bool draining, uint64_t quiet, uint64_t enough, bool ended,
                  bool &done)
    {
        half(1);
        cycle++;
        if (rtl_failed("cycle", cycle))
            return 1;
        if (draining && quiet > enough && ended)
            done = true;
        if (draining && quiet > 100000) {
            printf("TIMEOUT: no final END\n");
            return 1;
        }
        return 0;
    }

    // The same for the SoC benches, whose firmware ends the run: quiet
    // counts from the flush (0 before it), done after enough clocks of it,
    // a TIMEOUT when the firmware has not exited within max_cycles.
    int end_firmware_clock(uint64_t &cycle, uint64_t &quiet, uint64_t enough,
                           uint64_t max_cycles, bool &done)
    {
        top_->clk = 1;
        top_->eval();
        cycle++;
        if (rtl_failed("clock", cycle))
            return 1;
        if (quiet && ++quiet > enough)
            done = true;
        if (cycle >= max_cycles) {
            printf("TIMEOUT: the firmware did not exit within %llu clocks\n",
                   (unsigned long long)max_cycles);
            return 1;
        }
        return 0;
    }

    // true, with a message naming the place ("cycle", n), when an RTL
    // assertion or $error has fired.
    bool rtl_failed(const char *unit, uint64_t n) const
    {
        if (!ctx_->gotError())
            return false;
        printf("ASSERTION failed in the RTL at %s %llu\n", unit, (unsigned long long)n);
        return true;
    }
};

// main()'s first step: the options into opts' destinations, min_pos to
// max_pos positional arguments into pos. false after printing the usage
// (main returns 2).
static inline bool sim_options(int argc, char **argv, const char *prog, const char *positional,
                               const std::vector<SimOpt> &opts, std::vector<const char *> &pos,
                               size_t min_pos, size_t max_pos)
{
    if (sim_parse(argc, argv, opts, pos, max_pos) && pos.size() >= min_pos)
        return true;
    sim_usage(prog, positional, opts);
    return false;
}

// main()'s last step: the bench's setup, then its run; 2 when setup fails.
template <class Bench> int sim_run(Bench &b)
{
    return b.setup() ? b.run() : 2;
}

// main() of a harness without positional arguments whose bench is made
// from its options alone.
template <class Opts, class Bench>
int sim_main(int argc, char **argv, const char *prog, std::vector<SimOpt> (*table)(Opts &))
{
    Opts o;
    std::vector<const char *> pos;
    if (!sim_options(argc, argv, prog, "", table(o), pos, 0, 0))
        return 2;
    Bench b(o);
    return sim_run(b);
}

// Writes buf to path through a temporary file beside it, renamed on
// success; false, with a message naming the harness and the file, on error.
static inline bool sim_write_file(const char *prog, const std::string &path, const void *buf,
                                  size_t len)
{
    std::string tmp = path + ".tmp";
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", prog, tmp.c_str());
        return false;
    }
    bool ok = fwrite(buf, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", prog, path.c_str());
        remove(tmp.c_str());
        return false;
    }
    return true;
}

// false, with a message naming the harness, when path cannot be read.
static inline bool sim_can_read(const char *prog, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", prog, path);
        return false;
    }
    fclose(f);
    return true;
}

#endif
