// trc_sim_wave.h - optional FST waveform of a Verilator harness. Only the
// builds made with --trace-fst (make wave's) can write one; the regression's
// builds leave tracing out, which makes them compile about twice as fast.
#ifndef TRC_SIM_WAVE_H
#define TRC_SIM_WAVE_H

#include <cstdint>
#include <cstdio>
#include <memory>

#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

template <class Top> class SimWave {
  public:
    // false (with a message) when this build has no tracing
    bool open(VerilatedContext *ctx, Top *top, const char *path) {
#if VM_TRACE_FST
        ctx->traceEverOn(true);
        fst_ = std::make_unique<VerilatedFstC>();
        top->trace(fst_.get(), 99);
        fst_->open(path);
        return true;
#else
        (void)ctx;
        (void)top;
        fprintf(stderr, "cannot write %s: this harness was built without --trace-fst "
                        "(make wave builds one with it)\n", path);
        return false;
#endif
    }
    void dump(uint64_t t) {
#if VM_TRACE_FST
        if (fst_)
            fst_->dump(t);
#else
        (void)t;
#endif
    }
    void close() {
#if VM_TRACE_FST
        if (fst_)
            fst_->close();
#endif
    }

  private:
#if VM_TRACE_FST
    std::unique_ptr<VerilatedFstC> fst_;
#endif
};

#endif
