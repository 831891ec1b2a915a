// trc_fpga_core_dc: pin wrapper of trc_core_dc (the dual-clock front end and
// trc_core) for the FPGA flows, with its two clocks on two pins: the events
// come from a serial-in shift register on ev_clk (pin din), m_axis_tready
// from one on clk (pin din_t); every output is registered on its own clock
// and folded by parity into dout (clk) and ev_dout (ev_clk). Its own cost:
// INFO_W+3 + 1 + 2 flip-flops on ev_clk, OUT_W+OUT_W/8+3 and the parity
// trees on clk (as trc_fpga_core).
//   NT .. ND_V, OUT_W, FIFO_AW, CDC_AW, CDC_SYNC: as trc_core_dc (PRESCALE 1)
`default_nettype none

module trc_fpga_core_dc #(
    parameter integer NT       = 23,  // delta bits
    parameter integer FID_W    = 15,  // function id bits
    parameter integer TYPE_W   = 7,   // OS type bits
    parameter integer VAL_W    = 16,  // OS value bits
    parameter integer ND_F     = 3,   // function dictionary address bits
    parameter integer ND_T     = 3,   // type dictionary address bits
    parameter integer ND_V     = 3,   // value dictionary address bits
    parameter integer OUT_W    = 64,  // output word width
    parameter integer FIFO_AW  = 4,   // input FIFO address bits
    parameter integer CDC_AW   = 4,   // crossing FIFO address bits
    parameter integer CDC_SYNC = 2    // synchronizer flops
) (
    input  wire clk,
    input  wire ev_clk,
    input  wire rst_pin,
    input  wire din,      // event bits, on ev_clk
    input  wire din_t,    // m_axis_tready, on clk
    output reg  dout,     // parity of the outputs on clk
    output reg  ev_dout   // parity of the outputs on ev_clk
);
  localparam integer INFO_W = (1 + FID_W > TYPE_W + VAL_W) ? 1 + FID_W : TYPE_W + VAL_W;
  localparam integer IW = INFO_W + 3, OW = OUT_W + OUT_W / 8 + 3;
  reg  [IW-1:0]      in_q;
  reg  [1:0]         ev_out_q;
  reg  [OW-1:0]      out_q;
  reg  [(OW+7)/8-1:0] par_q;
  reg                rst_q, rdy_q;
  wire [OUT_W-1:0]   m_tdata;
  wire [OUT_W/8-1:0] m_tkeep;
  wire               m_tvalid, m_tlast, drop, ev_drop, ev_rst;

  always @(posedge ev_clk) begin
    in_q <= {in_q[IW-2:0], din};
    ev_out_q <= {ev_drop, ev_rst};
    ev_dout <= ^ev_out_q;
  end

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    rst_q <= rst_pin;
    rdy_q <= din_t;
    out_q <= {m_tdata, m_tkeep, m_tvalid, m_tlast, drop};
    for (b = 0; b < (OW + 7) / 8; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  trc_core_dc #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .PRESCALE(1),
                .FIFO_AW(FIFO_AW), .CDC_AW(CDC_AW), .CDC_SYNC(CDC_SYNC)) u_core (
      .ev_clk(ev_clk), .ev_valid(in_q[0]), .ev_os(in_q[1]), .ev_info(in_q[INFO_W+1:2]),
      .flush(in_q[INFO_W+2]), .ev_drop(ev_drop), .ev_rst(ev_rst),
      .clk(clk), .rst(rst_q), .drop(drop),
      .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
      .m_axis_tvalid(m_tvalid), .m_axis_tready(rdy_q)
  );
endmodule

`resetall
