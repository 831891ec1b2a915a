// trc_soc_cpu: PicoRV32 with its own tracer: the CPU's RVFI retire stream
// goes through trc_rvfi (calls, returns, interrupts, stimulus stores) into
// trc_core, whose compressed stream leaves on m_axis. The memory bus is
// PicoRV32's native one. Build with RISCV_FORMAL defined (the CPU's RVFI
// ports). The FPGA flows synthesize this module; soc/trc_soc.v adds RAM, a
// UART and a timer for simulation. Ports and memory map: docs/soc.md.
// With TRACE = 0 it is the same CPU with the same ports and no tracer (the
// trace outputs are 0; RISCV_FORMAL not needed): the FPGA reports' baseline.
// With TRACE = 2 the adapter's events leave on ev_valid/ev_data and there is
// no trc_core (the multi-CPU system, soc/trc_mpsoc.v, feeds them to
// trc_mpcore); the stream outputs are 0 and trace_drop is 0.
// Parameters:
//   TRACE    - 1: trc_rvfi + trc_core beside the CPU; 2: trc_rvfi only (events
//              out); 0: the CPU alone (its RVFI outputs, if RISCV_FORMAL is
//              defined, have no load)
//   NT .. SD, LEAN, OUT_W, SYNC_EVERY, PRESCALE, FIFO_AW, DT_W, DROP_W -
//              trc_core's (the tracer
//              instance: its MODE, or a coder selected by trc_core's own
//              parameters, drops in here)
//   SD_AW, SP_W, QAW, STIM_BASE - trc_rvfi's
//   PROGADDR_RESET, PROGADDR_IRQ - PicoRV32's
`default_nettype none
`include "trc_format.vh"

module trc_soc_cpu #(
    parameter        TRACE      = 1,
    parameter        NT         = 23,
    parameter        FID_W      = 15,
    parameter        TYPE_W     = 7,
    parameter        VAL_W      = 16,
    parameter        ND_F       = 3,
    parameter        ND_T       = 3,
    parameter        ND_V       = 3,
    parameter        OUT_W      = 64,
    parameter        MODE       = 0,
    parameter        SK         = 9,
    parameter        SD         = 16,
    parameter        LEAN       = 0,
    parameter        SYNC_EVERY = 0,
    parameter        PRESCALE   = 1,
    parameter        FIFO_AW    = 4,
    parameter        DT_W       = 48,
    parameter        DROP_W     = 48,
    parameter        SD_AW      = 5,
    parameter        SP_W       = 16,
    parameter        QAW        = 2,
    parameter [31:0] STIM_BASE  = 32'h1100_0000,
    parameter [31:0] PROGADDR_RESET = 32'h0000_0000,
    parameter [31:0] PROGADDR_IRQ   = 32'h0000_0010,
    parameter        INFO_W     = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire               clk,
    input  wire               rst,
    // ---- PicoRV32 native memory bus
    output wire               mem_valid,
    output wire               mem_instr,
    input  wire               mem_ready,
    output wire [31:0]        mem_addr,
    output wire [31:0]        mem_wdata,
    output wire [3:0]         mem_wstrb,
    input  wire [31:0]        mem_rdata,
    input  wire [31:0]        irq,
    output wire               trap,
    // ---- trace: compressed stream out, END on flush
    output wire [OUT_W-1:0]   m_axis_tdata,
    output wire [OUT_W/8-1:0] m_axis_tkeep,
    output wire               m_axis_tlast,
    output wire               m_axis_tvalid,
    input  wire               m_axis_tready,
    input  wire               trace_flush,
    output wire               trace_drop,   // trc_core dropped an event (LOST follows)
    output wire               trace_gap,    // trc_rvfi lost one (its GAP record follows)
    // ---- observation: the adapter's events and the retire strobe
    output wire               ev_valid,
    output wire [INFO_W:0]    ev_data,
    output wire               retire
);

`ifdef RISCV_FORMAL
    wire        rvfi_valid, rvfi_trap, rvfi_intr;
    wire [31:0] rvfi_insn, rvfi_pc_rdata, rvfi_pc_wdata, rvfi_rd_wdata;
    wire [31:0] rvfi_mem_addr, rvfi_mem_wdata;
    wire [4:0]  rvfi_rd_addr;
    wire [3:0]  rvfi_mem_wmask;
`endif
    wire [31:0] eoi;

    picorv32 #(
        .ENABLE_COUNTERS(1), .ENABLE_COUNTERS64(0), .ENABLE_REGS_16_31(1),
        .ENABLE_REGS_DUALPORT(1), .TWO_STAGE_SHIFT(1), .BARREL_SHIFTER(0),
        .COMPRESSED_ISA(0), .CATCH_MISALIGN(1), .CATCH_ILLINSN(1),
        .ENABLE_PCPI(0), .ENABLE_MUL(1), .ENABLE_FAST_MUL(0), .ENABLE_DIV(1),
        .ENABLE_IRQ(1), .ENABLE_IRQ_QREGS(1), .ENABLE_IRQ_TIMER(0),
        .ENABLE_TRACE(0), .REGS_INIT_ZERO(0),
        .PROGADDR_RESET(PROGADDR_RESET), .PROGADDR_IRQ(PROGADDR_IRQ)
    ) u_cpu (
        .clk(clk), .resetn(!rst), .trap(trap),
        .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(mem_ready),
        .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb),
        .mem_rdata(mem_rdata),
        .mem_la_read(), .mem_la_write(), .mem_la_addr(), .mem_la_wdata(), .mem_la_wstrb(),
        .pcpi_valid(), .pcpi_insn(), .pcpi_rs1(), .pcpi_rs2(),
        .pcpi_wr(1'b0), .pcpi_rd(32'd0), .pcpi_wait(1'b0), .pcpi_ready(1'b0),
        .irq(irq), .eoi(eoi),
`ifdef RISCV_FORMAL
        .rvfi_valid(rvfi_valid), .rvfi_order(), .rvfi_insn(rvfi_insn),
        .rvfi_trap(rvfi_trap), .rvfi_halt(), .rvfi_intr(rvfi_intr),
        .rvfi_mode(), .rvfi_ixl(),
        .rvfi_rs1_addr(), .rvfi_rs2_addr(), .rvfi_rs1_rdata(), .rvfi_rs2_rdata(),
        .rvfi_rd_addr(rvfi_rd_addr), .rvfi_rd_wdata(rvfi_rd_wdata),
        .rvfi_pc_rdata(rvfi_pc_rdata), .rvfi_pc_wdata(rvfi_pc_wdata),
        .rvfi_mem_addr(rvfi_mem_addr), .rvfi_mem_rmask(), .rvfi_mem_wmask(rvfi_mem_wmask),
        .rvfi_mem_rdata(), .rvfi_mem_wdata(rvfi_mem_wdata),
        .rvfi_csr_mcycle_rmask(), .rvfi_csr_mcycle_wmask(),
        .rvfi_csr_mcycle_rdata(), .rvfi_csr_mcycle_wdata(),
        .rvfi_csr_minstret_rmask(), .rvfi_csr_minstret_wmask(),
        .rvfi_csr_minstret_rdata(), .rvfi_csr_minstret_wdata(),
`endif
        .trace_valid(), .trace_data()
    );

    wire [INFO_W:0] ev;
    wire            ev_v;

    generate
    if (TRACE != 0) begin : g_trace
`ifdef RISCV_FORMAL
    trc_rvfi #(
        .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ID_SHIFT(2), .RVC(0),
        .SD_AW(SD_AW), .SP_W(SP_W), .SP_UNWIND(1), .QAW(QAW), .STIM_BASE(STIM_BASE)
    ) u_rvfi (
        .clk(clk), .rst(rst),
        .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap),
        .rvfi_intr(rvfi_intr), .rvfi_pc_rdata(rvfi_pc_rdata),
        .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_rd_addr(rvfi_rd_addr),
        .rvfi_rd_wdata(rvfi_rd_wdata), .rvfi_mem_addr(rvfi_mem_addr),
        .rvfi_mem_wmask(rvfi_mem_wmask), .rvfi_mem_wdata(rvfi_mem_wdata),
        .irq_cause(eoi[VAL_W-1:0]),
        .m_axis_tdata(ev), .m_axis_tvalid(ev_v), .m_axis_tready(1'b1),
        .gap(trace_gap)
    );

    if (TRACE == 1) begin : g_core
    trc_core #(
        .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
        .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W),
        .MODE(MODE), .SK(SK), .SD(SD), .LEAN(LEAN), .SYNC_EVERY(SYNC_EVERY),
        .PRESCALE(PRESCALE), .FIFO_AW(FIFO_AW), .DT_W(DT_W), .DROP_W(DROP_W)
    ) u_trc (
        .clk(clk), .rst(rst),
        .ev_valid(ev_v), .ev_os(ev[INFO_W]), .ev_info(ev[INFO_W-1:0]),
        .flush(trace_flush), .drop(trace_drop),
        .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
        .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );
    end else begin : g_events
        assign trace_drop = 1'b0;
        assign m_axis_tdata = {OUT_W{1'b0}};
        assign m_axis_tkeep = {(OUT_W / 8){1'b0}};
        assign m_axis_tlast = 1'b0;
        assign m_axis_tvalid = 1'b0;
        wire unused_stream = &{1'b0, m_axis_tready, trace_flush};
    end
    assign retire = rvfi_valid;
`else
`ifndef __ICARUS__
        $error("trc_soc_cpu: TRACE = 1 needs RISCV_FORMAL defined (PicoRV32's RVFI ports)");
`endif
        trc_bad_param_RISCV_FORMAL u_stop ();
`endif
    end else begin : g_no_trace
        assign ev = {(INFO_W + 1){1'b0}};
        assign ev_v = 1'b0;
        assign trace_gap = 1'b0;
        assign trace_drop = 1'b0;
        assign m_axis_tdata = {OUT_W{1'b0}};
        assign m_axis_tkeep = {(OUT_W / 8){1'b0}};
        assign m_axis_tlast = 1'b0;
        assign m_axis_tvalid = 1'b0;
        assign retire = 1'b0;
        wire unused_trace = &{1'b0, m_axis_tready, trace_flush};
`ifdef RISCV_FORMAL
        wire unused_rvfi = &{1'b0, rvfi_valid, rvfi_trap, rvfi_intr, rvfi_insn, rvfi_pc_rdata,
                             rvfi_pc_wdata, rvfi_rd_wdata, rvfi_mem_addr, rvfi_mem_wdata,
                             rvfi_rd_addr, rvfi_mem_wmask};
`endif
    end
    endgenerate

    assign ev_valid = ev_v;
    assign ev_data  = ev;

    wire unused_eoi = &{1'b0, eoi};

endmodule

`resetall
