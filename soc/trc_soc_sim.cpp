// trc_soc_sim.cpp - Verilator harness of trc_soc: PicoRV32 runs its firmware
// while trc_rvfi and trc_core trace it.
//
// Every event the adapter hands to trc_core is recorded with its clock; when
// the firmware writes the exit register the harness pulses trace_flush and
// drains the stream. Then every output byte is compared with the C model's
// encoding of those events (deltas from their clocks, TIME_EXT as the model
// lowers them, then END a clock after the flush pulse), the stream is decoded with the model, and the run's
// figures are printed: clocks, retired instructions, events per clock, trace
// bits per retired instruction and per clock (peak over 1024-clock windows).
//
// usage: Vtrc_soc FW.hex [--workload N] [--out STREAM.bin] [--uart LOG]
//        [--stall-out P] [--seed S] [--max-cycles N]
// Returns 0 on success, 1 on any difference (first byte offset and event),
// a trap, a dropped event or a firmware that does not exit.
#include <memory>
#include <string>

#include "Vtrc_soc.h"
#include "verilated.h"

#include "trc_sim_util.h"

#ifndef TRC_P_OUT_W
#define TRC_P_OUT_W 64
#endif

namespace {

struct Ev {
    uint64_t cycle;
    trc_record r;
};

bool write_file(const std::string &path, const void *buf, size_t len)
{
    std::string tmp = path + ".tmp";
    FILE *f = fopen(tmp.c_str(), "wb");
    if (!f) {
        fprintf(stderr, "trc_soc_sim: cannot write %s\n", tmp.c_str());
        return false;
    }
    bool ok = fwrite(buf, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
        fprintf(stderr, "trc_soc_sim: cannot write %s\n", path.c_str());
        remove(tmp.c_str());
        return false;
    }
    return true;
}

// The model's stream for the events: deltas from their clocks (PRESCALE 1),
// TIME_EXT records where the model splits them, END at the flush clock.
bool model_stream(const trc_params &p, const std::vector<Ev> &evs, uint64_t flush_cycle,
                  std::vector<uint8_t> &out, std::vector<size_t> &ev_end)
{
    trc_encoder e;
    if (trc_encoder_init(&e, &p) != TRC_OK)
        return false;
    uint8_t buf[TRC_MAX_RECORD_BYTES];
    uint64_t last = 0;
    auto raw = [&](const trc_record &r) {
        size_t n = 0;
        if (trc_encode_raw(&e, &r, buf, sizeof buf, &n) != TRC_OK)
            return false;
        out.insert(out.end(), buf, buf + n);
        return true;
    };
    auto lowered = [&](trc_record r, uint64_t t) {
        r.delta = t - last;
        last = t;
        uint64_t n = trc_time_ext_count(&p, r.delta);
        for (uint64_t k = 0; k < n; k++)
            if (!raw(trc_time_ext_record(&p)))
                return false;
        return raw(trc_lower(&p, &r));
    };
    for (const Ev &v : evs) {
        if (!lowered(v.r, v.cycle))
            return false;
        ev_end.push_back(out.size());
    }
    trc_record end;
    end.kind = TRC_OS;
    end.a = TRC_TYPE_END(&p);
    end.b = 0;
    return lowered(end, flush_cycle + 1); // trc_core registers the flush: END a clock later
}

int run(const char *hex, unsigned workload, const char *out_path, const char *uart_path,
        double stall_out, uint64_t seed, uint64_t max_cycles)
{
    const trc_params p = sim_params();
    const unsigned iw = sim_info_w(p), out_w = TRC_P_OUT_W, kw = out_w / 8;
    auto ctx = std::make_unique<VerilatedContext>();
    std::string a_fw = std::string("+firmware=") + hex;
    std::string a_wl = "+workload=" + std::to_string(workload);
    const char *argv[] = {"Vtrc_soc", a_fw.c_str(), a_wl.c_str()};
    ctx->commandArgs(3, argv);
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7fffffff));
    ctx->fatalOnError(false);
    auto top = std::make_unique<Vtrc_soc>(ctx.get(), "top");
    SimRng rng(seed);

    std::vector<Ev> evs;
    std::vector<uint8_t> bytes;
    std::string uart;
    uint64_t cycle = 0, retired = 0, drops = 0, gaps = 0, tlasts = 0;
    uint64_t flush_cycle = UINT64_MAX, quiet = 0, exit_code = 0;
    uint64_t win_bits = 0, win_start = 0, peak_bits = 0, n_fn = 0, n_os = 0;
    int rc = 0;
    bool exited = false;

    top->rst = 1;
    top->m_axis_tready = 0;
    top->trace_flush = 0;
    for (int i = 0; i < 8; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    for (;;) {
        // ---- falling edge: drive inputs, sample this clock's outputs
        top->clk = 0;
        top->rst = 0;
        top->eval();
        bool flush = exited && flush_cycle == UINT64_MAX;
        if (flush)
            flush_cycle = cycle;
        top->trace_flush = flush;
        top->m_axis_tready = flush_cycle != UINT64_MAX || !rng.chance(stall_out);
        top->eval();
        if (top->ev_valid) {
            uint64_t d = top->ev_data;
            Ev v;
            v.cycle = cycle;
            v.r.delta = 0;
            v.r.b = 0;
            if ((d >> iw) & 1) {
                v.r.kind = TRC_OS;
                v.r.a = (uint32_t)((d >> p.val_w) & ((1u << p.type_w) - 1));
                v.r.b = (uint32_t)(d & ((1ull << p.val_w) - 1));
                n_os++;
            } else {
                v.r.kind = (d >> p.fid_w) & 1 ? TRC_EXIT : TRC_ENTRY;
                v.r.a = (uint32_t)(d & ((1u << p.fid_w) - 1));
                n_fn++;
            }
            evs.push_back(v);
        }
        if (top->trace_drop)
            drops++;
        if (top->trace_gap)
            gaps++;
        if (top->retire && !exited)
            retired++; // up to the exit store: not _exit's idle loop
        if (top->uart_valid)
            uart.push_back((char)top->uart_data);
        if (top->exit_valid && !exited) {
            exited = true;
            exit_code = top->exit_code;
        }
        if (top->trap) {
            printf("TRAP: PicoRV32 halted at clock %llu\n", (unsigned long long)cycle);
            rc = 1;
            break;
        }
        if (top->m_axis_tvalid && top->m_axis_tready) {
            uint64_t data = top->m_axis_tdata;
            unsigned keep = top->m_axis_tkeep, nkeep = 0;
            while (nkeep < kw && ((keep >> (kw - 1 - nkeep)) & 1))
                nkeep++;
            for (unsigned j = 0; j < nkeep; j++)
                bytes.push_back((uint8_t)(data >> (out_w - 8 - 8 * j)));
            win_bits += 8ull * nkeep;
            if (top->m_axis_tlast)
                tlasts++;
            if (top->m_axis_tlast && flush_cycle != UINT64_MAX)
                quiet = 1;
        }
        if (cycle - win_start == 1024) {
            peak_bits = win_bits > peak_bits ? win_bits : peak_bits;
            win_bits = 0;
            win_start = cycle;
        }
        // ---- rising edge
        top->clk = 1;
        top->eval();
        cycle++;
        if (ctx->gotError()) {
            printf("ASSERTION failed in the RTL at clock %llu\n", (unsigned long long)cycle);
            rc = 1;
            break;
        }
        if (quiet && ++quiet > 64)
            break;
        if (cycle >= max_cycles) {
            printf("TIMEOUT: the firmware did not exit within %llu clocks\n",
                   (unsigned long long)max_cycles);
            rc = 1;
            break;
        }
    }
    top->final();
    fputs(uart.c_str(), stdout);
    if (uart_path && !write_file(uart_path, uart.data(), uart.size()))
        rc = rc ? rc : 2;
    if (out_path && !write_file(out_path, bytes.data(), bytes.size()))
        rc = rc ? rc : 2;
    if (rc)
        return rc;
    if (exit_code != 0) {
        printf("EXIT CODE %llu from the firmware\n", (unsigned long long)exit_code);
        return 1;
    }
    if (drops || gaps) {
        printf("EVENTS LOST: %llu dropped by trc_core, %llu by trc_rvfi (the model "
               "comparison assumes none)\n", (unsigned long long)drops,
               (unsigned long long)gaps);
        return 1;
    }
    // ---- every byte against the model
    std::vector<uint8_t> want;
    std::vector<size_t> ev_end;
    if (!model_stream(p, evs, flush_cycle, want, ev_end)) {
        printf("MODEL: an event does not encode\n");
        return 1;
    }
    size_t n = bytes.size() < want.size() ? bytes.size() : want.size();
    for (size_t i = 0; i < n || bytes.size() != want.size(); i++) {
        if (i < n && bytes[i] == want[i])
            continue;
        size_t k = 0;
        while (k < ev_end.size() && ev_end[k] <= i)
            k++;
        printf("MISMATCH at byte %zu (event %zu of %zu, clock %llu): RTL %s, model %s; "
               "%zu vs %zu bytes\n", i, k, evs.size(),
               (unsigned long long)(k < evs.size() ? evs[k].cycle : flush_cycle),
               i < bytes.size() ? std::to_string(bytes[i]).c_str() : "ended",
               i < want.size() ? std::to_string(want[i]).c_str() : "ended", bytes.size(),
               want.size());
        return 1;
    }
    // ---- and decoded with the model: the events, at their clocks
    trc_decoder d;
    trc_decoder_init(&d, &p);
    std::vector<trc_record> dec(evs.size() + 16);
    size_t used = 0, got = 0;
    trc_error e = trc_decode(&d, bytes.data(), bytes.size(), &used, dec.data(), dec.size(), &got, 1);
    uint64_t t = 0;
    bool same = e == TRC_OK && got == evs.size();
    for (size_t i = 0; same && i < got; i++) {
        t += dec[i].delta;
        same = dec[i].kind == evs[i].r.kind && dec[i].a == evs[i].r.a &&
               dec[i].b == evs[i].r.b && t == evs[i].cycle;
    }
    if (!same) {
        printf("DECODE: %s, %zu records for %zu events\n", trc_error_name(e), got, evs.size());
        return 1;
    }
    double cyc = (double)flush_cycle;
    printf("clocks %llu retired %llu events %zu (function %llu, os %llu) bytes %zu tlast %llu\n",
           (unsigned long long)flush_cycle, (unsigned long long)retired, evs.size(),
           (unsigned long long)n_fn, (unsigned long long)n_os, bytes.size(),
           (unsigned long long)tlasts);
    printf("events/clock %.5f instructions/clock %.4f bits/event %.3f "
           "bits/instruction %.4f bits/clock %.4f peak bits/clock %.4f (1024-clock windows)\n",
           evs.size() / cyc, retired / cyc, 8.0 * bytes.size() / evs.size(),
           8.0 * bytes.size() / retired, 8.0 * bytes.size() / cyc, peak_bits / 1024.0);
    printf("PASS: %zu bytes equal the C model's, decoded to the %zu events at their clocks\n",
           bytes.size(), evs.size());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *hex = nullptr, *out = nullptr, *uart = nullptr;
    unsigned workload = 0;
    double stall = 0;
    uint64_t seed = 1, max_cycles = 200000000ull;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--workload" && v) {
            workload = (unsigned)strtoul(v, nullptr, 0);
            i++;
        } else if (a == "--out" && v) {
            out = v;
            i++;
        } else if (a == "--uart" && v) {
            uart = v;
            i++;
        } else if (a == "--stall-out" && v) {
            stall = atof(v);
            i++;
        } else if (a == "--seed" && v) {
            seed = strtoull(v, nullptr, 0);
            i++;
        } else if (a == "--max-cycles" && v) {
            max_cycles = strtoull(v, nullptr, 0);
            i++;
        } else if (a[0] != '-' && !hex) {
            hex = argv[i];
        } else {
            fprintf(stderr, "trc_soc_sim: unknown option or missing value '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!hex) {
        fprintf(stderr, "usage: Vtrc_soc FW.hex [--workload N] [--out STREAM.bin] [--uart LOG] "
                        "[--stall-out P] [--seed S] [--max-cycles N]\n");
        return 2;
    }
    FILE *f = fopen(hex, "r");
    if (!f) {
        fprintf(stderr, "trc_soc_sim: cannot open %s\n", hex);
        return 2;
    }
    fclose(f);
    return run(hex, workload, out, uart, stall, seed, max_cycles);
}
