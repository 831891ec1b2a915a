// trc_fpga_soc: pin wrapper of trc_soc_cpu (PicoRV32, with or without its
// tracer) for the FPGA flows, as the other trc_fpga_* wrappers: every input
// from a serial-in shift register (pin din), every output into a register
// and a parity bit per byte (pin dout). The observation outputs (ev_*,
// retire) are left open. reports/soc.md gives the wrapper's cost measured.
//   TRACE, NT .. ND_V, OUT_W, MODE: as trc_soc_cpu; PicoRV32's parameters are
//   accepted so that one chparam list serves both rows (trc_soc_cpu fixes them)
`default_nettype none

module trc_fpga_soc #(
    parameter integer TRACE   = 1,   // tracer beside the CPU
    parameter integer NT      = 23,  // delta bits
    parameter integer FID_W   = 15,  // function id bits
    parameter integer TYPE_W  = 7,   // OS type bits
    parameter integer VAL_W   = 16,  // OS value bits
    parameter integer ND_F    = 3,   // function dictionary address bits
    parameter integer ND_T    = 3,   // type dictionary address bits
    parameter integer ND_V    = 3,   // value dictionary address bits
    parameter integer OUT_W   = 64,  // output word width
    parameter integer MODE    = 0    // coding mode
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire din,
    output reg  dout
);
  localparam integer IW = 1 + 32 + 32 + 2, OW = 1 + 1 + 32 + 32 + 4 + 1 + OUT_W + OUT_W / 8 + 4;
  reg  [IW-1:0]      in_q;
  reg  [OW-1:0]      out_q;
  reg  [(OW+7)/8-1:0] par_q;
  reg                rst_q;
  wire               mem_valid, mem_instr, trap, m_tvalid, m_tlast, drop, gap;
  wire [31:0]        mem_addr, mem_wdata;
  wire [3:0]         mem_wstrb;
  wire [OUT_W-1:0]   m_tdata;
  wire [OUT_W/8-1:0] m_tkeep;

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    in_q <= {in_q[IW-2:0], din};
    rst_q <= rst_pin;
    out_q <= {mem_valid, mem_instr, mem_addr, mem_wdata, mem_wstrb, trap,
              m_tdata, m_tkeep, m_tvalid, m_tlast, drop, gap};
    for (b = 0; b < (OW + 7) / 8; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  trc_soc_cpu #(.TRACE(TRACE), .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .MODE(MODE)) u_sys (
      .clk(clk), .rst(rst_q),
      .mem_valid(mem_valid), .mem_instr(mem_instr), .mem_ready(in_q[0]),
      .mem_addr(mem_addr), .mem_wdata(mem_wdata), .mem_wstrb(mem_wstrb),
      .mem_rdata(in_q[32:1]), .irq(in_q[64:33]), .trap(trap),
      .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
      .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[65]), .trace_flush(in_q[66]),
      .trace_drop(drop), .trace_gap(gap),
      .ev_valid(), .ev_data(), .retire()
  );
endmodule

`resetall
