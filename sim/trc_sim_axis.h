// trc_sim_axis.h - the output side every Verilator harness shares: the
// AXI-Stream rule of trc's m_axis port and the bytes of an accepted beat.
//
// The stream fills words from the most significant byte (docs/rtl.md,
// "m_axis"): tkeep is a run of ones from the MSB, never empty, and all ones
// on every word but a tlast one. The first stream byte of a word is in bits
// [OUT_W-1:OUT_W-8].
#ifndef TRC_SIM_AXIS_H
#define TRC_SIM_AXIS_H

#include <cstdint>
#include <cstdio>
#include <vector>

struct SimAxisOut {
    unsigned out_w; // 8, 16, 32 or 64

    explicit SimAxisOut(unsigned w) : out_w(w) {}

    // Valid bytes of a beat with this tkeep, or -1 when tkeep breaks the rule.
    int keep_bytes(unsigned keep, bool last) const
    {
        const unsigned kw = out_w / 8;
        unsigned n = 0;
        while (n < kw && ((keep >> (kw - 1 - n)) & 1))
            n++;
        unsigned want = n ? ((1u << kw) - 1) & ~((1u << (kw - n)) - 1) : 0;
        if (keep != want || n == 0 || (!last && n != kw))
            return -1;
        return (int)n;
    }

    // Appends the valid bytes of an accepted beat to out, first stream byte
    // first. false (out unchanged, a BAD TKEEP line printed with the stream
    // offset) when tkeep breaks the rule.
    bool take(uint64_t data, unsigned keep, bool last, std::vector<uint8_t> &out,
              uint64_t offset) const
    {
        int n = keep_bytes(keep, last);
        if (n < 0) {
            printf("BAD TKEEP 0x%x (tlast %d) at byte offset %llu\n", keep, last,
                   (unsigned long long)offset);
            return false;
        }
        for (int j = 0; j < n; j++)
            out.push_back((uint8_t)(data >> (out_w - 8 - 8 * (unsigned)j)));
        return true;
    }
};

// The first byte of got from at on that differs from want or that want
// does not hold yet; got.size() when there is none.
static inline size_t sim_first_diff(const std::vector<uint8_t> &got, size_t at,
                                    const std::vector<uint8_t> &want)
{
    for (size_t i = at; i < got.size(); i++)
        if (i >= want.size() || got[i] != want[i])
            return i;
    return got.size();
}

#endif
