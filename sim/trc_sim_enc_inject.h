// trc_sim_enc_inject.h - the --inject check of the trc_enc harness
// (sim/trc_sim_enc.cpp): seeded bit errors on the RTL's output, each damaged
// stream decoded by the model as the trc tools read it, and the count of
// what was caught and what was recovered.
#ifndef TRC_SIM_ENC_INJECT_H
#define TRC_SIM_ENC_INJECT_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "trc.h"
#include "trc_sim_expect.h"
#include "trc_sim_util.h"

// Decodes s with the model (checked when the build is): 0 when it
// decodes to the end without an error.
static int decode_fails(const trc_params &p, const std::vector<uint8_t> &s)
{
    trc_decoder d;
    trc_decoder_init(&d, &p);
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
// a unit that fails, resumed at the next unit trc_check_find() finds whose
// count word's loss could fit in the bytes skipped, the records in between
// counted lost from that count word. Sets the units that failed, the
// records decoded and lost, and whether the damage reached the end (no
// unit after it: the loss there is unknown).
struct Resync {
    uint64_t damaged = 0, decoded = 0, lost = 0;
    bool open_end = false;
};
static Resync resync_decode(const trc_params &p, const std::vector<uint8_t> &s)
{
    Resync r;
    trc_decoder d;
    trc_decoder_init(&d, &p);
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
        size_t c = 0, end, from = ustart + 8, gap = ustart;
        uint64_t recs;
        uint32_t count;
        bool closed = false; // the last unit found is a closing unit
        for (;;) {
            if (trc_check_find(&p, s.data(), s.size(), from, &c, &end, &recs,
                               &count) != TRC_OK) {
                r.open_end = !(closed && from == s.size());
                return r;
            }
            uint32_t before = (count - (uint32_t)recs) & 0x7FFFFFFFu;
            uint32_t k = (before - (uint32_t)(r.decoded + r.lost)) & 0x7FFFFFFFu;
            // believed only if the records lost could have fitted in the
            // bytes skipped (a record takes at least one bit), as the trc
            // tools do: a unit that checks but does not belong here (a stale
            // one from an earlier lap of a trace buffer) is passed over
            if (k > 8u * (uint64_t)(c - gap)) {
                from = c + 8u;
                continue;
            }
            r.lost += k;
            if (end - c > 8u)
                break;
            from = gap = end; // closing units: the loss so far; look further
            closed = true;
        }
        trc_decoder_init(&d, &p);
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
// wire: the RTL's output of a run without a reset, count: N, seed: the
// run's. 0 or 1 (message printed).
static int inject_check(const trc_params &p, const std::vector<uint8_t> &wire, uint64_t count,
                        uint64_t seed)
{
    if (decode_fails(p, wire)) {
        printf("INJECT: the undamaged output does not decode\n");
        return 1;
    }
    Resync ref = TRC_P_CHECK ? resync_decode(p, wire) : Resync();
    if (ref.damaged) {
        printf("INJECT: the undamaged output reads as damaged\n");
        return 1;
    }
    SimRng g(seed * 7919u + 1u);
    uint64_t caught[2] = {0, 0}, tried[2] = {0, 0};
    uint64_t exact = 0, open_end = 0, wrong = 0;
    uint64_t nbits = 8u * (uint64_t)wire.size();
    for (uint64_t t = 0; t < count; t++) {
        int burst = (int)(t & 1u);
        unsigned len = burst ? 2u + (unsigned)g.below(31) : 1u;
        uint64_t at = g.below(nbits - len + 1);
        std::vector<uint8_t> s = wire;
        for (unsigned i = 0; i < len; i++)
            if (i == 0 || i == len - 1 || g.below(2))
                s[(at + i) / 8] ^= (uint8_t)(0x80u >> ((at + i) % 8));
        tried[burst]++;
        caught[burst] += (uint64_t)decode_fails(p, s);
        if (TRC_P_CHECK) {
            Resync r = resync_decode(p, s);
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
           (unsigned long long)count, wire.size(), TRC_P_CHECK,
           (unsigned long long)caught[0], (unsigned long long)tried[0],
           (unsigned long long)caught[1], (unsigned long long)tried[1]);
    if (TRC_P_CHECK)
        printf("resumed: %llu of %llu with decoded + lost = %llu records emitted, "
               "%llu with the loss at the end unknown, %llu wrong\n",
               (unsigned long long)exact, (unsigned long long)count,
               (unsigned long long)ref.decoded, (unsigned long long)open_end,
               (unsigned long long)wrong);
    if (TRC_P_CHECK && (caught[0] != tried[0] || caught[1] != tried[1])) {
        printf("MISSED: a bit error decoded without an error\n");
        return 1;
    }
    if (TRC_P_CHECK && (wrong || open_end || exact != count)) {
        printf("MISCOUNTED: decoded + lost differs from the records emitted\n");
        return 1;
    }
    return 0;
}

#endif
