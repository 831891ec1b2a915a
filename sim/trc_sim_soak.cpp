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
// `trc_sim_soak --help` prints the options.
#include <chrono>
#include <deque>
#include <memory>

#include "Vtrc_sim_enc.h"
#include "verilated.h"

#include "trc_sim_axis.h"
#include "trc_sim_bench.h"
#include "trc_sim_opts.h"
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

struct Opts {
    uint64_t records = 1000000, seed = 1, out_w = 64;
    double stall_in = 0, stall_out = 0;
};

std::vector<SimOpt> opt_table(Opts &o)
{
    return {
        {"--records", SimOpt::UINT, &o.records, "N  records to send (1000000)"},
        {"--out-w", SimOpt::UINT, &o.out_w, "W  output width 8, 16, 32 or 64 (64)"},
        {"--stall-in", SimOpt::DOUBLE, &o.stall_in, "P  chance of a cycle without tvalid"},
        {"--stall-out", SimOpt::DOUBLE, &o.stall_out, "P  chance of a cycle without tready"},
        {"--seed", SimOpt::UINT, &o.seed, "S  seeds records, stalls and initial state"},
    };
}

// ---- drive and check: chunks in, bytes compared and decoded as they come

class Bench : SimBench<Vtrc_sim_enc> {
  public:
    Bench(const Opts &o, Soak &s) : o_(o), s_(s), axis_((unsigned)o.out_w), rng_(o.seed) {}

    bool setup()
    {
        if (trc_encoder_init(&s_.enc, &s_.p) != TRC_OK ||
            trc_decoder_init(&dec_, &s_.p) != TRC_OK)
            return false;
        open_top(o_.seed, nullptr);
        top_->out_sel = sim_out_sel(o_.out_w);
        return true;
    }

    int run()
    {
        auto t0 = std::chrono::steady_clock::now();
        reset();
        int rc = clock_until_done([this](bool &done) { return cycle(done); });
        if (rc == 0 && !decode_some(true))
            rc = 1;
        if (rc == 0 && (decoded_ != made_ || !s_.want_rec.empty())) {
            printf("LOST RECORDS: %llu in, %llu decoded\n", (unsigned long long)made_,
                   (unsigned long long)decoded_);
            rc = 1;
        }
        double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("soak records %llu decoded %llu raw %llu bytes %llu frames %llu tlast %llu "
               "cycles %llu out_w %u stall-in %.2f stall-out %.2f seed %llu sync_every %u "
               "time %.1f s (%.2f M records/s) %s\n",
               (unsigned long long)made_, (unsigned long long)decoded_,
               (unsigned long long)raw_in_, (unsigned long long)bytes_,
               (unsigned long long)dec_.st.sync, (unsigned long long)tlasts_,
               (unsigned long long)cycle_, (unsigned)o_.out_w, o_.stall_in, o_.stall_out,
               (unsigned long long)o_.seed, (unsigned)TRC_P_SYNC_EVERY, secs,
               (double)made_ / secs / 1e6, rc ? "FAIL" : "PASS");
        return rc;
    }

  private:
    const Opts &o_;
    Soak &s_;
    SimAxisOut axis_;
    SimRng rng_;
    trc_decoder dec_;

    std::vector<trc_record> raw_; // the chunk in flight
    size_t raw_pos_ = 0;
    uint64_t made_ = 0, raw_in_ = 0, decoded_ = 0, bytes_ = 0, tlasts_ = 0, cycle_ = 0;
    uint64_t quiet_ = 0;
    bool ended_input_ = false, presenting_ = false;
    std::vector<uint8_t> pend_; // RTL bytes the decoder has not finished
    std::vector<uint8_t> beat_;
    std::vector<trc_record> dout_ = std::vector<trc_record>(8192);

    void reset()
    {
        top_->rst = 1;
        top_->s_axis_tvalid = 0;
        top_->m_axis_tready = 0;
        for (int i = 0; i < 4; i++) {
            top_->clk = 0;
            top_->eval();
            top_->clk = 1;
            top_->eval();
        }
        top_->rst = 0;
    }

    // Decodes what it can of the RTL's bytes; every record must be the next
    // generated one. false (message printed) on a difference.
    bool decode_some(bool final)
    {
        size_t pos = 0;
        for (;;) {
            size_t used = 0, n = 0;
            trc_error e = trc_decode(&dec_, pend_.data() + pos, pend_.size() - pos, &used,
                                     dout_.data(), dout_.size(), &n, final);
            for (size_t i = 0; i < n; i++) {
                const trc_record &g = dout_[i];
                if (s_.want_rec.empty()) {
                    printf("EXTRA RECORD decoded after %llu\n", (unsigned long long)decoded_);
                    return false;
                }
                const trc_record &w = s_.want_rec.front();
                if (g.kind != w.kind || g.a != w.a || g.b != w.b || g.delta != w.delta) {
                    printf("RECORD MISMATCH at record %llu: got kind %u a %u b %u delta %llu, "
                           "want kind %u a %u b %u delta %llu\n",
                           (unsigned long long)decoded_, g.kind, g.a, g.b,
                           (unsigned long long)g.delta, w.kind, w.a, w.b,
                           (unsigned long long)w.delta);
                    return false;
                }
                s_.want_rec.pop_front();
                decoded_++;
            }
            if (e != TRC_OK) {
                printf("DECODE ERROR %s at bit offset %llu\n", trc_error_name(e),
                       (unsigned long long)trc_decoder_bit_offset(&dec_));
                return false;
            }
            pos += used;
            if (used == 0 && n == 0)
                break;
        }
        pend_.erase(pend_.begin(), pend_.begin() + (long)pos);
        return true;
    }

    // The next chunk when the one in flight is all in; the final END last.
    bool refill()
    {
        if (raw_pos_ != raw_.size() || ended_input_)
            return true;
        if (made_ < o_.records) {
            size_t n = (size_t)std::min<uint64_t>(CHUNK, o_.records - made_);
            if (!s_.next_chunk(n, raw_))
                return false;
            made_ += n;
        } else {
            // the final END goes through the RTL as a raw record too
            raw_.assign(1, sim_marker(s_.p, TRC_TYPE_END(&s_.p)));
            if (!s_.finish())
                return false;
            ended_input_ = true;
        }
        raw_pos_ = 0;
        return true;
    }

    // One accepted beat: bytes and tlast against the model, then to the
    // decoder. 0 or 1.
    int check_beat()
    {
        bool last = top_->m_axis_tlast;
        beat_.clear();
        if (!axis_.take(top_->m_axis_tdata, top_->m_axis_tkeep, last, beat_, bytes_))
            return 1;
        for (uint8_t b : beat_) {
            if (s_.want.empty() || b != s_.want.front()) {
                printf("MISMATCH at byte offset %llu: rtl 0x%02x model %s\n",
                       (unsigned long long)bytes_, b,
                       s_.want.empty() ? "(none)" : std::to_string(s_.want.front()).c_str());
                return 1;
            }
            s_.want.pop_front();
            s_.want_base++;
            pend_.push_back(b);
            bytes_++;
        }
        bool at_flush = !s_.flush_at.empty() && s_.flush_at.front() == bytes_;
        if (last != at_flush) {
            printf("BAD TLAST %d at byte offset %llu\n", last, (unsigned long long)bytes_);
            return 1;
        }
        if (last) {
            s_.flush_at.pop_front();
            tlasts_++;
        }
        if (pend_.size() >= 65536 && !decode_some(false))
            return 1;
        return 0;
    }

    // One clock; done once every byte of the model's stream came out.
    int cycle(bool &done)
    {
        if (!refill())
            return 2;
        top_->clk = 0;
        top_->eval();
        if (!presenting_ && raw_pos_ < raw_.size())
            presenting_ = !rng_.chance(o_.stall_in);
        top_->s_axis_tvalid = presenting_;
        top_->s_axis_tdata = presenting_ ? sim_pack(s_.p, raw_[raw_pos_]) : 0;
        top_->m_axis_tready = !rng_.chance(o_.stall_out);
        top_->eval();
        bool in_fire = top_->s_axis_tvalid && top_->s_axis_tready;
        if (top_->m_axis_tvalid && top_->m_axis_tready) {
            if (check_beat())
                return 1;
            quiet_ = 0;
        } else if (ended_input_ && raw_pos_ == raw_.size()) {
            quiet_++;
        }
        top_->clk = 1;
        top_->eval();
        cycle_++;
        if (in_fire) {
            raw_pos_++;
            raw_in_++;
            presenting_ = false;
        }
        if (rtl_failed("cycle", cycle_))
            return 1;
        if (ended_input_ && raw_pos_ == raw_.size() && s_.want.empty())
            done = true;
        if (quiet_ > 10000) {
            printf("TIMEOUT: %zu model bytes never came out\n", s_.want.size());
            return 1;
        }
        return 0;
    }
};

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    std::vector<const char *> traces;
    if (!sim_options(argc, argv, "trc_sim_soak", "[TRACE.txt...] ", opt_table(o), traces, 0,
                     SIZE_MAX))
        return 2;
    if (o.out_w != 8 && o.out_w != 16 && o.out_w != 32 && o.out_w != 64) {
        fprintf(stderr, "soak: --out-w must be 8, 16, 32 or 64\n");
        return 2;
    }
    Soak s;
    s.p = sim_params();
    s.seed = o.seed;
    for (const char *t : traces) {
        std::vector<trc_record> tr;
        std::string err;
        if (!sim_load_trace(t, s.p, 0, false, tr, err)) {
            fprintf(stderr, "soak: %s\n", err.c_str());
            return 2;
        }
        if (!tr.empty())
            s.samples.push_back(tr);
    }
    Bench b(o, s);
    return sim_run(b);
}
