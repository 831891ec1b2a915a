// trc_sim_soak.cpp - Verilator soak harness: N records (100 M for `make soak`)
// through trc_enc with nothing held on disk or in memory beyond one chunk.
//
// The records come in chunks of 65536, generated in the harness: even chunks
// are seeded random records (sim_random_trace, seed + chunk index: deltas 0,
// small, near 2^NT and several times above it, dictionary hits and misses),
// odd chunks loop over the sample traces' 20k-record prefixes given on the
// command line. Each chunk is lowered (TIME_EXT splitting), coded by the C
// model (trc_encode_raw, plus a SYNC after every SYNC_EVERY trace records as
// the RTL's frame counter does), then fed to the RTL under seeded random
// stalls. Two independent checks run as the bytes come out:
//   1. every byte and every tlast equals the model's stream;
//   2. a streaming decoder (trc_decode) turns the RTL's bytes back into
//      records, which must equal the generated records one by one (kind, ids,
//      values and deltas), so nothing is lost, duplicated or altered.
// At the end: records in = records decoded, frames = SYNCs seen.
//
// usage: trc_sim_soak --records N [--out-w W] [--stall-in P] [--stall-out P]
//        [--seed S] [TRACE.txt...]
#include <chrono>
#include <deque>
#include <memory>

#include "Vtrc_sim_enc.h"
#include "verilated.h"

#include "trc_sim_util.h"

#ifndef TRC_P_SYNC_EVERY
#define TRC_P_SYNC_EVERY 0
#endif

namespace {

const size_t CHUNK = 65536;

struct Soak {
    trc_params p;
    uint64_t seed;
    std::vector<std::vector<trc_record>> samples;
    size_t sample_i = 0, sample_pos = 0;
    uint64_t chunk_no = 0;
    // model side
    trc_encoder enc;
    uint64_t in_frame = 0;
    // expected stream: bytes not yet checked, tlast positions (absolute)
    std::deque<uint8_t> want;
    uint64_t want_base = 0; // absolute offset of want.front()
    std::deque<uint64_t> flush_at;
    // records expected back from the decoder
    std::deque<trc_record> want_rec;

    // Makes the next chunk: its raw records go to raw, its trace records to
    // want_rec, its model bytes to want.
    bool next_chunk(size_t n, std::vector<trc_record> &raw)
    {
        std::vector<trc_record> tr;
        if (chunk_no % 2 == 0 || samples.empty()) {
            sim_random_trace(p, n, seed + chunk_no, tr);
        } else {
            while (tr.size() < n) {
                const std::vector<trc_record> &s = samples[sample_i];
                size_t k = std::min(n - tr.size(), s.size() - sample_pos);
                tr.insert(tr.end(), s.begin() + (long)sample_pos,
                          s.begin() + (long)(sample_pos + k));
                sample_pos += k;
                if (sample_pos == s.size()) {
                    sample_pos = 0;
                    sample_i = (sample_i + 1) % samples.size();
                }
            }
        }
        chunk_no++;
        std::vector<size_t> r2t;
        raw.clear();
        sim_lower(p, tr, raw, r2t);
        want_rec.insert(want_rec.end(), tr.begin(), tr.end());
        uint8_t buf[TRC_MAX_RECORD_BYTES];
        for (const trc_record &r : raw) {
            size_t len = 0;
            if (trc_encode_raw(&enc, &r, buf, sizeof buf, &len) != TRC_OK)
                return false;
            want.insert(want.end(), buf, buf + len);
            bool os = r.kind == TRC_OS;
            if (TRC_P_SYNC_EVERY) {
                if (os && r.a == TRC_TYPE_SYNC(&p))
                    in_frame = 0;
                else if (!os || r.a < TRC_TYPE_SYNC(&p))
                    in_frame++;
                if (in_frame == TRC_P_SYNC_EVERY) {
                    if (trc_encode_sync(&enc, buf, sizeof buf, &len) != TRC_OK)
                        return false;
                    want.insert(want.end(), buf, buf + len);
                    flush_at.push_back(want_base + want.size());
                    in_frame = 0;
                }
            }
        }
        return true;
    }

    // The final END.
    bool finish(void)
    {
        uint8_t buf[TRC_MAX_RECORD_BYTES];
        size_t len = 0;
        if (trc_encode_end(&enc, buf, sizeof buf, &len) != TRC_OK)
            return false;
        want.insert(want.end(), buf, buf + len);
        flush_at.push_back(want_base + want.size());
        return true;
    }
};

int run(uint64_t n_records, unsigned out_w, double stall_in, double stall_out, uint64_t seed,
        const std::vector<std::string> &traces)
{
    Soak s;
    s.p = sim_params();
    s.seed = seed;
    for (const std::string &t : traces) {
        std::vector<trc_record> tr;
        std::string err;
        if (!sim_load_trace(t.c_str(), s.p, 0, false, tr, err)) {
            fprintf(stderr, "soak: %s\n", err.c_str());
            return 2;
        }
        if (!tr.empty())
            s.samples.push_back(tr);
    }
    if (trc_encoder_init(&s.enc, &s.p) != TRC_OK)
        return 2;
    trc_decoder dec;
    if (trc_decoder_init(&dec, &s.p) != TRC_OK)
        return 2;

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7fffffff));
    ctx->fatalOnError(false);
    auto top = std::make_unique<Vtrc_sim_enc>(ctx.get(), "top");
    unsigned sel = 0;
    while ((8u << sel) != out_w)
        sel++;
    top->out_sel = sel;
    const unsigned kw = out_w / 8;
    SimRng rng(seed);

    std::vector<trc_record> raw;
    size_t raw_pos = 0;
    uint64_t made = 0, raw_in = 0, decoded = 0, bytes = 0, tlasts = 0, cycle = 0;
    bool ended_input = false, presenting = false;
    std::vector<uint8_t> pend; // RTL bytes the decoder has not finished
    std::vector<trc_record> dout(8192);
    int rc = 0;
    auto t0 = std::chrono::steady_clock::now();

    auto decode_some = [&](bool final) -> bool {
        size_t pos = 0;
        for (;;) {
            size_t used = 0, n = 0;
            trc_error e = trc_decode(&dec, pend.data() + pos, pend.size() - pos, &used,
                                     dout.data(), dout.size(), &n, final);
            for (size_t i = 0; i < n; i++) {
                const trc_record &g = dout[i];
                if (s.want_rec.empty()) {
                    printf("EXTRA RECORD decoded after %llu\n", (unsigned long long)decoded);
                    return false;
                }
                const trc_record &w = s.want_rec.front();
                if (g.kind != w.kind || g.a != w.a || g.b != w.b || g.delta != w.delta) {
                    printf("RECORD MISMATCH at record %llu: got kind %u a %u b %u delta %llu, "
                           "want kind %u a %u b %u delta %llu\n",
                           (unsigned long long)decoded, g.kind, g.a, g.b,
                           (unsigned long long)g.delta, w.kind, w.a, w.b,
                           (unsigned long long)w.delta);
                    return false;
                }
                s.want_rec.pop_front();
                decoded++;
            }
            if (e != TRC_OK) {
                printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
                       (unsigned long long)trc_decoder_bit_offset(&dec));
                return false;
            }
            pos += used;
            if (used == 0 && n == 0)
                break;
        }
        pend.erase(pend.begin(), pend.begin() + (long)pos);
        return true;
    };

    // reset
    top->rst = 1;
    top->s_axis_tvalid = 0;
    top->m_axis_tready = 0;
    for (int i = 0; i < 4; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    uint64_t quiet = 0;
    for (;;) {
        if (raw_pos == raw.size() && !ended_input) {
            if (made < n_records) {
                size_t n = (size_t)std::min<uint64_t>(CHUNK, n_records - made);
                if (!s.next_chunk(n, raw))
                    return 2;
                made += n;
            } else {
                // the final END goes through the RTL as a raw record too
                raw.assign(1, sim_marker(s.p, TRC_TYPE_END(&s.p)));
                if (!s.finish())
                    return 2;
                ended_input = true;
            }
            raw_pos = 0;
        }
        top->clk = 0;
        top->eval();
        if (!presenting && raw_pos < raw.size())
            presenting = !rng.chance(stall_in);
        top->s_axis_tvalid = presenting;
        top->s_axis_tdata = presenting ? sim_pack(s.p, raw[raw_pos]) : 0;
        top->m_axis_tready = !rng.chance(stall_out);
        top->eval();
        bool in_fire = top->s_axis_tvalid && top->s_axis_tready;
        if (top->m_axis_tvalid && top->m_axis_tready) {
            uint64_t data = top->m_axis_tdata;
            unsigned keep = top->m_axis_tkeep;
            bool last = top->m_axis_tlast;
            unsigned nkeep = 0;
            while (nkeep < kw && ((keep >> (kw - 1 - nkeep)) & 1))
                nkeep++;
            if (nkeep == 0 || (!last && nkeep != kw)) {
                printf("BAD TKEEP 0x%x at byte offset %llu\n", keep, (unsigned long long)bytes);
                rc = 1;
                break;
            }
            for (unsigned j = 0; j < nkeep; j++) {
                uint8_t b = (uint8_t)(data >> (out_w - 8 - 8 * j));
                if (s.want.empty() || b != s.want.front()) {
                    printf("MISMATCH at byte offset %llu: rtl 0x%02x model %s\n",
                           (unsigned long long)bytes, b,
                           s.want.empty() ? "(none)" : std::to_string(s.want.front()).c_str());
                    rc = 1;
                    break;
                }
                s.want.pop_front();
                s.want_base++;
                pend.push_back(b);
                bytes++;
            }
            if (rc)
                break;
            bool at_flush = !s.flush_at.empty() && s.flush_at.front() == bytes;
            if (last != at_flush) {
                printf("BAD TLAST %d at byte offset %llu\n", last, (unsigned long long)bytes);
                rc = 1;
                break;
            }
            if (last) {
                s.flush_at.pop_front();
                tlasts++;
            }
            if (pend.size() >= 65536 && !decode_some(false)) {
                rc = 1;
                break;
            }
            quiet = 0;
        } else if (ended_input && raw_pos == raw.size()) {
            quiet++;
        }
        top->clk = 1;
        top->eval();
        cycle++;
        if (in_fire) {
            raw_pos++;
            raw_in++;
            presenting = false;
        }
        if (ctx->gotError()) {
            printf("ASSERTION failed in the RTL at cycle %llu\n", (unsigned long long)cycle);
            rc = 1;
            break;
        }
        if (ended_input && raw_pos == raw.size() && s.want.empty())
            break;
        if (quiet > 10000) {
            printf("TIMEOUT: %zu model bytes never came out\n", s.want.size());
            rc = 1;
            break;
        }
    }
    top->final();
    if (rc == 0 && !decode_some(true))
        rc = 1;
    if (rc == 0 && (decoded != made || !s.want_rec.empty())) {
        printf("LOST RECORDS: %llu in, %llu decoded\n", (unsigned long long)made,
               (unsigned long long)decoded);
        rc = 1;
    }
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("soak records %llu decoded %llu raw %llu bytes %llu frames %llu tlast %llu "
           "cycles %llu out_w %u stall-in %.2f stall-out %.2f seed %llu sync_every %u "
           "time %.1f s (%.2f M records/s) %s\n",
           (unsigned long long)made, (unsigned long long)decoded, (unsigned long long)raw_in,
           (unsigned long long)bytes, (unsigned long long)dec.st.sync,
           (unsigned long long)tlasts, (unsigned long long)cycle, out_w, stall_in, stall_out,
           (unsigned long long)seed, (unsigned)TRC_P_SYNC_EVERY, secs, made / secs / 1e6,
           rc ? "FAIL" : "PASS");
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t records = 1000000, seed = 1;
    unsigned out_w = 64;
    double stall_in = 0, stall_out = 0;
    std::vector<std::string> traces;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc) {
                fprintf(stderr, "soak: %s needs a value\n", a.c_str());
                return 2;
            }
            const char *v = argv[++i];
            if (a == "--records")
                records = strtoull(v, nullptr, 0);
            else if (a == "--out-w")
                out_w = (unsigned)strtoul(v, nullptr, 0);
            else if (a == "--stall-in")
                stall_in = strtod(v, nullptr);
            else if (a == "--stall-out")
                stall_out = strtod(v, nullptr);
            else if (a == "--seed")
                seed = strtoull(v, nullptr, 0);
            else {
                fprintf(stderr, "soak: unknown option %s\n", a.c_str());
                return 2;
            }
        } else {
            traces.push_back(a);
        }
    }
    if (out_w != 8 && out_w != 16 && out_w != 32 && out_w != 64) {
        fprintf(stderr, "soak: --out-w must be 8, 16, 32 or 64\n");
        return 2;
    }
    return run(records, out_w, stall_in, stall_out, seed, traces);
}
