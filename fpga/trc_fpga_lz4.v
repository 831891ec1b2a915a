// trc_fpga_lz4: pin wrapper of trc_lz4_core for the FPGA flows. Every core
// input comes from a serial-in shift register (pin din), every core output
// goes to a register whose parity (by bytes, then of those) drives pin dout,
// so nothing is optimized away with four pins. Its own cost: 11 + 11 + 2 + 2
// flip-flops and the parity trees (reports/fpga.md gives it measured, to
// subtract).
//   WIN_BITS, OUT_AW, LIT_AW: as trc_lz4_core
`default_nettype none

module trc_fpga_lz4 #(
    parameter integer WIN_BITS = 12,  // history window 2^WIN_BITS bytes
    parameter integer OUT_AW   = 11,  // output FIFO address bits
    parameter integer LIT_AW   = 9    // literal FIFO address bits
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire din,
    output reg  dout
);
  localparam integer IW = 11, OW = 11;
  reg  [IW-1:0] in_q;
  reg  [OW-1:0] out_q;
  // parity of each byte of out_q: dout is two short XOR trees, never the
  // critical path
  reg  [(OW+7)/8-1:0] par_q;
  reg           rst_q;
  wire [7:0]    m_tdata;
  wire          m_tvalid, m_tlast, s_tready;

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    in_q <= {in_q[IW-2:0], din};
    rst_q <= rst_pin;
    out_q <= {m_tdata, m_tvalid, m_tlast, s_tready};
    for (b = 0; b < (OW + 7) / 8; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  trc_lz4_core #(.WIN_BITS(WIN_BITS), .OUT_AW(OUT_AW), .LIT_AW(LIT_AW)) u_core (
      .clk(clk), .rst(rst_q),
      .s_axis_tdata(in_q[7:0]), .s_axis_tvalid(in_q[8]), .s_axis_tready(s_tready),
      .s_axis_tlast(in_q[9]),
      .m_axis_tdata(m_tdata), .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[10]),
      .m_axis_tlast(m_tlast)
  );
endmodule

`resetall
