// trc_sim_enc_setup.h - the setup of the trc_enc harness
// (sim/trc_sim_enc.cpp): its options, and the raw records it feeds the RTL,
// made from a trace (or random:N) with the markers the options ask for.
#ifndef TRC_SIM_ENC_SETUP_H
#define TRC_SIM_ENC_SETUP_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "trc.h"
#include "trc_sim_opts.h"
#include "trc_sim_util.h"

struct Opts {
    const char *trace = nullptr;
    uint64_t out_w = 64;
    uint64_t records = 0;
    double stall_in = 0, stall_out = 0;
    uint64_t seed = 1;
    const char *wave = nullptr;
    bool map_ids = false;
    uint64_t reset_at = 0;   // reset after this many raw records (0: none)
    uint64_t sync_every = 0; // insert SYNC after every N raw records
    uint64_t end_every = 0;  // insert END after every N raw records
    bool junk = false;       // random values in the unused info bits
    uint64_t reserved = 0;   // insert a reserved-type record after every N
    double min_rate = 0;     // fail when records/cycle ends below this
    uint64_t violate = 0;    // change the input beat in the N-th cycle it is held
    bool progress = false;   // progress lines on stderr (also when it is a tty)
    uint64_t inject = 0;     // bit errors injected into the output afterwards
};

static std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--out-w", SimOpt::UINT, &o.out_w, "W  output width 8, 16, 32 or 64 (64)"},
        {"--records", SimOpt::UINT, &o.records, "N  first N trace records only"},
        {"--stall-in", SimOpt::DOUBLE, &o.stall_in, "P  chance of a cycle without tvalid"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  chance of a cycle without tready"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds stalls, random traces, initial state"},
        {"--wave", SimOpt::STR, &o.wave, "F  FST waveform (builds with tracing only)"},
        {"--map-ids", SimOpt::FLAG, &o.map_ids, "   function id mod 2^FID_W"},
        {"--reset-at", SimOpt::UINT, &o.reset_at, "K  reset a few cycles after record K"},
        {"--sync-every", SimOpt::UINT, &o.sync_every, "N  a SYNC after every N raw records"},
        {"--end-every", SimOpt::UINT, &o.end_every, "N  an END after every N raw records"},
        {"--junk", SimOpt::FLAG, &o.junk, "   random values in the unused info bits"},
        {"--reserved", SimOpt::UINT, &o.reserved, "N  a reserved type after every N"},
        {"--inject", SimOpt::UINT, &o.inject,
         "N  then N seeded bit errors (single, bursts) on the output, each decoded"},
        {"--min-rate", SimOpt::DOUBLE, &o.min_rate, "R  fail below R records/cycle"},
        {"--violate", SimOpt::UINT, &o.violate,
         "N  break the handshake in the N-th held cycle (an assertion must fire)"},
        {"--progress", SimOpt::FLAG, &o.progress,
         "   progress on stderr (default: when it is a terminal)"},
    };
}

// false with a message (the caller prints the usage)
static bool parse(int argc, char **argv, Opts &o)
{
    std::vector<const char *> pos;
    if (!sim_parse(argc, argv, opt_table(o), pos, 1))
        return false;
    if (pos.empty()) {
        fprintf(stderr, "%s: no trace given\n", argv[0]);
        return false;
    }
    o.trace = pos[0];
    if (o.out_w != 8 && o.out_w != 16 && o.out_w != 32 && o.out_w != 64) {
        fprintf(stderr, "%s: --out-w must be 8, 16, 32 or 64\n", argv[0]);
        return false;
    }
    if (!(o.stall_in >= 0 && o.stall_in < 1 && o.stall_out >= 0 && o.stall_out < 1)) {
        fprintf(stderr, "%s: stall chances must be in [0, 1)\n", argv[0]);
        return false;
    }
    return true;
}

// ---- the raw records

struct Records {
    std::vector<trc_record> tr;   // trace records
    std::vector<trc_record> raw;  // what the RTL gets, END last
    std::vector<size_t> raw2trace; // raw[i] belongs to tr[raw2trace[i]]
};

// Loads (or makes) the trace, lowers it and inserts the markers the options
// ask for; false (message printed) when the trace cannot be read.
static bool make_records(const Opts &o, const trc_params &p, Records &rc)
{
    std::string err;
    if (strncmp(o.trace, "random:", 7) == 0) {
        sim_random_trace(p, strtoull(o.trace + 7, nullptr, 0), o.seed, rc.tr);
    } else if (!sim_load_trace(o.trace, p, o.records, o.map_ids, rc.tr, err)) {
        fprintf(stderr, "harness: %s\n", err.c_str());
        return false;
    }
    std::vector<trc_record> low;
    std::vector<size_t> l2t;
    sim_lower(p, rc.tr, low, l2t);
    SimRng rr(o.seed ^ 0x5eed);
    for (size_t i = 0; i < low.size(); i++) {
        rc.raw.push_back(low[i]);
        rc.raw2trace.push_back(l2t[i]);
        size_t k = i + 1;
        auto add = [&](unsigned type, uint32_t value) {
            trc_record m = sim_marker(p, type);
            m.delta = rr.below((1ull << p.nt));
            m.b = value;
            rc.raw.push_back(m);
            rc.raw2trace.push_back(l2t[i]);
        };
        if (o.reserved && k % o.reserved == 0) {
            // Reserved types on the port, values as given (bad-input test).
            unsigned t = (1u << p.type_w) - 1 - (unsigned)rr.below(4);
            uint64_t vmax = (1ull << p.val_w) - 1;
            add(t, (uint32_t)(rr.next() & vmax));
        }
        if (o.sync_every && k % o.sync_every == 0)
            add(TRC_TYPE_SYNC(&p), 0);
        if (o.end_every && k % o.end_every == 0)
            add(TRC_TYPE_END(&p), 0);
    }
    rc.raw.push_back(sim_marker(p, TRC_TYPE_END(&p)));
    rc.raw2trace.push_back(rc.tr.size());
    return true;
}


#endif
