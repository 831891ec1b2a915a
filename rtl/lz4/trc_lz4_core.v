// trc_lz4_core: LZ4 baseline compressor. Bytes in, LZ4 frames out (one frame
// per input packet, tlast on the end mark), about one input byte per clock.
// Match finder and parser -> literal FIFO + command queue -> sequence
// emitter -> output FIFO -> frame writer, which needs each block's size first.
//   WIN_BITS: history window 2^WIN_BITS bytes: 12 = 4 KB (default), 16 = 64 KB
//   OUT_AW:   output FIFO 2^OUT_AW bytes; blocks <= half of it
//   LIT_AW:   literal FIFO 2^LIT_AW bytes
`default_nettype none

module trc_lz4_core #(
    parameter integer WIN_BITS = 12,  // history window 2^WIN_BITS bytes
    parameter integer OUT_AW   = 11,  // output FIFO address bits
    parameter integer LIT_AW   = 9    // literal FIFO address bits
) (
    input  wire       clk,
    input  wire       rst,
    // ---- input bytes (a packet = a frame)
    input  wire [7:0] s_axis_tdata,
    input  wire       s_axis_tvalid,
    output wire       s_axis_tready,
    input  wire       s_axis_tlast,
    // ---- LZ4 frames
    output wire [7:0] m_axis_tdata,
    output wire       m_axis_tvalid,
    input  wire       m_axis_tready,
    output wire       m_axis_tlast
);
  localparam integer CW = 1 + LIT_AW + WIN_BITS + 16;  // command word

  wire              lit_we, cmd_we, cmd_last, blk_we, blk_fend;
  wire [7:0]        lit_wdata;
  wire [LIT_AW-1:0] cmd_lits;
  wire [WIN_BITS-1:0] cmd_off;
  wire [15:0]       cmd_mlen;
  wire [OUT_AW-1:0] blk_size;
  wire              lit_full, cmd_full, blk_full, out_full;
  wire              lit_afull, cmd_afull, blk_afull, out_afull;
  // registered early-full flags: the match stage's global enable stays short
  wire              room = !lit_afull && !cmd_afull && !blk_afull;
  wire              unused_full = lit_full ^ cmd_full ^ blk_full ^ out_afull;

  trc_lz4_match #(.WIN_BITS(WIN_BITS), .OUT_AW(OUT_AW), .LIT_AW(LIT_AW)) u_match (
      .clk(clk), .rst(rst),
      .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
      .s_axis_tready(s_axis_tready), .s_axis_tlast(s_axis_tlast),
      .room(room),
      .lit_we(lit_we), .lit_data(lit_wdata),
      .cmd_we(cmd_we), .cmd_last(cmd_last), .cmd_lits(cmd_lits),
      .cmd_off(cmd_off), .cmd_mlen(cmd_mlen),
      .blk_we(blk_we), .blk_fend(blk_fend), .blk_size(blk_size)
  );

  // literal FIFO
  wire       lit_valid, lit_ready;
  wire [7:0] lit_rdata;
  trc_lz4_fifo #(.AW(LIT_AW), .DW(8)) u_litq (
      .clk(clk), .rst(rst), .wr_en(lit_we), .wr_data(lit_wdata), .full(lit_full),
      .afull(lit_afull),
      .rd_valid(lit_valid), .rd_data(lit_rdata), .rd_ready(lit_ready)
  );

  // command queue
  wire          cq_valid, cq_ready;
  wire [CW-1:0] cq_data;
  trc_lz4_fifo #(.AW(2), .DW(CW)) u_cmdq (
      .clk(clk), .rst(rst), .wr_en(cmd_we),
      .wr_data({cmd_last, cmd_lits, cmd_off, cmd_mlen}), .full(cmd_full),
      .afull(cmd_afull),
      .rd_valid(cq_valid), .rd_data(cq_data), .rd_ready(cq_ready)
  );

  // block size queue
  wire              bq_valid, bq_ready, bq_fend;
  wire [OUT_AW-1:0] bq_size;
  trc_lz4_fifo #(.AW(2), .DW(1 + OUT_AW)) u_blkq (
      .clk(clk), .rst(rst), .wr_en(blk_we), .wr_data({blk_fend, blk_size}),
      .full(blk_full), .afull(blk_afull),
      .rd_valid(bq_valid), .rd_data({bq_fend, bq_size}), .rd_ready(bq_ready)
  );

  wire       out_we;
  wire [7:0] out_wdata;
  trc_lz4_emit #(.WIN_BITS(WIN_BITS), .LIT_AW(LIT_AW)) u_emit (
      .clk(clk), .rst(rst),
      .cmd_valid(cq_valid), .cmd_ready(cq_ready),
      .cmd_last(cq_data[CW-1]), .cmd_lits(cq_data[CW-2 -: LIT_AW]),
      .cmd_off(cq_data[16 +: WIN_BITS]), .cmd_mlen(cq_data[15:0]),
      .lit_valid(lit_valid), .lit_data(lit_rdata), .lit_ready(lit_ready),
      .out_full(out_full), .out_we(out_we), .out_data(out_wdata)
  );

  // output FIFO: one closed block drains while the next one fills
  wire       ob_valid, ob_ready;
  wire [7:0] ob_data;
  trc_lz4_fifo #(.AW(OUT_AW), .DW(8)) u_outq (
      .clk(clk), .rst(rst), .wr_en(out_we), .wr_data(out_wdata), .full(out_full),
      .afull(out_afull),
      .rd_valid(ob_valid), .rd_data(ob_data), .rd_ready(ob_ready)
  );

  trc_lz4_frame #(.OUT_AW(OUT_AW)) u_frame (
      .clk(clk), .rst(rst),
      .blk_valid(bq_valid), .blk_fend(bq_fend), .blk_size(bq_size),
      .blk_ready(bq_ready),
      .dat_valid(ob_valid), .dat_data(ob_data), .dat_ready(ob_ready),
      .m_axis_tdata(m_axis_tdata), .m_axis_tvalid(m_axis_tvalid),
      .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast)
  );
endmodule

`resetall
