// trc_sim_cdc_check.h - the events and the check of the dual-clock
// harness (sim/trc_sim_cdc.cpp): the events the CPU side presented, with
// the clock edges that took them, and the check of each segment of the
// output (reset to reset) decoded with the C model against them: order,
// LOST counts, silent loss and latency (the list in trc_sim_cdc.cpp).
#ifndef TRC_SIM_CDC_CHECK_H
#define TRC_SIM_CDC_CHECK_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "trc.h"
#include "trc_sim_util.h"

#ifndef TRC_P_CDC_SYNC
#define TRC_P_CDC_SYNC 2
#endif

struct Ev {
    trc_record r;
    double t_cpu;      // time of the CPU edge that took it
    uint64_t e1;       // index of the first trc edge after that CPU edge
    bool dropped;      // ev_drop: dropped at the crossing (counted)
    bool ignored;      // ev_rst: the front end was in reset
};

struct Seg {
    std::vector<uint8_t> bytes;
    std::vector<size_t> tl;  // byte counts at each tlast
    uint64_t k_r = 0;        // index of the last trc edge that sampled rst = 1
};

struct Result {
    uint64_t delivered = 0, lost_sum = 0, lost_recs = 0;
    int64_t lat_min = INT64_MAX, lat_max = 0;        // trc edges
    double lat_t_min = 1e300, lat_t_max = 0;          // trc clock periods
};

static trc_error decode_all(const trc_params &p, const uint8_t *src, size_t len,
                            std::vector<trc_record> &out, uint64_t *bit)
{
    trc_decoder d;
    trc_decoder_init(&d, &p);
    std::vector<trc_record> chunk(4096);
    size_t pos = 0;
    for (;;) {
        size_t used = 0, n = 0;
        trc_error e = trc_decode(&d, src + pos, len - pos, &used, chunk.data(), chunk.size(),
                                 &n, 1);
        out.insert(out.end(), chunk.begin(), chunk.begin() + (long)n);
        pos += used;
        if (e != TRC_OK) {
            *bit = trc_decoder_bit_offset(&d);
            return e;
        }
        if (n < chunk.size())
            return TRC_OK;
    }
}

static bool same_event(const trc_record &a, const trc_record &b)
{
    return a.kind == b.kind && a.a == b.a && a.b == b.b;
}

class Harness {
public:
    Harness(uint64_t seed, double ratio_cpu, double ratio_trc, double jitter)
        : rng(seed), jit(jitter)
    {
        p = sim_params();
        // the faster clock has period 1000 (time units of the harness)
        double fmax = std::max(ratio_cpu, ratio_trc);
        per_cpu = 1000.0 * fmax / ratio_cpu;
        per_trc = 1000.0 * fmax / ratio_trc;
    }

    SimRng rng;
    double jit, per_cpu, per_trc;
    trc_params p;
    std::vector<Ev> evs;        // every event the CPU presented, in order
    std::vector<double> trc_t;  // time of each trc edge
    uint64_t cpu_drops = 0, core_drops = 0;

    double period(double nominal) { return nominal * (1.0 + jit * (2.0 * (double)rng.below(1u << 20) / (1u << 20) - 1.0)); }

    trc_record make_event(uint64_t seq)
    {
        trc_record r;
        r.delta = 0;
        if (rng.below(10) < 7) {
            r.kind = rng.below(2) ? TRC_EXIT : TRC_ENTRY;
            r.a = (uint32_t)(seq & ((1ull << p.fid_w) - 1));
            r.b = 0;
        } else {
            r.kind = TRC_OS;
            r.a = 1 + (uint32_t)(seq % 5); // user types, below the reserved four
            r.b = (uint32_t)(seq & ((1ull << p.val_w) - 1));
        }
        return r;
    }

    // Checks one segment's records against the events. from: index of the
    // first event the segment may hold; complete_from: with final, every
    // event from there on must be accounted for. Returns 0 or 1 (message
    // printed); *next gets the index after the last event accounted for.
    int check(const Seg &s, size_t from, bool final, size_t complete_from, size_t *next,
              Result &res)
    {
        size_t end = final ? s.bytes.size() : (s.tl.empty() ? 0 : s.tl.back());
        std::vector<trc_record> recs;
        uint64_t bit = 0;
        trc_error e = end || final ? decode_all(p, s.bytes.data(), end, recs, &bit) : TRC_OK;
        if (e != TRC_OK) {
            printf("DECODE ERROR %s at byte %llu, bit %llu of a segment of %zu bytes\n",
                   trc_error_name(e), (unsigned long long)(bit / 8),
                   (unsigned long long)(bit % 8), end);
            return 1;
        }
        if (getenv("TRC_CDC_DEBUG")) {
            for (size_t i = 0; i < recs.size() && i < 12; i++)
                printf("rec %zu: d %llu kind %u a %u b %u\n", i, (unsigned long long)recs[i].delta,
                       recs[i].kind, recs[i].a, recs[i].b);
            for (size_t j = from; j < evs.size() && j < from + 16; j++)
                printf("ev %zu: kind %u a %u b %u dropped %d ignored %d e1 %llu%s\n", j,
                       evs[j].r.kind, evs[j].r.a, evs[j].r.b, evs[j].dropped, evs[j].ignored,
                       (unsigned long long)evs[j].e1, j == complete_from ? " <- complete_from" : "");
        }
        size_t at = from;
        uint64_t pending = 0, tick = 0;
        bool synced = false;
        for (size_t i = 0; i < recs.size(); i++) {
            const trc_record &r = recs[i];
            tick += r.delta;
            if (r.kind == TRC_LOST) {
                pending += r.a;
                res.lost_sum += r.a;
                res.lost_recs++;
                continue;
            }
            // skip the events the LOST records counted (and, at a segment's
            // start, those a reset gave up)
            size_t k = at;
            uint64_t skip = pending;
            if (!synced) {
                while (k < evs.size() &&
                       (evs[k].ignored || evs[k].dropped || !same_event(evs[k].r, r)))
                    k++;
                if (k == evs.size()) {
                    printf("SEGMENT START: record %zu (kind %u a %u b %u) matches no event\n",
                           i, r.kind, r.a, r.b);
                    return 1;
                }
                uint64_t gap = 0;
                for (size_t j = at; j < k; j++)
                    gap += !evs[j].ignored;
                if (final && k > complete_from) {
                    uint64_t must = 0;
                    for (size_t j = complete_from; j < k; j++)
                        must += !evs[j].ignored;
                    if (pending != must) {
                        printf("LOST at the final segment's start: %llu counted, %llu missing\n",
                               (unsigned long long)pending, (unsigned long long)must);
                        return 1;
                    }
                } else if (pending > gap) {
                    printf("LOST before the segment's first event: %llu > %llu missing\n",
                           (unsigned long long)pending, (unsigned long long)gap);
                    return 1;
                }
                synced = true;
            } else {
                while (k < evs.size() && (evs[k].ignored || skip > 0)) {
                    if (!evs[k].ignored)
                        skip--;
                    k++;
                }
                if (k == evs.size() || !same_event(evs[k].r, r)) {
                    printf("MISMATCH at record %zu: got kind %u a %u b %u; expected event %zu "
                           "(kind %u a %u b %u) after skipping %llu lost\n",
                           i, r.kind, r.a, r.b, k, k < evs.size() ? evs[k].r.kind : 0,
                           k < evs.size() ? evs[k].r.a : 0, k < evs.size() ? evs[k].r.b : 0,
                           (unsigned long long)pending);
                    return 1;
                }
            }
            const Ev &ev = evs[k];
            if (ev.dropped) {
                printf("DELIVERED an event the front end reported dropped (event %zu)\n", k);
                return 1;
            }
            // time: the presentation edge P = k_r + tick
            uint64_t P = s.k_r + tick;
            int64_t lat = (int64_t)P - (int64_t)ev.e1;
            if (lat < TRC_P_CDC_SYNC + 1) {
                printf("TOO EARLY: event %zu presented %lld trc edges after the first edge "
                       "that follows its CPU edge (minimum %d)\n",
                       k, (long long)lat, TRC_P_CDC_SYNC + 1);
                return 1;
            }
            if (exact && lat != TRC_P_CDC_SYNC + 1) {
                printf("LATENCY: event %zu took %lld trc edges, not %d\n", k, (long long)lat,
                       TRC_P_CDC_SYNC + 1);
                return 1;
            }
            res.lat_min = std::min(res.lat_min, lat);
            res.lat_max = std::max(res.lat_max, lat);
            if (P < trc_t.size()) {
                double lt = (trc_t[P] - ev.t_cpu) / per_trc;
                res.lat_t_min = std::min(res.lat_t_min, lt);
                res.lat_t_max = std::max(res.lat_t_max, lt);
            }
            res.delivered++;
            pending = 0;
            at = k + 1;
        }
        if (final) {
            uint64_t left = 0;
            for (size_t j = std::max(at, complete_from); j < evs.size(); j++)
                left += !evs[j].ignored;
            if (left != pending) {
                printf("SILENT LOSS: %llu events neither delivered nor counted at the end "
                       "(LOST pending %llu)\n", (unsigned long long)left,
                       (unsigned long long)pending);
                return 1;
            }
        }
        *next = at;
        return 0;
    }

    bool exact = false, no_loss = false;
};

#endif
