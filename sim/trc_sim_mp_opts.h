// trc_sim_mp_opts.h - the options of the trc_mpcore harness
// (sim/trc_sim_mp.cpp): the traffic's phases, the markers, controls and
// SYNCs, the directed probes and the least each must reach.
#ifndef TRC_SIM_MP_OPTS_H
#define TRC_SIM_MP_OPTS_H

#include <cstdint>
#include <vector>

#include "trc_sim_opts.h"

namespace {

struct Opts {
    uint64_t events = 20000, idles = 2, seed = 1, storms = 2, sats = 2, marks = 20, ctls = 12;
    uint64_t syncs = 12, min_syncs = 0, probes = 0, min_due = 0, wprobes = 0, min_both = 0;
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
        {"--probes", SimOpt::UINT, &o.probes,
         "N  probes of the broadcast rule's TIME_EXT falling due, first (0)"},
        {"--min-due", SimOpt::UINT, &o.min_due,
         "N  with probes: fail if fewer clocks reach that case (0)"},
        {"--wprobes", SimOpt::UINT, &o.wprobes,
         "N  probes of a whole record written beside a waiting step, next (0)"},
        {"--min-both", SimOpt::UINT, &o.min_both,
         "N  fail if fewer clocks reach that case (whole probes or not) (0)"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  output stall probability (0.2)"},
        {"--min-rate", SimOpt::DOUBLE, &o.min_rate,
         "R  fail if records/clock under saturation ends below R"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
    };
}

} // namespace

#endif
