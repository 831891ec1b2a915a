// trc_lz4_fifo: first-word-fall-through FIFO on a trc_lz4_ram; the RAM's
// output register is the FIFO head, so a byte per clock flows through with
// no bypass path. Capacity 2^AW + 1 words; afull is a registered early
// full for writers that must not look at this cycle's pointers.
//   AW: address bits of the RAM
//   DW: word width
`default_nettype none

module trc_lz4_fifo #(
    parameter integer AW = 9,  // address bits of the RAM
    parameter integer DW = 8   // word width
) (
    input  wire          clk,
    input  wire          rst,
    // write side: wr_en only while !full
    input  wire          wr_en,
    input  wire [DW-1:0] wr_data,
    output wire          full,
    output reg           afull,   // registered: a write may not fit
    // read side (AXI-Stream-like handshake)
    output wire          rd_valid,
    output wire [DW-1:0] rd_data,
    input  wire          rd_ready
);
  reg  [AW:0] wp_q, wp_d, rp_q, rp_d;
  reg         ov_q, ov_d;
  wire        ram_empty = (wp_q == rp_q);
  wire        pop = ov_q && rd_ready;
  wire        fetch = !ram_empty && (!ov_q || pop);

  assign full = (wp_q[AW] != rp_q[AW]) && (wp_q[AW-1:0] == rp_q[AW-1:0]);
  assign rd_valid = ov_q;

  always @* begin
    wp_d = wp_q;
    rp_d = rp_q;
    ov_d = ov_q;
    if (wr_en) wp_d = wp_q + 1'b1;
    if (fetch) begin
      rp_d = rp_q + 1'b1;
      ov_d = 1'b1;
    end else if (pop) begin
      ov_d = 1'b0;
    end
  end

  // words in the RAM at the start of this cycle; one write per cycle at most,
  // so >= 2^AW - 2 now leaves one free word next cycle
  wire [AW:0] used_q = wp_q - rp_q;

  always @(posedge clk) begin
    if (rst) begin
      wp_q <= 0;
      rp_q <= 0;
      ov_q <= 1'b0;
      afull <= 1'b0;
    end else begin
      wp_q <= wp_d;
      rp_q <= rp_d;
      ov_q <= ov_d;
      afull <= (used_q >= (1 << AW) - 2);
    end
  end

  trc_lz4_ram #(.AW(AW), .DW(DW)) u_ram (
      .clk(clk), .we(wr_en), .waddr(wp_q[AW-1:0]), .wdata(wr_data),
      .re(fetch), .raddr(rp_q[AW-1:0]), .rdata(rd_data)
  );

`ifdef TRC_ASSERT
  always @(posedge clk) begin
    if (!rst && wr_en && full) $error("%m: write while full");
  end
`endif
endmodule

`resetall
