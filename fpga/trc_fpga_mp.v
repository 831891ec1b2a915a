// trc_fpga_mp: pin wrapper of trc_mpcore for the FPGA flows: serial-in shift
// register for every input (pin din: each CPU's event, flush, the marker,
// start, stop, tready), a register and parity for every output (pin dout).
// Its own cost: NCPU*(INFO_W+2)+VAL_W+5 + OUT_W+OUT_W/8+2+NCPU flip-flops and
// the parity trees; reports/fpga.md gives it measured, to subtract.
//   NT .. ND_V, OUT_W, FIFO_AW, NCPU, BURST: as trc_mpcore (PRESCALE 1)
`default_nettype none

module trc_fpga_mp #(
    parameter integer NT      = 23,  // delta bits
    parameter integer FID_W   = 15,  // function id bits
    parameter integer TYPE_W  = 7,   // OS type bits
    parameter integer VAL_W   = 16,  // OS value bits
    parameter integer ND_F    = 3,   // function dictionary address bits
    parameter integer ND_T    = 3,   // type dictionary address bits
    parameter integer ND_V    = 3,   // value dictionary address bits
    parameter integer OUT_W   = 64,  // output word width
    parameter integer FIFO_AW = 4,   // each CPU's input FIFO address bits
    parameter integer NCPU    = 2,   // CPUs
    parameter integer BURST   = 16   // records in a row from one CPU at most
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire din,
    output reg  dout
);
  localparam integer INFO_W = (1 + FID_W > TYPE_W + VAL_W) ? 1 + FID_W : TYPE_W + VAL_W;
  localparam integer EW = INFO_W + 2;                 // one CPU's event bits
  localparam integer IW = NCPU * EW + VAL_W + 5, OW = OUT_W + OUT_W / 8 + 2 + NCPU;
  reg  [IW-1:0]      in_q;
  reg  [OW-1:0]      out_q;
  reg  [(OW+7)/8-1:0] par_q;
  reg                rst_q;
  wire [OUT_W-1:0]   m_tdata;
  wire [OUT_W/8-1:0] m_tkeep;
  wire               m_tvalid, m_tlast;
  wire [NCPU-1:0]    drop, tracing;
  wire [NCPU-1:0]    ev_valid, ev_os;
  wire [NCPU*INFO_W-1:0] ev_info;
  wire [IW-NCPU*EW-1:0]  ctl = in_q[IW-1:NCPU*EW];

  localparam [OW-1:0] BYTE = {{(OW-8){1'b0}}, 8'hff};
  integer b;
  always @(posedge clk) begin
    in_q <= {in_q[IW-2:0], din};
    rst_q <= rst_pin;
    out_q <= {m_tdata, m_tkeep, m_tvalid, m_tlast, drop ^ tracing};
    for (b = 0; b < (OW + 7) / 8; b = b + 1)
      par_q[b] <= ^(out_q & BYTE << (8 * b));
    dout <= ^par_q;
  end

  genvar g;
  generate
    for (g = 0; g < NCPU; g = g + 1) begin : g_ev
      assign ev_valid[g] = in_q[g*EW];
      assign ev_os[g] = in_q[g*EW+1];
      assign ev_info[g*INFO_W +: INFO_W] = in_q[g*EW+2 +: INFO_W];
    end
  endgenerate

  trc_mpcore #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
               .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .NCPU(NCPU), .BURST(BURST),
               .PRESCALE(1), .FIFO_AW(FIFO_AW)) u_core (
      .clk(clk), .rst(rst_q),
      .ev_valid(ev_valid), .ev_os(ev_os), .ev_info(ev_info), .flush(ctl[0]),
      .drop(drop), .mark(ctl[1]), .mark_value(ctl[5 +: VAL_W]), .start(ctl[2]),
      .stop(ctl[3]), .tracing(tracing),
      .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tlast(m_tlast),
      .m_axis_tvalid(m_tvalid), .m_axis_tready(ctl[4])
  );
endmodule

`resetall
