// trc_lz4_frame: LZ4 frame writer. Frame header (magic, FLG 0x40 = version 1
// with linked blocks and no checksums, BD 0x70 = 4 MB block maximum, header
// checksum 0xDF), then per block its 4-byte little-endian size and its bytes
// from the output FIFO, then the 4-byte end mark with tlast.
//   OUT_AW: width of a block size
`default_nettype none

module trc_lz4_frame #(
    parameter integer OUT_AW = 11  // width of a block size
) (
    input  wire              clk,
    input  wire              rst,
    // block sizes (first word fall through)
    input  wire              blk_valid,
    input  wire              blk_fend,
    input  wire [OUT_AW-1:0] blk_size,
    output reg               blk_ready,
    // block bytes (first word fall through)
    input  wire              dat_valid,
    input  wire [7:0]        dat_data,
    output reg               dat_ready,
    // compressed frames
    output reg  [7:0]        m_axis_tdata,
    output reg               m_axis_tvalid,
    input  wire              m_axis_tready,
    output reg               m_axis_tlast
);
  localparam [2:0] F_IDLE = 3'd0, F_HDR = 3'd1, F_WAIT = 3'd2, F_SIZE = 3'd3,
                   F_DATA = 3'd4, F_END = 3'd5;
  localparam [55:0] HDR = 56'h04_22_4D_18_40_70_DF;

  reg [2:0]        st_q, st_d;
  reg [2:0]        idx_q, idx_d;
  reg [OUT_AW-1:0] cnt_q, cnt_d;
  wire [31:0]      size32 = {{(32-OUT_AW){1'b0}}, blk_size};
  wire             hs = m_axis_tvalid && m_axis_tready;

  always @* begin
    st_d = st_q;
    idx_d = idx_q;
    cnt_d = cnt_q;
    blk_ready = 1'b0;
    dat_ready = 1'b0;
    m_axis_tdata = 8'd0;
    m_axis_tvalid = 1'b0;
    m_axis_tlast = 1'b0;
    case (st_q)
      F_IDLE: begin
        idx_d = 0;
        if (blk_valid) st_d = F_HDR;
      end
      F_HDR: begin
        m_axis_tvalid = 1'b1;
        m_axis_tdata = HDR[8*(6-idx_q) +: 8];
        if (hs) begin
          idx_d = idx_q + 1'b1;
          if (idx_q == 3'd6) begin
            idx_d = 0;
            st_d = F_SIZE;
          end
        end
      end
      F_WAIT: begin
        idx_d = 0;
        if (blk_valid) st_d = F_SIZE;
      end
      F_SIZE: begin
        m_axis_tvalid = 1'b1;
        m_axis_tdata = size32[8*idx_q[1:0] +: 8];
        cnt_d = blk_size;
        if (hs) begin
          idx_d = idx_q + 1'b1;
          if (idx_q == 3'd3) st_d = F_DATA;
        end
      end
      F_DATA: begin
        m_axis_tvalid = dat_valid;
        m_axis_tdata = dat_data;
        dat_ready = m_axis_tready;
        if (hs) begin
          cnt_d = cnt_q - 1'b1;
          if (cnt_q == 1) begin
            blk_ready = 1'b1;
            idx_d = 0;
            st_d = blk_fend ? F_END : F_WAIT;
          end
        end
      end
      F_END: begin
        m_axis_tvalid = 1'b1;
        m_axis_tlast = (idx_q == 3'd3);
        if (hs) begin
          idx_d = idx_q + 1'b1;
          if (idx_q == 3'd3) st_d = F_IDLE;
        end
      end
      default: st_d = F_IDLE;
    endcase
  end

  always @(posedge clk) begin
    if (rst) st_q <= F_IDLE;
    else st_q <= st_d;
  end

  always @(posedge clk) begin
    idx_q <= idx_d;
    cnt_q <= cnt_d;
  end

`ifdef TRC_ASSERT
  // AXI-Stream: while tvalid && !tready, tvalid, tdata and tlast hold
  reg       hold_q;
  reg [7:0] hold_d_q;
  reg       hold_l_q;
  always @(posedge clk) begin
    if (rst) begin
      hold_q <= 1'b0;
    end else begin
      if (hold_q && !(m_axis_tvalid && m_axis_tdata == hold_d_q && m_axis_tlast == hold_l_q))
        $error("%m: m_axis changed while stalled");
      hold_q <= m_axis_tvalid && !m_axis_tready;
    end
    hold_d_q <= m_axis_tdata;
    hold_l_q <= m_axis_tlast;
  end
`endif
endmodule

`resetall
