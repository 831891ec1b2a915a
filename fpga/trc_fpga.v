// trc_fpga: pin wrapper of the FPGA flows (fpga/flow.py), around every core
// of the design table. Gives a core a few pins: every core input comes from
// a serial-in shift register (pin din), every core output goes into a
// register, each byte of it into a registered parity bit, and the parity of
// those drives pin dout (two short XOR trees: the wrapper is never the
// critical path); reset is registered. So nothing is optimized away and the
// core's paths are register to register. Its own cost (IW + OW flip-flops,
// one per output byte and 2 more, and the parity trees) is measured by the
// flow as the difference between the wrapped and the bare synthesis.
// One clock domain per bit of clk, din and dout: bit 0 is the core's clock.
// The dual-clock front end (CORE 4) has two: clk[1] is the CPU's clock
// (ev_clk), din[1] its events and dout[1] the parity of its outputs, din[0]
// m_axis_tready; every other core has one, so its pins are clk, rst_pin,
// din and dout.
// Parameters:
//   CORE - the core inside: 0 trc_enc, 1 trc_core, 2 trc_lz4_core,
//          3 trc_soc_cpu (PicoRV32, with or without its tracer; its
//          observation outputs ev_*, retire are left open), 4 trc_core_dc,
//          5 trc_mpcore
//   CLOCKS - the clock domains: derived from CORE, never set
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W, MODE, SK, SD, SO, TQ, FE, LEAN, CHECK -
//          as in trc_enc (CORE 0, 1; 3 takes NT .. OUT_W, MODE and LEAN;
//          4 and 5 NT .. OUT_W)
//   FIFO_AW, DT_W, DROP_W - as in trc_core (CORE 1 and 3; PRESCALE 1; 4 and 5
//          take FIFO_AW)
//   WIN_BITS, OUT_AW, LIT_AW - as in trc_lz4_core (CORE 2)
//   TRACE - as in trc_soc_cpu (CORE 3): the tracer beside the CPU
//   CDC_AW, CDC_SYNC - as in trc_core_dc (CORE 4)
//   NCPU, BURST - as in trc_mpcore (CORE 5)
`default_nettype none
`include "trc_format.vh"

module trc_fpga #(
    parameter integer CORE     = 0,   // 0 trc_enc, 1 trc_core, 2 LZ4, 3 PicoRV32 system,
                                      // 4 trc_core_dc, 5 trc_mpcore
    parameter integer CLOCKS   = CORE == 4 ? 2 : 1,  // clock domains (derived)
    parameter integer NT       = 23,  // delta bits
    parameter integer FID_W    = 15,  // function id bits
    parameter integer TYPE_W   = 7,   // OS type bits
    parameter integer VAL_W    = 16,  // OS value bits
    parameter integer ND_F     = 3,   // function dictionary address bits
    parameter integer ND_T     = 3,   // type dictionary address bits
    parameter integer ND_V     = 3,   // value dictionary address bits
    parameter integer OUT_W    = 64,  // output word width
    parameter integer MODE     = 0,   // 0 paper mode, 1 stack mode, 2 stack mode 2
    parameter integer SK       = 9,   // stack mode: context table index bits
    parameter integer SD       = 16,  // stack mode: shadow call stack depth
    parameter integer SO       = 9,   // stack mode 2: OS context table index bits
    parameter integer TQ       = 1,   // stack mode 2: time quantum in ticks
    parameter integer FE       = 0,   // stack mode 2: fresh entries
    parameter integer LEAN     = 0,   // 1: the lean paper mode encoder
    parameter integer CHECK    = 0,   // 1: a checked stream (trc_wcrc)
    parameter integer FIFO_AW  = 4,   // trc_core: input FIFO address bits
    parameter integer DT_W     = 48,  // trc_core: ticks counter width
    parameter integer DROP_W   = 48,  // trc_core: dropped events counter width
    parameter integer WIN_BITS = 12,  // LZ4: history window 2^WIN_BITS bytes
    parameter integer OUT_AW   = 11,  // LZ4: output FIFO address bits
    parameter integer LIT_AW   = 9,   // LZ4: literal FIFO address bits
    parameter integer TRACE    = 1,   // PicoRV32 system: tracer beside the CPU
    parameter integer CDC_AW   = 4,   // dual-clock: crossing FIFO address bits
    parameter integer CDC_SYNC = 2,   // dual-clock: synchronizer flops
    parameter integer NCPU     = 2,   // several CPUs: the CPUs
    parameter integer BURST    = 16   // several CPUs: records in a row from one CPU at most
) (
    input  wire [CLOCKS-1:0] clk,      // [0] the core's clock; [1] the CPU's (CORE 4)
    input  wire              rst_pin,
    input  wire [CLOCKS-1:0] din,      // serial input on each clock
    output wire [CLOCKS-1:0] dout      // parity of the outputs on each clock
);
  localparam integer INFO_W = `TRC_INFO_W(FID_W, TYPE_W, VAL_W);
  localparam integer RW = 1 + NT + INFO_W;
  localparam integer EW = INFO_W + 2;   // CORE 5: one CPU's event bits
  // core inputs (on the last clock) and outputs (on clk[0]), all through the pins
  localparam integer IW = CORE == 0 ? RW + 2 : CORE == 1 ? INFO_W + 4 : CORE == 2 ? 11 :
                          CORE == 3 ? 1 + 32 + 32 + 2 : CORE == 4 ? INFO_W + 3 :
                          NCPU * EW + VAL_W + 5;
  localparam integer OW = CORE == 2 ? 11 : CORE == 3 ? 1 + 1 + 32 + 32 + 4 + 1 + OUT_W +
                          OUT_W / 8 + 4 : CORE == 5 ? OUT_W + OUT_W / 8 + 2 + NCPU :
                          OUT_W + OUT_W / 8 + 3;
  localparam integer PB = (OW + 7) / 8;
  wire          core_clk = clk[0];
  wire          in_clk = clk[CLOCKS-1];   // the clock of the core's inputs
  reg  [IW-1:0] in_q;
  reg  [OW-1:0] out_q;
  reg  [PB-1:0] par_q;   // parity of each byte of out_q
  reg           rst_q;
  reg           dout_q;
  wire [OW-1:0] core_out;

  // (each core takes its own parameters; TRACE is CORE 3's alone)
  wire unused_trace = TRACE != 0;

  always @(posedge in_clk)
    in_q <= {in_q[IW-2:0], din[CLOCKS-1]};

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge core_clk) begin
    rst_q <= rst_pin;
    out_q <= core_out;
    for (b = 0; b < PB; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout_q <= ^par_q;
  end
  assign dout[0] = dout_q;

  generate
    `TRC_PARAM_CHECK(CORE >= 0 && CORE <= 5, g_bad_core, trc_bad_param_CORE,
                     "trc_fpga: CORE must be 0..5")
    `TRC_PARAM_CHECK(CLOCKS == (CORE == 4 ? 2 : 1), g_bad_clocks, trc_bad_param_CLOCKS,
                     "trc_fpga: CLOCKS is derived from CORE, never set")
    if (CORE == 0) begin : g_enc
      wire [OUT_W-1:0]   m_tdata;
      wire [OUT_W/8-1:0] m_tkeep;
      wire               m_tvalid, m_tlast, s_tready;
      trc_enc #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .MODE(MODE), .SK(SK),
                .SD(SD), .SO(SO), .TQ(TQ), .FE(FE), .LEAN(LEAN), .CHECK(CHECK)) u_core (
          .clk(core_clk), .rst(rst_q),
          .s_axis_tdata(in_q[RW-1:0]), .s_axis_tvalid(in_q[RW]), .s_axis_tready(s_tready),
          .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
          .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[RW+1])
      );
      assign core_out = {m_tdata, m_tkeep, m_tvalid, m_tlast, s_tready};
    end else if (CORE == 1) begin : g_core
      wire [OUT_W-1:0]   m_tdata;
      wire [OUT_W/8-1:0] m_tkeep;
      wire               m_tvalid, m_tlast, drop;
      trc_core #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                 .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .LEAN(LEAN), .CHECK(CHECK),
                 .PRESCALE(1),
                 .FIFO_AW(FIFO_AW), .DT_W(DT_W), .DROP_W(DROP_W)) u_core (
          .clk(core_clk), .rst(rst_q),
          .ev_valid(in_q[0]), .ev_os(in_q[1]), .ev_info(in_q[INFO_W+1:2]),
          .flush(in_q[INFO_W+2]), .drop(drop),
          .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
          .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[INFO_W+3])
      );
      assign core_out = {m_tdata, m_tkeep, m_tvalid, m_tlast, drop};
    end else if (CORE == 2) begin : g_lz4
      wire [7:0] m_tdata;
      wire       m_tvalid, m_tlast, s_tready;
      trc_lz4_core #(.WIN_BITS(WIN_BITS), .OUT_AW(OUT_AW), .LIT_AW(LIT_AW)) u_core (
          .clk(core_clk), .rst(rst_q),
          .s_axis_tdata(in_q[7:0]), .s_axis_tvalid(in_q[8]), .s_axis_tready(s_tready),
          .s_axis_tlast(in_q[9]),
          .m_axis_tdata(m_tdata), .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[10]),
          .m_axis_tlast(m_tlast)
      );
      assign core_out = {m_tdata, m_tvalid, m_tlast, s_tready};
    end else if (CORE == 3) begin : g_soc
      wire               mem_valid, mem_instr, trap, m_tvalid, m_tlast, drop, gap;
      wire [31:0]        mem_addr, mem_wdata;
      wire [3:0]         mem_wstrb;
      wire [OUT_W-1:0]   m_tdata;
      wire [OUT_W/8-1:0] m_tkeep;
      // observation outputs, left open: they have no load
      wire               unused_ev_valid, unused_retire;
      wire [INFO_W:0]    unused_ev_data;
      trc_soc_cpu #(.TRACE(TRACE), .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                    .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .MODE(MODE),
                    .LEAN(LEAN), .FIFO_AW(FIFO_AW), .DT_W(DT_W), .DROP_W(DROP_W)) u_sys (
          .clk(core_clk), .rst(rst_q),
          .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(in_q[0]),
          .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb),
          .mem_rdata(in_q[32:1]), .irq(in_q[64:33]), .trap(trap),
          .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
          .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[65]), .trace_flush(in_q[66]),
          .trace_drop(drop), .trace_gap(gap),
          .ev_valid(unused_ev_valid), .ev_data(unused_ev_data), .retire(unused_retire)
      );
      assign core_out = {mem_valid, mem_instr, mem_addr, mem_wdata, mem_wstrb, trap,
                         m_tdata, m_tkeep, m_tvalid, m_tlast, drop, gap};
    end else if (CORE == 4) begin : g_dc
      // the events on the CPU's clock (in_q), m_axis_tready on the core's
      // (din[0]); the CPU side's outputs folded into dout[1] on its clock
      wire [OUT_W-1:0]   m_tdata;
      wire [OUT_W/8-1:0] m_tkeep;
      wire               m_tvalid, m_tlast, drop, ev_drop, ev_rst;
      reg                rdy_q, ev_dout_q;
      reg  [1:0]         ev_out_q;
      always @(posedge core_clk)
        rdy_q <= din[0];
      always @(posedge in_clk) begin
        ev_out_q <= {ev_drop, ev_rst};
        ev_dout_q <= ^ev_out_q;
      end
      assign dout[CLOCKS-1] = ev_dout_q;
      trc_core_dc #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                    .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .PRESCALE(1),
                    .FIFO_AW(FIFO_AW), .CDC_AW(CDC_AW), .CDC_SYNC(CDC_SYNC)) u_core (
          .ev_clk(in_clk), .ev_valid(in_q[0]), .ev_os(in_q[1]), .ev_info(in_q[INFO_W+1:2]),
          .flush(in_q[INFO_W+2]), .ev_drop(ev_drop), .ev_rst(ev_rst),
          .clk(core_clk), .rst(rst_q), .drop(drop),
          .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
          .m_axis_tvalid(m_tvalid), .m_axis_tready(rdy_q)
      );
      assign core_out = {m_tdata, m_tkeep, m_tvalid, m_tlast, drop};
    end else begin : g_mp
      // in_q: each CPU's event (valid, os, info), then flush, mark, start,
      // stop, tready and the marker's value
      wire [OUT_W-1:0]       m_tdata;
      wire [OUT_W/8-1:0]     m_tkeep;
      wire                   m_tvalid, m_tlast;
      wire [NCPU-1:0]        drop, tracing, ev_valid, ev_os;
      wire [NCPU*INFO_W-1:0] ev_info;
      wire [IW-NCPU*EW-1:0]  ctl = in_q[IW-1:NCPU*EW];
      genvar g;
      for (g = 0; g < NCPU; g = g + 1) begin : g_ev
        assign ev_valid[g] = in_q[g*EW];
        assign ev_os[g] = in_q[g*EW+1];
        assign ev_info[g*INFO_W +: INFO_W] = in_q[g*EW+2 +: INFO_W];
      end
      trc_mpcore #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                   .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .NCPU(NCPU), .BURST(BURST),
                   .PRESCALE(1), .FIFO_AW(FIFO_AW)) u_core (
          .clk(core_clk), .rst(rst_q),
          .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info), .flush(ctl[0]),
          .drop(drop), .mark(ctl[1]), .mark_value(ctl[5 +: VAL_W]), .start(ctl[2]),
          .stop(ctl[3]), .tracing(tracing),
          .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
          .m_axis_tvalid(m_tvalid), .m_axis_tready(ctl[4])
      );
      assign core_out = {m_tdata, m_tkeep, m_tvalid, m_tlast, drop ^ tracing};
    end
  endgenerate
endmodule

`resetall
