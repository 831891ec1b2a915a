// trc_packer: packs coded records (right-aligned bit strings) MSB first into
// OUT_W-bit AXI-Stream words, first stream byte in the most significant byte.
// A flush record (END/SYNC) is padded with zeros to the byte boundary and the
// word it ends goes out early, tkeep marking its bytes, with tlast.
// Parameters:
//   OUT_W  - output width in bits: 8, 16, 32 or 64
//   MAXLEN - longest coded record in bits
//   EW     - width of the end-position input (trc_enc: $clog2(OUT_W + MAXLEN))
`default_nettype none

module trc_packer #(
    parameter OUT_W  = 64,
    parameter MAXLEN = 57,
    parameter EW     = 7    // end-position bits: 2^EW > OUT_W - 1 + MAXLEN
) (
    input  wire                 clk,
    input  wire                 rst,
    // ---- coded records in
    input  wire [MAXLEN-1:0]    s_bits,
    input  wire [EW-1:0]        s_end,      // bit phase of the record + its length
    input  wire [EW-1:0]        s_endm1,    // s_end - 1
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
    localparam OWL   = $clog2(OUT_W);
    // Three stages. (0a, 0b) The record is shifted to its bit phase within a window
    // of WIN = 2^EW bits that starts at a word boundary (the coder tracks the
    // phase, so this stage has no loop). (1) The window is ORed into the
    // buffer below the pending whole words, and words leave from the top.
    // The packer takes a window while fewer than TW whole or started words
    // wait in it (a flop, so nothing combinational runs from m_axis_tready
    // or the bit count to s_ready). With one word leaving per clock, the
    // count after a word out and a record in stays below TW words when TW =
    // ceil((OUT_W + MAXLEN) / OUT_W) and MAXLEN <= OUT_W: one record per
    // clock. A window lands below at most TW-1 whole words.
    localparam WIN   = 1 << EW;
    localparam TW_I  = (2 * OUT_W + MAXLEN - 1) / OUT_W;
    localparam BUF_W = (TW_I - 1) * OUT_W + WIN;
    localparam CNTW  = $clog2(BUF_W + 1);
    localparam WW    = CNTW - OWL;            // word count bits
    localparam EH    = EW - OWL;              // whole-word bits of an end position
    localparam [CNTW-1:0] OUT_C = OUT_W[CNTW-1:0];
    localparam [WW-1:0]   TW_C  = TW_I[WW-1:0];

    // ---- stage 0: window, in two steps (a: coarse, b: fine shift); the
    // stages before the buffer all move together (adv) when the last one
    // is empty or the buffer takes it. Datapath not reset, valid is.
    localparam LB = EW - EW / 2;              // fine shift bits
    reg [WIN-1:0] xa_q, win_q;
    reg [LB-1:0]  lo_q;
    reg [EW-1:0]  end_a_q, endm1_a_q, end_q, endm1_q;
    reg           flush_a_q, flush_q, va_q, v0_q;
    wire          p_ready;
    wire          adv = p_ready || !v0_q;
    assign s_ready = adv;
    // {bits, 0} << (WIN-1-end) = ... << ~end: the record's first bit lands
    // ph bits below the window's top
    wire [WIN-1:0] bits_x = {{(WIN-MAXLEN-1){1'b0}}, s_bits, 1'b0};
    wire [EW-1:0]  amt    = ~s_end;
    always @(posedge clk) begin
        if (adv) begin
            xa_q      <= bits_x << {amt[EW-1:LB], {LB{1'b0}}};
            lo_q      <= amt[LB-1:0];
            end_a_q   <= s_end;
            endm1_a_q <= s_endm1;
            flush_a_q <= s_flush;
            win_q     <= xa_q << lo_q;
            end_q     <= end_a_q;
            endm1_q   <= endm1_a_q;
            flush_q   <= flush_a_q;
        end
        if (rst) begin
            va_q <= 1'b0;
            v0_q <= 1'b0;
        end else if (adv) begin
            va_q <= s_valid;
            v0_q <= va_q;
        end
    end

    // ---- stage 1
    // buf_q holds cnt_q pending bits from its MSB down; the bits below them
    // are zero (reset clears the buffer; every window lands below the
    // pending whole words and its bits above the record's are zero). A flush
    // record pads cnt_q up to whole words; fl_q says such a flush is
    // pending, its last word fli_q words below the top, with keep_q marking
    // that word's bytes. The low OWL bits of cnt_q are the coder's phase.
    reg [BUF_W-1:0] buf_q, buf_d;
    reg [CNTW-1:0]  cnt_q, cnt_d;
    reg             fl_q, fl_d;
    reg [WW-1:0]    fli_q, fli_d;
    reg [KW-1:0]    keep_q, keep_d;
    reg             rdy_q;

    wire [WW-1:0] wq     = cnt_q[CNTW-1:OWL];  // whole words pending
    wire last    = fl_q && fli_q == {WW{1'b0}};
    wire avail   = wq != {WW{1'b0}};
    wire emit_ok = !m_axis_tvalid || m_axis_tready;
    wire emit    = avail && emit_ok;

    // A second flush waits until the first has left.
    assign p_ready = rdy_q && !(fl_q && flush_q);
    wire fire = v0_q && p_ready;

    // The window goes in below the pending whole words (the bit count's low
    // bits are the window's phase), then the top word leaves (when it does,
    // at least OUT_W bits were pending, so the record is not in it). Word
    // arithmetic only: the end positions' low bits are the count's.
    wire [WW-1:0]    end_hi   = {{(WW-EH){1'b0}}, end_q[EW-1:OWL]};
    wire [WW-1:0]    em1_hi   = {{(WW-EH){1'b0}}, endm1_q[EW-1:OWL]};
    wire [WW-1:0]    w_new    = wq + end_hi;
    wire [WW-1:0]    cnt_li   = wq + em1_hi;         // last word, from the top
    wire [WW-1:0]    w_pad    = cnt_li + 1'b1;       // whole words after a flush
    wire [CNTW-1:0]  cnt_new  = {w_new, end_q[OWL-1:0]};
    wire [CNTW-1:0]  cnt_pad  = {w_pad, {OWL{1'b0}}};
    wire [CNTW-1:0]  cnt_wb   = {wq, {OWL{1'b0}}};
    // bytes of the last word in use, 1..KW: a run of ones from the MSB
    wire [OWL:0]     lbytes   = {1'b0, endm1_q[OWL-1:0]} / 8 + 1'b1;
    wire [KW-1:0]    keep_new = ~({KW{1'b1}} >> lbytes);
    wire [BUF_W-1:0] win_ext  = {win_q, {(BUF_W-WIN){1'b0}}};
    wire [BUF_W-1:0] buf_in   = fire ? buf_q | (win_ext >> cnt_wb) : buf_q;
    wire [CNTW-1:0]  cnt_x    = !fire ? cnt_q : flush_q ? cnt_pad : cnt_new;
    wire [WW-1:0]    w_x      = !fire ? wq : flush_q ? w_pad : w_new;
    wire [WW-1:0]    emit_w   = {{(WW-1){1'b0}}, emit};
    // the next cycle's s_ready (see rdy_q), without a subtract in the way
    wire rdy_n = (emit ? w_x <= TW_C : w_x < TW_C) &&
                 (fire && flush_q ? cnt_li <= emit_w : !fl_q || fli_q <= emit_w);

    always @* begin
        buf_d  = emit ? buf_in << OUT_W : buf_in;
        cnt_d  = emit ? cnt_x - OUT_C : cnt_x;
        fl_d   = fl_q;
        fli_d  = fli_q;
        keep_d = keep_q;
        if (fire && flush_q) begin
            fl_d   = 1'b1;
            fli_d  = cnt_li;
            keep_d = keep_new;
        end
        if (emit && fl_d) begin
            if (fli_d == {WW{1'b0}})
                fl_d = 1'b0;
            else
                fli_d = fli_d - 1'b1;
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
            tkeep_d  = last ? keep_q : {KW{1'b1}};
            tlast_d  = last;
            tvalid_d = 1'b1;
        end
    end

    always @(posedge clk) begin
        m_axis_tdata <= tdata_d;
        m_axis_tkeep <= tkeep_d;
        m_axis_tlast <= tlast_d;
        fli_q        <= fli_d;
        keep_q       <= keep_d;
        if (rst) begin
            buf_q         <= {BUF_W{1'b0}};
            cnt_q         <= {CNTW{1'b0}};
            fl_q          <= 1'b0;
            rdy_q         <= 1'b0;
            m_axis_tvalid <= 1'b0;
        end else begin
            buf_q         <= buf_d;
            cnt_q         <= cnt_d;
            fl_q          <= fl_d;
            rdy_q         <= rdy_n;
            m_axis_tvalid <= tvalid_d;
        end
    end

`ifdef TRC_ASSERT
    localparam [CNTW-1:0] BUF_C = BUF_W[CNTW-1:0];
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
            assert (cnt_q <= BUF_C && (!fl_q || wq > fli_q))
                else $error("%m: bit count out of range");
    end
`endif

endmodule

`resetall
