// trc_rvfi_sim.cpp - directed tests of trc_rvfi alone (docs/soc.md): a
// synthetic RVFI retire stream per scenario, the events the adapter emits
// compared with the documented ones. Built with SD_AW = 2 (a 4-entry shadow
// stack), RVC = 1, ID_SHIFT = 1, QAW = 2 (soc/soc.mk).
//
// usage: Vtrc_rvfi [--seed S]; prints "ok NAME" / "not ok NAME" per
// scenario and returns 1 when any fails.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "Vtrc_rvfi.h"
#include "verilated.h"

namespace {

const unsigned FID_W = 15, TYPE_W = 7, VAL_W = 16, INFO_W = 23, SHIFT = 1;
const uint32_t UNKNOWN = (1u << FID_W) - 1, STIM = 0x11000000u;
const uint32_t T_IRQ = 123, T_IRET = 122, T_TRAP = 121, T_GAP = 120;

struct Insn {
    uint32_t insn = 0x13, pc = 0x100, pc_w = 0x104, rd_wdata = 0, mem_addr = 0, mem_wdata = 0;
    unsigned rd_addr = 0, wmask = 0;
    bool trap = false, intr = false;
    uint32_t cause = 0;
};

struct Evt {
    bool os;
    uint32_t a, b; // function: a = exit flag, b = id; OS: a = type, b = value
    bool operator==(const Evt &o) const { return os == o.os && a == o.a && b == o.b; }
};

Evt entry(uint32_t addr) { return {false, 0, (addr >> SHIFT) & UNKNOWN}; }
Evt exit_of(uint32_t addr) { return {false, 1, (addr >> SHIFT) & UNKNOWN}; }
Evt exit_unknown() { return {false, 1, UNKNOWN}; }
Evt os(uint32_t t, uint32_t v) { return {true, t, v}; }

// jal/jalr with rd (1 or 5 make it a call), to target
Insn jal(unsigned rd, uint32_t target)
{
    Insn i;
    i.insn = (rd << 7) | 0x6f;
    i.pc_w = target;
    i.rd_addr = rd;
    return i;
}
Insn jalr(unsigned rd, unsigned rs1, uint32_t target)
{
    Insn i;
    i.insn = (rs1 << 15) | (rd << 7) | 0x67;
    i.pc_w = target;
    i.rd_addr = rd;
    return i;
}
Insn ret(unsigned rs1 = 1) { return jalr(0, rs1, 0x200); }
Insn set_sp(uint32_t sp)
{
    Insn i;
    i.insn = 0x00010113; // addi sp, sp, 0: what matters is rd = x2 and its value
    i.rd_addr = 2;
    i.rd_wdata = sp;
    return i;
}
Insn c_jal(uint32_t target) { Insn i; i.insn = 0x2001; i.pc_w = target; i.rd_addr = 1; return i; }
Insn c_jalr(unsigned rs1, uint32_t target)
{
    Insn i;
    i.insn = 0x9002 | (rs1 << 7);
    i.pc_w = target;
    i.rd_addr = 1;
    return i;
}
Insn c_jr(unsigned rs1) { Insn i; i.insn = 0x8002 | (rs1 << 7); return i; }
Insn store(uint32_t addr, uint32_t data, unsigned mask = 0xf)
{
    Insn i;
    i.insn = 0x00a5a023; // sw
    i.mem_addr = addr;
    i.mem_wdata = data;
    i.wmask = mask;
    return i;
}
Insn irq(uint32_t cause) { Insn i; i.intr = true; i.cause = cause; return i; }
Insn mret() { Insn i; i.insn = 0x30200073; return i; }
Insn retirq() { Insn i; i.insn = 0x0400000b; return i; }
Insn trap(uint32_t pc) { Insn i; i.trap = true; i.pc = pc; i.insn = 0; return i; }

struct Sim {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtrc_rvfi> top;
    uint64_t rng;
    explicit Sim(uint64_t seed) : ctx(new VerilatedContext), rng(seed * 2654435761u + 7)
    {
        ctx->randReset(2);
        ctx->fatalOnError(false);
        top.reset(new Vtrc_rvfi(ctx.get(), "top"));
    }
    bool chance(double p)
    {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return (double)(rng % 1000000) < p * 1e6;
    }
    void edge()
    {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    // Runs prog with `space` idle clocks between retires, the output ready
    // with probability rdy; returns the events (and counts gap pulses).
    std::vector<Evt> run(const std::vector<Insn> &prog, unsigned space, double rdy,
                         unsigned &gaps, bool &assert_failed, unsigned stall_n = 0)
    {
        std::vector<Evt> out;
        gaps = 0;
        top->rst = 1;
        top->rvfi_valid = 0;
        top->m_axis_tready = 0;
        for (int k = 0; k < 3; k++)
            edge();
        top->rst = 0;
        size_t pc = 0;
        unsigned wait = 0, quiet = 0, clock = 0;
        while (quiet < 200) {
            top->clk = 0;
            top->eval();
            Insn i;
            bool v = false;
            if (pc < prog.size() && wait == 0) {
                i = prog[pc++];
                v = true;
                wait = space;
            } else if (wait) {
                wait--;
            }
            top->rvfi_valid = v;
            top->rvfi_insn = i.insn;
            top->rvfi_trap = i.trap;
            top->rvfi_intr = i.intr;
            top->rvfi_pc_rdata = i.pc;
            top->rvfi_pc_wdata = i.pc_w;
            top->rvfi_rd_addr = i.rd_addr;
            top->rvfi_rd_wdata = i.rd_wdata;
            top->rvfi_mem_addr = i.mem_addr;
            top->rvfi_mem_wmask = i.wmask;
            top->rvfi_mem_wdata = i.mem_wdata;
            top->irq_cause = i.cause;
            top->m_axis_tready = clock++ < stall_n ? 0 : pc >= prog.size() ? 1 : chance(rdy);
            top->eval();
            gaps += top->gap;
            if (top->m_axis_tvalid && top->m_axis_tready) {
                uint32_t d = top->m_axis_tdata;
                if ((d >> INFO_W) & 1)
                    out.push_back(os((d >> VAL_W) & ((1u << TYPE_W) - 1), d & 0xffff));
                else
                    out.push_back({false, (d >> FID_W) & 1, d & UNKNOWN});
                quiet = 0;
            } else if (pc >= prog.size()) {
                quiet++;
            }
            top->clk = 1;
            top->eval();
            if (ctx->gotError())
                assert_failed = true;
        }
        return out;
    }
};

std::string show(const std::vector<Evt> &v)
{
    std::string s;
    for (const Evt &e : v) {
        char b[48];
        if (e.os)
            snprintf(b, sizeof b, " O%u:%u", e.a, e.b);
        else
            snprintf(b, sizeof b, " %s%u", e.a ? "X" : "E", e.b);
        s += b;
    }
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i++)
        if (std::string(argv[i]) == "--seed")
            seed = strtoull(argv[++i], nullptr, 0);
    Sim sim(seed);
    int fails = 0;
    const uint32_t A = 0x1000, B = 0x1200, C = 0x1400, D = 0x1600, E = 0x1800, F = 0x1a00;

    struct Case {
        std::string name;
        std::vector<Insn> prog;
        std::vector<Evt> want;
    };
    std::vector<Case> cases;
    cases.push_back({"calls and returns (jal, jalr, x1 and x5 links)",
                     {set_sp(1000), jal(1, A), jalr(5, 15, B), ret(5), ret(1)},
                     {entry(A), entry(B), exit_of(B), exit_of(A)}});
    cases.push_back({"compressed forms c.jal, c.jalr, c.jr x1/x5",
                     {set_sp(1000), c_jal(A), c_jalr(10, B), c_jr(5), c_jr(1), c_jr(10)},
                     {entry(A), entry(B), exit_of(B), exit_of(A)}});
    cases.push_back({"nesting past the shadow stack's depth (4): reserved id on the oldest",
                     {set_sp(1000), jal(1, A), jal(1, B), jal(1, C), jal(1, D), jal(1, E),
                      jal(1, F), ret(), ret(), ret(), ret(), ret(), ret()},
                     {entry(A), entry(B), entry(C), entry(D), entry(E), entry(F), exit_of(F),
                      exit_of(E), exit_of(D), exit_of(C), exit_unknown(), exit_unknown()}});
    cases.push_back({"tail call (jal x0 / jalr x0 via t1): a jump, the callee runs as the caller",
                     {set_sp(1000), jal(1, A), jal(0, B), jalr(0, 6, C), ret()},
                     {entry(A), exit_of(A)}});
    cases.push_back({"interrupt during a call: IRQ, the handler's calls, IRET, then the exit",
                     {set_sp(1000), jal(1, A), set_sp(960), irq(8), set_sp(896), jal(1, B),
                      ret(), set_sp(960), retirq(), set_sp(1000), ret()},
                     {entry(A), os(T_IRQ, 8), entry(B), exit_of(B), os(T_IRET, 0), exit_of(A)}});
    cases.push_back({"longjmp: one return unwinds every frame called from below its sp",
                     {set_sp(1000), jal(1, A), set_sp(980), jal(1, B), set_sp(960), jal(1, C),
                      set_sp(940), jal(1, D), set_sp(980), ret(), set_sp(1000), ret()},
                     {entry(A), entry(B), entry(C), entry(D), exit_of(D), exit_of(C),
                      exit_of(B), exit_of(A)}});
    cases.push_back({"return with an empty stack: exit with the reserved id",
                     {set_sp(1000), ret(), jal(1, A), ret()},
                     {exit_unknown(), entry(A), exit_of(A)}});
    cases.push_back({"stimulus port: words in the window, nothing outside it",
                     {store(STIM + 4 * 5, 0x1234), store(STIM, 0xabcd0007),
                      store(STIM + 4 * 119, 9), store(STIM + 4 * 120, 1), store(STIM + 2, 5, 0xc),
                      store(STIM - 4, 3), store(STIM + 4 * 1, 77, 0x1)},
                     {os(5, 0x1234), os(0, 0x0007), os(119, 9), os(1, 77)}});
    cases.push_back({"mret and retirq: IRET; a trap: TRAP with the pc",
                     {mret(), retirq(), trap(0x4321)},
                     {os(T_IRET, 0), os(T_IRET, 0), os(T_TRAP, 0x4321)}});

    // Each case at full rate (a retire every clock) with the output always
    // ready, and spaced (every 3rd clock, PicoRV32's best) with 50% stalls.
    for (const Case &c : cases) {
        for (int v = 0; v < 2; v++) {
            unsigned gaps = 0;
            bool af = false;
            std::vector<Evt> got = sim.run(c.prog, v ? 2 : 0, v ? 0.5 : 1.0, gaps, af);
            bool ok = got == c.want && gaps == 0 && !af;
            printf("%s %s (%s)\n", ok ? "ok" : "not ok", c.name.c_str(),
                   v ? "a retire every 3rd clock, 50% output stalls" : "a retire every clock");
            if (!ok) {
                printf("  want%s\n  got %s%s%s\n", show(c.want).c_str(), show(got).c_str(),
                       gaps ? " (gap pulses)" : "", af ? " (assertion failed)" : "");
                fails++;
            }
        }
    }

    // Overflow of the action queue: 12 calls at a retire per clock while the
    // output is stalled for 16 clocks. The output register and the queue (4)
    // keep the first events; the others are counted in one GAP record that
    // follows them, and the shadow stack restarts empty (the next return,
    // after the stall, has the reserved id).
    {
        std::vector<Insn> prog = {set_sp(1000)};
        const uint32_t t[12] = {A, B, C, D, E, F, A + 2, B + 2, C + 2, D + 2, E + 2, F + 2};
        for (uint32_t x : t)
            prog.push_back(jal(1, x));
        for (int k = 0; k < 20; k++)
            prog.push_back(Insn()); // nops: no action
        prog.push_back(ret());
        unsigned gaps = 0;
        bool af = false;
        std::vector<Evt> got = sim.run(prog, 0, 1.0, gaps, af, 16);
        // kept: what the output register and the queue held when the stall began
        size_t kept = got.size() >= 2 ? got.size() - 2 : 0;
        bool ok = !af && got.size() >= 3 && kept + gaps == 12 && gaps > 0;
        for (size_t k = 0; ok && k < kept; k++)
            ok = got[k] == entry(t[k]);
        ok = ok && got[kept] == os(T_GAP, gaps) && got[kept + 1] == exit_unknown();
        printf("%s queue overflow: %zu events kept, GAP counts the %u lost, stack restarts\n",
               ok ? "ok" : "not ok", kept, gaps);
        if (!ok) {
            printf("  got%s\n", show(got).c_str());
            fails++;
        }
    }
    sim.top->final();
    printf("%d failed\n", fails);
    return fails ? 1 : 0;
}
