// trc_sim_core_check.h - the check of the trc_core harness: the stream of one
// segment (reset to reset, or to the end) decoded with the C model and
// matched with the events presented, exact absolute times, LOST counts equal
// to the drops they cover, and, with SYNC_EVERY, frames that decode alone.
#ifndef TRC_SIM_CORE_CHECK_H
#define TRC_SIM_CORE_CHECK_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "trc.h"

#ifndef TRC_P_SYNC_EVERY
#define TRC_P_SYNC_EVERY 0
#endif

struct Ev {
    uint64_t t; // ticks since reset
    trc_record r;
    bool dropped;
};

struct Totals {
    uint64_t events = 0, delivered = 0, drops = 0, lost_recs = 0, time_ext = 0, end = 0;
    uint64_t frames = 0, bytes = 0, reset_lost = 0, segments = 0;
};

// Decodes src[0..len) completely into out; the error of the first bad record.
static inline trc_error decode_all(trc_decoder &d, const uint8_t *src, size_t len,
                                   std::vector<trc_record> &out)
{
    std::vector<trc_record> chunk(4096);
    size_t pos = 0;
    while (pos < len) {
        size_t used = 0, n = 0;
        trc_error e = trc_decode(&d, src + pos, len - pos, &used, chunk.data(), chunk.size(),
                                 &n, 1);
        out.insert(out.end(), chunk.begin(), chunk.begin() + (long)n);
        if (e != TRC_OK)
            return e;
        if (used == 0 && n == 0)
            break;
        pos += used;
    }
    return TRC_OK;
}

static inline bool same_rec(const trc_record &a, const trc_record &b)
{
    return a.kind == b.kind && a.a == b.a && a.b == b.b && a.delta == b.delta;
}

// Matches decoded records with the events presented (of one CPU): every
// delivered event at its exact absolute time, every LOST count covering
// exactly dropped events. final: every event must be accounted for; else the
// rest was inside the core at a reset (t.reset_lost). who names the CPU in
// messages ("" for one). first (may be null) says which records go before a
// LOST that waits (trc_mpcore's markers and control records): such a record
// may come before the LOST covering dropped events ahead of it in evs.
static inline int match_events(const std::vector<trc_record> &out, const std::vector<Ev> &evs,
                               uint64_t drops, bool final, const char *who, Totals &t_all,
                               bool (*first)(const trc_record &) = nullptr)
{
    int rc = 0;
    uint64_t t = 0, lost_sum = 0, delivered = 0, lost_recs = 0;
    size_t gi = 0;
    std::vector<size_t> owed; // dropped events a first record went past
    for (size_t i = 0; i < out.size() && rc == 0; i++) {
        const trc_record &r = out[i];
        t += r.delta;
        bool is_first = first && first(r);
        if (is_first) {
            while (gi < evs.size() && evs[gi].dropped)
                owed.push_back(gi++);
        }
        if (r.kind == TRC_LOST) {
            lost_recs++;
            lost_sum += r.a;
            uint32_t k = 0;
            for (; k < r.a && !owed.empty(); k++)
                owed.erase(owed.begin());
            for (; k < r.a; k++, gi++) {
                if (gi >= evs.size() || !evs[gi].dropped) {
                    printf("%sLOST MISMATCH: record %zu counts %u, event %zu was not dropped\n",
                           who, i, r.a, gi);
                    rc = 1;
                    break;
                }
            }
            continue;
        }
        if (gi >= evs.size() || (!owed.empty() && !is_first)) {
            printf("%s%s at record %zu\n", who,
                   owed.empty() ? "EXTRA EVENT" : "EVENT BEFORE THE LOST OF EARLIER DROPS", i);
            if (getenv("TRC_SIM_DEBUG")) {
                uint64_t tt = 0;
                for (size_t j = 0; j < out.size() && j < i + 4; j++) {
                    tt += out[j].delta;
                    if (j + 8 >= i)
                        printf("  out %zu: kind %u a %u b %u t %llu\n", j, out[j].kind, out[j].a,
                               out[j].b, (unsigned long long)tt);
                }
                for (size_t j = gi >= 8 ? gi - 8 : 0; j < evs.size() && j < gi + 6; j++)
                    printf("  ev %zu: kind %u a %u b %u t %llu%s\n", j, evs[j].r.kind, evs[j].r.a,
                           evs[j].r.b, (unsigned long long)evs[j].t, evs[j].dropped ? " dropped" : "");
            }
            rc = 1;
            break;
        }
        const Ev &g = evs[gi];
        bool same_kind = r.kind == g.r.kind;
        if (g.dropped || !same_kind || r.a != g.r.a || (r.kind == TRC_OS && r.b != g.r.b) ||
            t != g.t) {
            printf("%sEVENT MISMATCH at record %zu (event %zu): got kind %u a %u b %u t %llu, "
                   "want kind %u a %u b %u t %llu%s\n",
                   who, i, gi, r.kind, r.a, r.b, (unsigned long long)t, g.r.kind, g.r.a, g.r.b,
                   (unsigned long long)g.t, g.dropped ? " (dropped)" : "");
            rc = 1;
            break;
        }
        gi++;
        delivered++;
    }
    if (!final) {
        // The rest was inside the core (or the LOST count waiting) at the reset.
        t_all.reset_lost += evs.size() - gi + owed.size();
    } else if (rc == 0 && !owed.empty()) {
        printf("%sMISSING LOST for %zu dropped events\n", who, owed.size());
        rc = 1;
    } else if (rc == 0 && gi != evs.size()) {
        printf("%sMISSING EVENTS: %zu of %zu accounted for\n", who, gi, evs.size());
        rc = 1;
    }
    if (rc == 0 && final && lost_sum != drops) {
        printf("%sLOST SUM %llu != dropped %llu\n", who, (unsigned long long)lost_sum,
               (unsigned long long)drops);
        rc = 1;
    }
    t_all.events += evs.size();
    t_all.delivered += delivered;
    t_all.drops += drops;
    t_all.lost_recs += lost_recs;
    return rc;
}

// Checks one segment of the stream (reset to reset, or to the end): decodes
// the bytes up to the last tlast and matches every record with the events.
// final: the segment ended with the final flush, so every event must be
// accounted for; otherwise events after the last delivered one were inside
// the core at the reset (counted in t.reset_lost).
static inline int check_segment(const trc_params &p, const std::vector<Ev> &evs,
                                const std::vector<uint8_t> &bytes,
                                const std::vector<size_t> &tl, uint64_t drops, bool final,
                                Totals &t_all)
{
    size_t last_end = tl.empty() ? 0 : tl.back();
    trc_decoder d;
    if (trc_decoder_init(&d, &p) != TRC_OK)
        return 2;
    std::vector<trc_record> out;
    // Piece by piece (tlast to tlast); a piece that holds a SYNC ends a frame.
    const uint64_t every = TRC_P_SYNC_EVERY;
    size_t prev = 0, frame_start = 0, frame_first = 0;
    for (size_t k = 0; k < tl.size(); k++) {
        uint64_t syncs = d.st.sync;
        trc_error e = decode_all(d, bytes.data() + prev, tl[k] - prev, out);
        if (e != TRC_OK) {
            printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
                   (unsigned long long)trc_decoder_bit_offset(&d));
            return 1;
        }
        prev = tl[k];
        bool frame_end = d.st.sync != syncs;
        if (every && (frame_end || k + 1 == tl.size())) {
            // The frame alone, from a fresh decoder: the very same records.
            trc_decoder f;
            std::vector<trc_record> alone;
            if (trc_decoder_init(&f, &p) != TRC_OK)
                return 2;
            trc_error fe = decode_all(f, bytes.data() + frame_start, tl[k] - frame_start, alone);
            size_t n = out.size() - frame_first;
            bool same = fe == TRC_OK && alone.size() == n;
            for (size_t i = 0; same && i < n; i++)
                same = same_rec(alone[i], out[frame_first + i]);
            if (!same) {
                printf("FRAME %llu (bytes %zu..%zu) does not decode alone to the same "
                       "records (%s, %zu vs %zu records)\n",
                       (unsigned long long)t_all.frames, frame_start, tl[k],
                       trc_error_name(fe), alone.size(), n);
                return 1;
            }
            if (frame_end ? n != every : n >= every) {
                printf("FRAME %llu holds %zu trace records, SYNC_EVERY is %llu%s\n",
                       (unsigned long long)t_all.frames, n, (unsigned long long)every,
                       frame_end ? "" : " (last frame)");
                return 1;
            }
            if (frame_end)
                t_all.frames++;
            frame_start = tl[k];
            frame_first = out.size();
        }
    }
    int rc = match_events(out, evs, drops, final, "", t_all);
    t_all.time_ext += d.st.time_ext;
    t_all.end += d.st.end;
    t_all.bytes += last_end;
    t_all.segments++;
    return rc;
}

// Decodes a stream of several CPUs whole and splits its records by CPU into
// per[0..ncpu); *n: the records. false (message printed) on an error, or,
// with `whole`, when bytes are left over.
static inline bool decode_mp_split(const trc_params &p, const std::vector<uint8_t> &s,
                                   unsigned ncpu, std::vector<trc_record> *per, size_t *n,
                                   bool whole)
{
    auto dec = std::make_unique<trc_mp_decoder>();
    trc_mp_decoder_init(dec.get(), &p);
    std::vector<trc_record> out(s.size() * 8 + 16);
    std::vector<uint8_t> cpu(out.size(), 0);
    size_t used = 0;
    *n = 0;
    trc_error e = trc_mp_decode(dec.get(), s.data(), s.size(), &used, out.data(), cpu.data(),
                                out.size(), n, 1);
    if (e != TRC_OK || (whole && used != s.size())) {
        printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
               (unsigned long long)trc_mp_decoder_bit_offset(dec.get()));
        return false;
    }
    for (size_t i = 0; i < *n; i++)
        per[cpu[i]].push_back(out[i]);
    return true;
}

#endif
