// trc_sim_enc.cpp - Verilator harness: trc_enc against the C model.
//
// Reads a trace (text v1; or random:N, N seeded random records that fit the
// parameters), lowers it into raw records with the model's own
// TIME_EXT splitting, feeds them to the RTL under seeded random stalls on both
// sides, and compares every output byte with trc_encode_raw()'s stream. Prints
// records, bytes, cycles and records/cycle; on the first difference prints the
// byte offset and record index and returns 1.
//
// usage: trc_sim_enc TRACE [--out-w 8|16|32|64] [--records N] [--stall-in P]
//        [--stall-out P] [--seed S] [--wave F.fst] [--map-ids] [--reset-at K]
//        [--sync-every N] [--end-every N] [--junk] [--reserved N] [--min-rate R]
// records/cycle = raw records / cycles from the first input beat to the last
// output beat (pipeline fill and the final flush included).
#include <memory>

#include "Vtrc_sim_enc.h"
#include "verilated.h"

#include "trc_sim_util.h"
#include "trc_sim_wave.h"

#ifndef TRC_P_SYNC_EVERY
#define TRC_P_SYNC_EVERY 0
#endif

namespace {

struct Opts {
    const char *trace = nullptr;
    unsigned out_w = 64;
    size_t records = 0;
    double stall_in = 0, stall_out = 0;
    uint64_t seed = 1;
    const char *wave = nullptr;
    bool map_ids = false;
    long reset_at = -1;    // raw records accepted before a mid-stream reset
    size_t sync_every = 0; // insert SYNC after every N raw records
    size_t end_every = 0;  // insert END after every N raw records
    bool junk = false;     // random values in the unused info bits
    size_t reserved = 0;   // insert a reserved-type record after every N
    double min_rate = 0;   // fail when records/cycle ends below this
    size_t violate = 0;    // change the N-th input beat held while stalled
};

void usage(void)
{
    fprintf(stderr,
            "usage: trc_sim_enc TRACE [--out-w 8|16|32|64] [--records N] [--stall-in P]\n"
            "       [--stall-out P] [--seed S] [--wave F.fst] [--map-ids] [--reset-at K]\n"
            "       [--sync-every N] [--end-every N] [--junk] [--reserved N] [--min-rate R]\n"
            "       [--violate N]\n");
}

bool parse(int argc, char **argv, Opts &o)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&](void) -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
        const char *v = nullptr;
        if (a == "--map-ids") {
            o.map_ids = true;
        } else if (a == "--junk") {
            o.junk = true;
        } else if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
            if (!(v = val()))
                return false;
            if (a == "--out-w")
                o.out_w = (unsigned)strtoul(v, nullptr, 0);
            else if (a == "--records")
                o.records = strtoull(v, nullptr, 0);
            else if (a == "--stall-in")
                o.stall_in = strtod(v, nullptr);
            else if (a == "--stall-out")
                o.stall_out = strtod(v, nullptr);
            else if (a == "--seed")
                o.seed = strtoull(v, nullptr, 0);
            else if (a == "--wave")
                o.wave = v;
            else if (a == "--reset-at")
                o.reset_at = strtol(v, nullptr, 0);
            else if (a == "--sync-every")
                o.sync_every = strtoull(v, nullptr, 0);
            else if (a == "--end-every")
                o.end_every = strtoull(v, nullptr, 0);
            else if (a == "--reserved")
                o.reserved = strtoull(v, nullptr, 0);
            else if (a == "--min-rate")
                o.min_rate = strtod(v, nullptr);
            else if (a == "--violate")
                o.violate = strtoull(v, nullptr, 0);
            else
                return false;
        } else if (!o.trace) {
            o.trace = argv[i];
        } else {
            return false;
        }
    }
    if (!o.trace || (o.out_w != 8 && o.out_w != 16 && o.out_w != 32 && o.out_w != 64))
        return false;
    return o.stall_in >= 0 && o.stall_in < 1 && o.stall_out >= 0 && o.stall_out < 1;
}

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

bool model_stream(const trc_params &p, const std::vector<trc_record> &raw, size_t start,
                  Expect &x)
{
    trc_encoder e;
    if (trc_encoder_init(&e, &p) != TRC_OK)
        return false;
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

size_t record_at(const Expect &x, size_t off)
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

int run(const Opts &o)
{
    const trc_params p = sim_params();
    const unsigned iw = sim_info_w(p);
    if (1 + p.nt + iw > 64) {
        fprintf(stderr, "harness: record wider than 64 bits is not supported\n");
        return 2;
    }
    std::vector<trc_record> tr, raw;
    std::vector<size_t> raw2trace;
    std::string err;
    if (strncmp(o.trace, "random:", 7) == 0) {
        sim_random_trace(p, strtoull(o.trace + 7, nullptr, 0), o.seed, tr);
    } else if (!sim_load_trace(o.trace, p, o.records, o.map_ids, tr, err)) {
        fprintf(stderr, "harness: %s\n", err.c_str());
        return 2;
    }
    {
        std::vector<trc_record> low;
        std::vector<size_t> l2t;
        sim_lower(p, tr, low, l2t);
        SimRng rr(o.seed ^ 0x5eed);
        for (size_t i = 0; i < low.size(); i++) {
            raw.push_back(low[i]);
            raw2trace.push_back(l2t[i]);
            size_t k = i + 1;
            auto add = [&](unsigned type, uint32_t value) {
                trc_record m = sim_marker(p, type);
                m.delta = rr.below((1ull << p.nt));
                m.b = value;
                raw.push_back(m);
                raw2trace.push_back(l2t[i]);
            };
            if (o.reserved && k % o.reserved == 0) {
                // Reserved types on the port, values as given (bad-input test).
                unsigned t = (1u << p.type_w) - 1 - (unsigned)rr.below(4);
                uint64_t vmax = (1ull << p.val_w) - 1;
                uint32_t v = (uint32_t)(rr.next() & vmax);
                add(t, v);
            }
            if (o.sync_every && k % o.sync_every == 0)
                add(TRC_TYPE_SYNC(&p), 0);
            if (o.end_every && k % o.end_every == 0)
                add(TRC_TYPE_END(&p), 0);
        }
        raw.push_back(sim_marker(p, TRC_TYPE_END(&p)));
        raw2trace.push_back(tr.size());
    }

    Expect x;
    if (!model_stream(p, raw, 0, x))
        return 2;

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(o.seed & 0x7fffffff));
    ctx->fatalOnError(false); // a failed assertion is reported, not an abort
    auto top = std::make_unique<Vtrc_sim_enc>(ctx.get(), "top");
    SimWave<Vtrc_sim_enc> tfp;
    if (o.wave && !tfp.open(ctx.get(), top.get(), o.wave))
        return 2;
    auto dump = [&](void) {
        tfp.dump(ctx->time());
    };

    SimRng rng(o.seed);
    const unsigned kw = o.out_w / 8;
    unsigned sel = 0;
    while ((8u << sel) != o.out_w)
        sel++;
    top->out_sel = sel;

    size_t next = 0;          // next raw record to present
    bool presenting = false;
    bool held = false;        // last cycle's input beat was not taken
    size_t held_beats = 0;    // cycles with a beat held (--violate)
    uint64_t junk = 0;
    size_t got = 0, fpos = 0; // bytes checked in x, next flush boundary
    uint64_t total_bytes = 0;
    unsigned rst_cycles = 4;
    bool reset_done = o.reset_at < 0;
    uint64_t reset_when = UINT64_MAX;
    uint64_t cycle = 0, first_in = UINT64_MAX, last_in = 0, last_out = 0;
    const uint64_t limit = 200 + (uint64_t)((raw.size() * (72.0 / o.out_w + 2)) /
                                             ((1 - o.stall_in) * (1 - o.stall_out))) * 4;
    int rc = 0;
    bool ended = false;

    while (!ended) {
        // ---- falling edge: drive inputs away from the sampling edge
        top->clk = 0;
        top->eval();
        dump();
        ctx->timeInc(1);
        if (cycle == reset_when) {
            rst_cycles = 1 + (unsigned)rng.below(3);
            reset_when = UINT64_MAX;
        }
        bool rst = rst_cycles > 0;
        top->rst = rst;
        if (rst) {
            presenting = false;
            top->s_axis_tvalid = 0;
        } else {
            if (!presenting && next < raw.size()) {
                presenting = !rng.chance(o.stall_in);
                junk = o.junk ? rng.next() & sim_unused_mask(p, raw[next].kind == TRC_OS) : 0;
            }
            top->s_axis_tvalid = presenting;
            top->s_axis_tdata = presenting ? sim_pack(p, raw[next]) | junk : rng.next() & 0xffff;
            // --violate: break the AXI-Stream rule once, so that the RTL's
            // handshake assertion must fire (the harness then fails)
            if (held && ++held_beats == o.violate)
                top->s_axis_tdata ^= 1;
        }
        top->m_axis_tready = !rng.chance(o.stall_out);
        top->eval();
        bool in_fire = !rst && top->s_axis_tvalid && top->s_axis_tready;
        held = !rst && top->s_axis_tvalid && !top->s_axis_tready;
        bool out_fire = !rst && top->m_axis_tvalid && top->m_axis_tready;

        if (out_fire) {
            uint64_t data = top->m_axis_tdata;
            unsigned keep = top->m_axis_tkeep;
            bool last = top->m_axis_tlast;
            unsigned nkeep = 0;
            while (nkeep < kw && ((keep >> (kw - 1 - nkeep)) & 1))
                nkeep++;
            unsigned want = nkeep ? ((1u << kw) - 1) & ~((1u << (kw - nkeep)) - 1) : 0;
            if (keep != want || nkeep == 0 || (!last && nkeep != kw)) {
                printf("BAD TKEEP 0x%x (tlast %d) at byte offset %zu (record index %zu)\n", keep,
                       last, got, raw2trace[std::min(record_at(x, got), raw.size() - 1)]);
                rc = 1;
                break;
            }
            for (unsigned j = 0; j < nkeep && rc == 0; j++) {
                uint8_t b = (uint8_t)(data >> (o.out_w - 8 - 8 * j));
                if (got >= x.bytes.size()) {
                    printf("EXTRA BYTE 0x%02x after the model's %zu bytes\n", b, x.bytes.size());
                    rc = 1;
                } else if (b != x.bytes[got]) {
                    size_t ri = record_at(x, got);
                    printf("MISMATCH at byte offset %zu (record index %zu, raw record %zu): "
                           "rtl 0x%02x model 0x%02x\n",
                           got, raw2trace[ri], ri, b, x.bytes[got]);
                    rc = 1;
                } else {
                    got++;
                    total_bytes++;
                }
            }
            if (rc)
                break;
            // A word ends at every END/SYNC boundary, and only there with tlast.
            while (fpos < x.flush_ends.size() && x.flush_ends[fpos] < got - nkeep + 1)
                fpos++;
            bool at_flush = fpos < x.flush_ends.size() && x.flush_ends[fpos] <= got;
            if (at_flush != last || (at_flush && x.flush_ends[fpos] != got)) {
                printf("BAD TLAST %d at byte offset %zu (record index %zu)\n", last, got,
                       raw2trace[std::min(record_at(x, got ? got - 1 : 0), raw.size() - 1)]);
                rc = 1;
                break;
            }
            last_out = cycle;
        }

        // ---- rising edge
        top->clk = 1;
        top->eval();
        dump();
        ctx->timeInc(1);
        if (in_fire) {
            if (first_in == UINT64_MAX)
                first_in = cycle;
            last_in = cycle;
            next++;
            presenting = false;
            if (!reset_done && (long)next == o.reset_at) {
                reset_when = cycle + 1 + rng.below(8);
                reset_done = true;
            }
        }
        if (rst_cycles) {
            rst_cycles--;
            if (rst_cycles == 0 && cycle > 8) {
                // Mid-stream reset: in-flight records are gone by design; the
                // stream restarts from the reset state at the next record.
                printf("reset at cycle %llu after %zu raw records, %zu bytes\n",
                       (unsigned long long)cycle, next, got);
                if (!model_stream(p, raw, next, x)) {
                    rc = 2;
                    break;
                }
                got = 0;
                fpos = 0;
            }
        }
        cycle++;
        if (ctx->gotError()) {
            printf("ASSERTION failed in the RTL at cycle %llu (byte offset %zu)\n",
                   (unsigned long long)cycle, got);
            rc = 1;
            break;
        }
        if (next == raw.size() && got == x.bytes.size() && !rst_cycles)
            ended = true;
        if (cycle > limit) {
            size_t ri = record_at(x, got);
            printf("TIMEOUT after %llu cycles: %zu of %zu raw records in, byte offset %zu "
                   "(record index %zu)\n",
                   (unsigned long long)cycle, next, raw.size(), got,
                   raw2trace[std::min(ri, raw.size() - 1)]);
            rc = 1;
            break;
        }
    }
    // Nothing may follow the final END.
    for (int k = 0; k < 16 && rc == 0; k++) {
        top->clk = 0;
        top->m_axis_tready = 1;
        top->s_axis_tvalid = 0;
        top->eval();
        dump();
        ctx->timeInc(1);
        if (top->m_axis_tvalid) {
            printf("EXTRA WORD after the final END\n");
            rc = 1;
        }
        top->clk = 1;
        top->eval();
        dump();
        ctx->timeInc(1);
    }
    top->final();
    tfp.close();

    uint64_t span = last_out >= first_in && first_in != UINT64_MAX ? last_out - first_in + 1 : 1;
    uint64_t in_span = last_in >= first_in && first_in != UINT64_MAX ? last_in - first_in + 1 : 1;
    if (rc)
        span = in_span = 0; // no throughput figure for a failed run
    printf("records %zu raw %zu bytes %llu cycles %llu records/cycle %.4f (input side %.4f)"
           " out_w %u stall-in %.2f stall-out %.2f seed %llu",
           tr.size(), raw.size(), (unsigned long long)total_bytes, (unsigned long long)span,
           span ? (double)raw.size() / (double)span : 0.0,
           in_span ? (double)next / (double)in_span : 0.0, o.out_w,
           o.stall_in, o.stall_out, (unsigned long long)o.seed);
    if (TRC_P_SYNC_EVERY)
        printf(" frames %llu (SYNC_EVERY %u, since the last reset)",
               (unsigned long long)x.frames, (unsigned)TRC_P_SYNC_EVERY);
    printf("\n");
    if (rc == 0 && (double)raw.size() / (double)span < o.min_rate) {
        printf("SLOW: records/cycle below %.4f\n", o.min_rate);
        rc = 1;
    }
    if (rc == 0 && ctx->gotError()) {
        printf("assertion or $error raised in the RTL\n");
        rc = 1;
    }
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    Opts o;
    if (!parse(argc, argv, o)) {
        usage();
        return 2;
    }
    return run(o);
}
