// trc_fpga_enc: pin wrapper of trc_enc for the FPGA flows: serial-in shift
// register for every input (pin din), a register and parity for every output
// (pin dout). Its own cost: 2+NT+INFO_W + OUT_W+OUT_W/8+3 flip-flops, one per
// output byte and 1 more, and the parity trees; reports/fpga.md gives it
// measured, to subtract.
//   NT .. ND_V, OUT_W, MODE, SK, SD, SO: as trc_enc
`default_nettype none

module trc_fpga_enc #(
    parameter integer NT     = 23,  // delta bits
    parameter integer FID_W  = 15,  // function id bits
    parameter integer TYPE_W = 7,   // OS type bits
    parameter integer VAL_W  = 16,  // OS value bits
    parameter integer ND_F   = 3,   // function dictionary address bits
    parameter integer ND_T   = 3,   // type dictionary address bits
    parameter integer ND_V   = 3,   // value dictionary address bits
    parameter integer OUT_W  = 64,  // output word width
    parameter integer MODE   = 0,   // 0 paper mode, 1 stack mode, 2 stack mode 2
    parameter integer SK     = 9,   // stack modes: context table index bits
    parameter integer SD     = 16,  // stack modes: shadow call stack depth
    parameter integer SO     = 9    // stack mode 2: OS context table index bits
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire din,
    output reg  dout
);
  localparam integer INFO_W = (1 + FID_W > TYPE_W + VAL_W) ? 1 + FID_W : TYPE_W + VAL_W;
  localparam integer RW = 1 + NT + INFO_W;
  localparam integer IW = RW + 2, OW = OUT_W + OUT_W / 8 + 3;
  reg  [IW-1:0]      in_q;
  reg  [OW-1:0]      out_q;
  // parity of each byte of out_q: dout is two short XOR trees, never the
  // critical path
  reg  [(OW+7)/8-1:0] par_q;
  reg                rst_q;
  wire [OUT_W-1:0]   m_tdata;
  wire [OUT_W/8-1:0] m_tkeep;
  wire               m_tvalid, m_tlast, s_tready;

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    in_q <= {in_q[IW-2:0], din};
    rst_q <= rst_pin;
    out_q <= {m_tdata, m_tkeep, m_tvalid, m_tlast, s_tready};
    for (b = 0; b < (OW + 7) / 8; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  trc_enc #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
            .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .MODE(MODE), .SK(SK),
            .SD(SD), .SO(SO)) u_core (
      .clk(clk), .rst(rst_q),
      .s_axis_tdata(in_q[RW-1:0]), .s_axis_tvalid(in_q[RW]), .s_axis_tready(s_tready),
      .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
      .m_axis_tvalid(m_tvalid), .m_axis_tready(in_q[RW+1])
  );
endmodule

`resetall
