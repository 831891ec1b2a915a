// trc_sim_expect.h - the C model's side of the encoder harnesses: the stream
// the RTL must produce for a list of raw records, with where each record and
// each END/SYNC word ends in it.
#ifndef TRC_SIM_EXPECT_H
#define TRC_SIM_EXPECT_H

#include <cstdint>
#include <cstdio>
#include <vector>

#include "trc.h"

#ifndef TRC_P_SYNC_EVERY
#define TRC_P_SYNC_EVERY 0
#endif
#ifndef TRC_P_CHECK
#define TRC_P_CHECK 0 // 1: a checked stream (docs/format.md 4.10)
#endif

// The model's stream for raw[start..]: a fresh encoder, as after reset.
// With SYNC_EVERY = N (the build's parameter), a SYNC (delta 0) follows every
// N-th trace record (function, user OS, LOST) since the start or the last
// SYNC, as the RTL's frame counter does; a SYNC on the input restarts it.
struct Expect {
    size_t start = 0;
    std::vector<uint8_t> bytes;
    std::vector<size_t> ends;       // bytes after raw[start + k]
    std::vector<size_t> flush_ends; // byte counts where a word must end with tlast
    uint64_t frames = 0;            // SYNCs inserted for SYNC_EVERY
};

static inline bool model_stream(const trc_params &p, const std::vector<trc_record> &raw,
                                size_t start, Expect &x)
{
    trc_encoder e;
    if (trc_encoder_init(&e, &p) != TRC_OK)
        return false;
    e.check = TRC_P_CHECK;
    x = Expect();
    x.start = start;
    x.bytes.reserve((raw.size() - start) * 4 + 16);
    uint8_t buf[TRC_MAX_RECORD_BYTES];
    const uint64_t every = TRC_P_SYNC_EVERY;
    uint64_t in_frame = 0;
    for (size_t i = start; i < raw.size(); i++) {
        size_t n = 0;
        trc_error err = trc_encode_raw(&e, &raw[i], buf, sizeof buf, &n);
        if (err != TRC_OK) {
            fprintf(stderr, "model: raw record %zu: %s\n", i, trc_error_name(err));
            return false;
        }
        x.bytes.insert(x.bytes.end(), buf, buf + n);
        bool os = raw[i].kind == TRC_OS;
        if (os && (raw[i].a == TRC_TYPE_END(&p) || raw[i].a == TRC_TYPE_SYNC(&p)))
            x.flush_ends.push_back(x.bytes.size());
        if (every) {
            if (os && raw[i].a == TRC_TYPE_SYNC(&p))
                in_frame = 0;
            else if (!os || raw[i].a < TRC_TYPE_SYNC(&p))
                in_frame++;
            if (in_frame == every) {
                if (trc_encode_sync(&e, buf, sizeof buf, &n) != TRC_OK)
                    return false;
                x.bytes.insert(x.bytes.end(), buf, buf + n);
                x.flush_ends.push_back(x.bytes.size());
                x.frames++;
                in_frame = 0;
            }
        }
        x.ends.push_back(x.bytes.size());
    }
    return true;
}

static inline size_t record_at(const Expect &x, size_t off)
{
    size_t lo = 0, hi = x.ends.size();
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x.ends[mid] > off)
            hi = mid;
        else
            lo = mid + 1;
    }
    return x.start + lo;
}

#endif
