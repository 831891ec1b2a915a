// trc_packer: packs coded records (right-aligned bit strings) MSB first into
// OUT_W-bit AXI-Stream words, first stream byte in the most significant byte.
// A flush record (END/SYNC) is padded with zeros to the byte boundary and the
// word it ends goes out early, tkeep marking its bytes, with tlast.
// Parameters:
//   OUT_W  - output width in bits: 8, 16, 32 or 64
//   MAXLEN - longest coded record in bits
//   LENW   - width of the length input
`default_nettype none

module trc_packer #(
    parameter OUT_W  = 64,
    parameter MAXLEN = 57,
    parameter LENW   = 6
) (
    input  wire                 clk,
    input  wire                 rst,
    // ---- coded records in
    input  wire [MAXLEN-1:0]    s_bits,
    input  wire [LENW-1:0]      s_len,
    input  wire                 s_flush,
    input  wire                 s_valid,
    output wire                 s_ready,
    // ---- stream out
    output reg  [OUT_W-1:0]     m_axis_tdata,
    output reg  [OUT_W/8-1:0]   m_axis_tkeep,
    output reg                  m_axis_tlast,
    output reg                  m_axis_tvalid,
    input  wire                 m_axis_tready
);

    localparam KW    = OUT_W / 8;
    // Room for a word in progress plus the longest record padded to bytes.
    localparam BUF_W = OUT_W + 8 * ((MAXLEN + 7) / 8);
    localparam CNTW  = $clog2(BUF_W + 1);
    localparam [CNTW-1:0] OUT_C = OUT_W[CNTW-1:0];
    localparam [CNTW-1:0] BUF_C = BUF_W[CNTW-1:0];

    // buf_q holds cnt_q pending bits from its MSB down; the bits below them
    // are zero after every append (the pad of a flush relies on it).
    reg [BUF_W-1:0] buf_q, buf_d;
    reg [CNTW-1:0]  cnt_q, cnt_d;
    reg             fl_q, fl_d;     // a flush record is in buf_q

    wire last    = fl_q && cnt_q <= OUT_C;
    wire avail   = cnt_q >= OUT_C || (fl_q && cnt_q != {CNTW{1'b0}});
    wire emit_ok = !m_axis_tvalid || m_axis_tready;
    wire emit    = avail && emit_ok;

    wire [BUF_W-1:0] buf_ae = emit ? buf_q << OUT_W : buf_q;
    wire [CNTW-1:0]  cnt_ae = !emit ? cnt_q : last ? {CNTW{1'b0}} : cnt_q - OUT_C;
    wire             fl_ae  = fl_q && !(emit && last);

    // Accept only when the rest of the buffer is below one word: then a
    // record of MAXLEN bits always fits, and at OUT_W >= MAXLEN one record per
    // clock goes in while one word per clock goes out.
    assign s_ready = !fl_ae && cnt_ae < OUT_C;
    wire fire = s_valid && s_ready;

    wire [BUF_W-1:0] bits_ext = {{(BUF_W-MAXLEN){1'b0}}, s_bits};
    wire [CNTW-1:0]  len_ext  = {{(CNTW-LENW){1'b0}}, s_len};
    wire [CNTW-1:0]  sh       = BUF_C - cnt_ae - len_ext;
    wire [CNTW-1:0]  cnt_new  = cnt_ae + len_ext;
    wire [CNTW-1:0]  seven    = {{(CNTW-3){1'b0}}, 3'd7};
    wire [CNTW-1:0]  cnt_pad  = (cnt_new + seven) & ~seven;

    always @* begin
        buf_d = buf_ae;
        cnt_d = cnt_ae;
        fl_d  = fl_ae;
        if (fire) begin
            buf_d = (buf_ae & ~({BUF_W{1'b1}} >> cnt_ae)) | (bits_ext << sh);
            cnt_d = s_flush ? cnt_pad : cnt_new;
            fl_d  = s_flush;
        end
    end

    // ---- output register
    reg [OUT_W-1:0] tdata_d;
    reg [KW-1:0]    tkeep_d;
    reg             tlast_d, tvalid_d;
    always @* begin
        tdata_d  = m_axis_tdata;
        tkeep_d  = m_axis_tkeep;
        tlast_d  = m_axis_tlast;
        tvalid_d = m_axis_tvalid && !m_axis_tready;
        if (emit) begin
            tdata_d  = buf_q[BUF_W-1 -: OUT_W];
            tkeep_d  = last ? ~({KW{1'b1}} >> cnt_q[CNTW-1:3]) : {KW{1'b1}};
            tlast_d  = last;
            tvalid_d = 1'b1;
        end
    end

    always @(posedge clk) begin
        buf_q        <= buf_d;
        m_axis_tdata <= tdata_d;
        m_axis_tkeep <= tkeep_d;
        m_axis_tlast <= tlast_d;
        if (rst) begin
            cnt_q         <= {CNTW{1'b0}};
            fl_q          <= 1'b0;
            m_axis_tvalid <= 1'b0;
        end else begin
            cnt_q         <= cnt_d;
            fl_q          <= fl_d;
            m_axis_tvalid <= tvalid_d;
        end
    end

`ifdef TRC_ASSERT
    reg             past_stall_q;
    reg [OUT_W-1:0] past_data_q;
    reg [KW-1:0]    past_keep_q;
    reg             past_last_q;
    always @(posedge clk) begin
        past_stall_q <= !rst && m_axis_tvalid && !m_axis_tready;
        past_data_q  <= m_axis_tdata;
        past_keep_q  <= m_axis_tkeep;
        past_last_q  <= m_axis_tlast;
        if (!rst && past_stall_q)
            assert (m_axis_tvalid && m_axis_tdata == past_data_q &&
                    m_axis_tkeep == past_keep_q && m_axis_tlast == past_last_q)
                else $error("%m: m_axis beat changed while stalled");
        if (!rst && m_axis_tvalid)
            assert (m_axis_tkeep != {KW{1'b0}} && (m_axis_tlast || &m_axis_tkeep))
                else $error("%m: empty or early-ended word without tlast");
        if (!rst)
            assert (cnt_q <= BUF_C && (!fl_q || cnt_q[2:0] == 3'd0))
                else $error("%m: bit count out of range");
    end
`endif

endmodule

`resetall
