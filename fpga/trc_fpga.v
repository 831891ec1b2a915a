// trc_fpga: pin wrapper of the FPGA flows (fpga/flow.py). Gives a core
// four pins: every core input comes from a serial-in shift register (pin
// din), every core output goes into a register, each byte of it into a
// registered parity bit, and the parity of those drives pin dout (two short
// XOR trees: the wrapper is never the critical path); reset is registered.
// So nothing is optimized away and the core's paths are register to
// register. Its own cost (IW + OW flip-flops, one per output byte and 2
// more, and the parity trees) is measured by the flow as the difference
// between the wrapped and the bare synthesis.
// Parameters:
//   CORE - the core inside: 0 trc_enc, 1 trc_core, 2 trc_lz4_core,
//          3 trc_soc_cpu (PicoRV32, with or without its tracer; its
//          observation outputs ev_*, retire are left open)
//   NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V, OUT_W, MODE, SK, SD, SO, TQ, LEAN, CHECK -
//          as in trc_enc (CORE 0, 1; 3 takes NT .. OUT_W, MODE and LEAN)
//   FIFO_AW, DT_W, DROP_W - as in trc_core (CORE 1 and 3; PRESCALE 1)
//   WIN_BITS, OUT_AW, LIT_AW - as in trc_lz4_core (CORE 2)
//   TRACE - as in trc_soc_cpu (CORE 3): the tracer beside the CPU
`default_nettype none

module trc_fpga #(
    parameter integer CORE     = 0,   // 0 trc_enc, 1 trc_core, 2 LZ4, 3 PicoRV32 system
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
    parameter integer LEAN     = 0,   // 1: the lean paper mode encoder
    parameter integer CHECK    = 0,   // 1: a checked stream (trc_wcrc)
    parameter integer FIFO_AW  = 4,   // trc_core: input FIFO address bits
    parameter integer DT_W     = 48,  // trc_core: ticks counter width
    parameter integer DROP_W   = 48,  // trc_core: dropped events counter width
    parameter integer WIN_BITS = 12,  // LZ4: history window 2^WIN_BITS bytes
    parameter integer OUT_AW   = 11,  // LZ4: output FIFO address bits
    parameter integer LIT_AW   = 9,   // LZ4: literal FIFO address bits
    parameter integer TRACE    = 1    // PicoRV32 system: tracer beside the CPU
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire din,
    output reg  dout
);
  localparam integer INFO_W = (1 + FID_W > TYPE_W + VAL_W) ? 1 + FID_W : TYPE_W + VAL_W;
  localparam integer RW = 1 + NT + INFO_W;
  // core inputs and outputs, all through the pins
  localparam integer IW = CORE == 0 ? RW + 2 : CORE == 1 ? INFO_W + 4 : CORE == 2 ? 11 :
                          1 + 32 + 32 + 2;
  localparam integer OW = CORE == 2 ? 11 : CORE == 3 ? 1 + 1 + 32 + 32 + 4 + 1 + OUT_W +
                          OUT_W / 8 + 4 : OUT_W + OUT_W / 8 + 3;
  localparam integer PB = (OW + 7) / 8;
  reg  [IW-1:0] in_q;
  reg  [OW-1:0] out_q;
  reg  [PB-1:0] par_q;   // parity of each byte of out_q
  reg           rst_q;
  wire [OW-1:0] core_out;

  // (each core takes its own parameters; TRACE is CORE 3's alone)
  wire unused_trace = TRACE != 0;

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    in_q  <= {in_q[IW-2:0], din};
    rst_q <= rst_pin;
    out_q <= core_out;
    for (b = 0; b < PB; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  generate
    if (CORE == 0) begin : g_enc
      wire [OUT_W-1:0]   m_tdata;
      wire [OUT_W/8-1:0] m_tkeep;
      wire               m_tvalid, m_tlast, s_tready;
      trc_enc #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .MODE(MODE), .SK(SK),
                .SD(SD), .SO(SO), .TQ(TQ), .LEAN(LEAN), .CHECK(CHECK)) u_core (
          .clk(clk), .rst(rst_q),
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
          .clk(clk), .rst(rst_q),
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
          .clk(clk), .rst(rst_q),
          .s_axis_tdata(in_q[7:0]), .s_axis_tvalid(in_q[8]), .s_axis_tready(s_tready),
          .s_axis_tlast(in_q[9]),
          .m_axis_tdata(m_tdata), .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[10]),
          .m_axis_tlast(m_tlast)
      );
      assign core_out = {m_tdata, m_tvalid, m_tlast, s_tready};
    end else begin : g_soc
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
          .clk(clk), .rst(rst_q),
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
    end
  endgenerate
endmodule

`resetall
