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
    // Two stages. (0) The record is shifted to its bit phase within a window
    // of WIN = 2^EW bits that starts at a word boundary (the coder tracks the
    // phase, so this stage has no loop). (1) The window is ORed into the
    // buffer below the pending whole words, and words leave from the top.
    // The packer takes a window while fewer than T bits wait in it (a flop,
    // so nothing combinational runs from m_axis_tready or the bit count to
    // s_ready). With one word leaving per clock, the count after a word out
    // and a record in stays below T when T = OUT_W + MAXLEN and MAXLEN <=
    // OUT_W: one record per clock.
    localparam WIN   = 1 << EW;
    localparam T_I   = OUT_W + MAXLEN;
    localparam WMAX  = (T_I - 1) / OUT_W;     // most whole words pending at a take
    localparam BUF_W = WMAX * OUT_W + WIN;
    localparam CMAX  = BUF_W > T_I + OUT_W ? BUF_W : T_I + OUT_W;
    localparam CNTW  = $clog2(CMAX + 1);
    localparam [CNTW-1:0] OUT_C = OUT_W[CNTW-1:0];
    localparam [CNTW-1:0] T_C   = T_I[CNTW-1:0];
    localparam [CNTW-1:0] BUF_C = BUF_W[CNTW-1:0];
    localparam integer TO_I = T_I + OUT_W;
    localparam [CNTW-1:0] TO_C  = TO_I[CNTW-1:0];

    // ---- stage 0: window (datapath not reset, valid is)
    reg [WIN-1:0] win_q;
    reg [EW-1:0]  end_q, endm1_q;
    reg           flush_q, v0_q;
    wire          p_ready;
    assign s_ready = !v0_q || p_ready;
    // {bits, 0} << (WIN-1-end): the record's first bit lands ph bits below
    // the window's top
    wire [WIN-1:0] bits_x = {{(WIN-MAXLEN-1){1'b0}}, s_bits, 1'b0};
    always @(posedge clk) begin
        if (s_ready) begin
            win_q   <= bits_x << ~s_end;
            end_q   <= s_end;
            endm1_q <= s_endm1;
            flush_q <= s_flush;
        end
        if (rst)
            v0_q <= 1'b0;
        else if (s_ready)
            v0_q <= s_valid;
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
    reg [CNTW-1:0]  fli_q, fli_d;
    reg [KW-1:0]    keep_q, keep_d;
    reg             rdy_q;

    wire last    = fl_q && fli_q == {CNTW{1'b0}};
    wire avail   = cnt_q >= OUT_C;
    wire emit_ok = !m_axis_tvalid || m_axis_tready;
    wire emit    = avail && emit_ok;

    // A second flush waits until the first has left.
    assign p_ready = rdy_q && !(fl_q && flush_q);
    wire fire = v0_q && p_ready;

    // The window goes in below the pending whole words, then the top word
    // leaves (when it does, at least OUT_W bits were pending, so the record
    // is not in it).
    wire [CNTW-1:0]  cnt_wb   = {cnt_q[CNTW-1:OWL], {OWL{1'b0}}};
    wire [CNTW-1:0]  cnt_new  = cnt_wb + {{(CNTW-EW){1'b0}}, end_q};
    wire [CNTW-1:0]  cnt_m1   = cnt_wb + {{(CNTW-EW){1'b0}}, endm1_q};
    wire [CNTW-OWL-1:0] cnt_li = cnt_m1[CNTW-1:OWL];    // last word, from the top
    // whole words
    wire [CNTW-1:0]  cnt_pad  = {cnt_li + 1'b1, {OWL{1'b0}}};
    // bytes of the last word in use, 1..KW: a run of ones from the MSB
    wire [CNTW-1:0]  lbytes   = {{(CNTW-OWL){1'b0}}, cnt_m1[OWL-1:0]} / 8 + 1'b1;
    wire [KW-1:0]    keep_new = ~({KW{1'b1}} >> lbytes);
    wire [BUF_W-1:0] win_ext  = {win_q, {(BUF_W-WIN){1'b0}}};
    wire [BUF_W-1:0] buf_in   = fire ? buf_q | (win_ext >> cnt_wb) : buf_q;
    wire [CNTW-1:0]  cnt_x    = !fire ? cnt_q : flush_q ? cnt_pad : cnt_new;
    wire [CNTW-OWL-1:0] emit_w = {{(CNTW-OWL-1){1'b0}}, emit};
    // the next cycle's s_ready (see rdy_q), without a subtract in the way
    wire rdy_n = (emit ? cnt_x < TO_C : cnt_x < T_C) &&
                 (fire && flush_q ? cnt_li <= emit_w :
                  !fl_q || fli_q <= {{(CNTW-1){1'b0}}, emit});

    always @* begin
        buf_d  = emit ? buf_in << OUT_W : buf_in;
        cnt_d  = emit ? cnt_x - OUT_C : cnt_x;
        fl_d   = fl_q;
        fli_d  = fli_q;
        keep_d = keep_q;
        if (fire && flush_q) begin
            fl_d   = 1'b1;
            fli_d  = {{OWL{1'b0}}, cnt_li};
            keep_d = keep_new;
        end
        if (emit && fl_d) begin
            if (fli_d == {CNTW{1'b0}})
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
            assert (cnt_q <= BUF_C && (!fl_q || (cnt_q >> OWL) > fli_q))
                else $error("%m: bit count out of range");
    end
`endif

endmodule

`resetall
