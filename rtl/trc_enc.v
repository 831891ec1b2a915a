// trc_enc: the trc stream encoder. Raw records in on s_axis (one per clock),
// the compressed byte stream out on m_axis, OUT_W bits a word, first stream
// byte in the most significant byte. Bit-exact with the C model
// (trc_encode_raw); ports, timing and behaviour on bad input: docs/rtl.md.
// Parameters:
//   NT     - delta bits, 2..32 (paper: 23)
//   FID_W  - function id bits, 1..31 (paper: 15)
//   TYPE_W - OS info type bits, 3..16 (paper: 7)
//   VAL_W  - OS info value bits, 1..32 (paper: 16)
//   ND_F   - function dictionary address bits, 1..8, <= FID_W
//   ND_T   - type dictionary address bits, 1..8, <= TYPE_W
//   ND_V   - value dictionary address bits, 1..8, <= VAL_W
//   OUT_W  - output word width: 8, 16, 32 or 64
//   SYNC_EVERY - frames: SYNC (delta 0) after every N trace records (function,
//            user OS and LOST records), 0..2^30; 0 = never. A SYNC on the
//            input also ends a frame (docs/rtl.md, "Frames").
//   MODE   - coding mode: 0 the paper's (trc_coder), 1 stack (trc_stkcoder,
//            docs/format.md 4.7; one block RAM for the predictor table),
//            2 stack mode 2 (trc_stkcoder, 4.8; a second table for OS records)
//   SK     - stack modes: predictor table index bits, 4..12 (default 9)
//   SD     - stack modes: shadow call stack depth, 1..64 (default 16)
//   SO     - stack mode 2: OS context table index bits, 4..12 (default 9)
//   TQ     - stack mode 2: time quantum in ticks, 1 (none), 10, 100 or 1000
//            (docs/format.md 4.8): deltas coded in quanta, two stages more
//   FE     - stack mode 2: 1, fresh entries (docs/format.md 4.8): a context
//            entry not updated since the reset codes without ranks
//   LEAN   - 1: the lean paper mode encoder (trc_lean): the same stream, a
//            record over about 2.5 clocks, in a fraction of the area; MODE 0
//   CHECK  - 1: a checked stream (docs/format.md 4.10), each unit closed by
//            zero bytes, the trace records so far and a CRC-32, an END's
//            unit also by two closing units (trc_wcrc); 0: the plain stream
//   INFO_W - derived, do not set: max(1+FID_W, TYPE_W+VAL_W)
`default_nettype none
`include "trc_format.vh"

module trc_enc #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter ND_F   = 3,
    parameter ND_T   = 3,
    parameter ND_V   = 3,
    parameter OUT_W  = 64,
    parameter SYNC_EVERY = 0,
    parameter MODE   = 0,
    parameter SK     = 9,
    parameter SD     = 16,
    parameter SO     = 9,
    parameter TQ     = 1,
    parameter FE     = 0,
    parameter LEAN   = 0,
    parameter CHECK  = 0,
    parameter INFO_W = `TRC_INFO_W(FID_W, TYPE_W, VAL_W)
) (
    input  wire                 clk,
    input  wire                 rst,
    // ---- raw records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0]   s_axis_tdata,
    input  wire                 s_axis_tvalid,
    output wire                 s_axis_tready,
    // ---- compressed stream out
    output wire [OUT_W-1:0]     m_axis_tdata,
    output wire [OUT_W/8-1:0]   m_axis_tkeep,
    output wire                 m_axis_tlast,
    output wire                 m_axis_tvalid,
    input  wire                 m_axis_tready
);

    localparam NZ     = $clog2(NT + 1);
    localparam FW_C   = ND_F + 1 + FID_W;
    localparam OW_C   = ND_T + TYPE_W + ND_V + VAL_W;
    // Longest piece the packer takes. Paper: the longest record (full
    // timestamp, kind bit, escaped payload). Stack mode records reach FULL,
    // 20 bits more (NP 9, delta rank 10, class 2 instead of the kind bit),
    // stack mode 2's up to 34 (trc_format.vh); trc_stkcoder cuts those in
    // two, so the packer stays as small, unless tiny widths need a wider
    // piece (at least half of FULL).
    localparam LONGEST = NZ + NT - 1 + 1 + (FW_C > OW_C ? FW_C : OW_C);
    localparam FULL    = `TRC_STK_FULL(MODE, NT, FID_W, TYPE_W, VAL_W, ND_F, ND_T, ND_V) +
                         (TQ > 1 ? NZ : 0);    // a raw delta's z (4.8)
    localparam MAXLEN  = MODE == 0 || 2 * LONGEST >= FULL ? LONGEST : (FULL + 1) / 2;
    localparam LENW   = $clog2(MAXLEN + 1);
    localparam REC_W  = 1 + NT + INFO_W;

    // ---- parameter checks (trc_format.vh): each stops every tool
    trc_fmt_check #(.NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W), .ND_F(ND_F),
                    .ND_T(ND_T), .ND_V(ND_V), .OUT_W(OUT_W), .INFO_W(INFO_W)) u_fmt_check ();
    generate
        `TRC_PARAM_CHECK(MODE >= 0 && MODE <= 2, g_bad_mode, trc_bad_param_MODE,
                         "trc_enc: MODE must be 0 (paper), 1 (stack) or 2 (stack mode 2)")
        `TRC_PARAM_CHECK(MODE == 0 || (SK >= 4 && SK <= 12 && SD >= 1 && SD <= 64),
                         g_bad_stack, trc_bad_param_SK_SD,
                         "trc_enc: the stack modes need SK 4..12 and SD 1..64")
        `TRC_PARAM_CHECK(MODE != 2 || (SO >= 4 && SO <= 12), g_bad_so, trc_bad_param_SO,
                         "trc_enc: stack mode 2 needs SO 4..12")
        `TRC_PARAM_CHECK(TQ == 1 || (MODE == 2 && (TQ == 10 || TQ == 100 || TQ == 1000) &&
                         ((NT + 1) & NT) != 0), g_bad_tq, trc_bad_param_TQ,
                         "trc_enc: TQ must be 1, or 10, 100 or 1000 with MODE 2 and NT + 1 not a power of two")
        `TRC_PARAM_CHECK(FE == 0 || (FE == 1 && MODE == 2), g_bad_fe, trc_bad_param_FE,
                         "trc_enc: FE must be 0, or 1 with MODE 2")
        `TRC_PARAM_CHECK(SYNC_EVERY >= 0 && SYNC_EVERY <= (1 << 30), g_bad_sync_every,
                         trc_bad_param_SYNC_EVERY,
                         "trc_enc: SYNC_EVERY must be 0..2^30")
        `TRC_PARAM_CHECK(LEAN == 0 || (LEAN == 1 && MODE == 0), g_bad_lean,
                         trc_bad_param_LEAN,
                         "trc_enc: LEAN must be 0 or 1, and LEAN = 1 needs MODE = 0")
        `TRC_PARAM_CHECK(CHECK == 0 || CHECK == 1, g_bad_check, trc_bad_param_CHECK,
                         "trc_enc: CHECK must be 0 or 1")
    endgenerate

    // ---- stage 1: input register slice (s_axis_tready straight from a flop;
    // the lean encoder registers the record itself)
    wire [REC_W-1:0] in_rec;
    wire             in_valid, in_ready;
    generate
        if (LEAN == 0) begin : g_skid
            trc_skid #(.W(REC_W)) u_skid (
                .clk(clk), .rst(rst),
                .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid),
                .s_axis_tready(s_axis_tready),
                .m_axis_tdata(in_rec), .m_axis_tvalid(in_valid), .m_axis_tready(in_ready)
            );
        end else begin : g_noskid
            assign in_rec        = s_axis_tdata;
            assign in_valid      = s_axis_tvalid;
            assign s_axis_tready = in_ready;
        end
    endgenerate

    // ---- frames: after every SYNC_EVERY trace records, the coder takes a
    // SYNC (delta 0) instead of the next input record, which waits a cycle.
    wire [REC_W-1:0] fr_rec;
    wire             fr_valid, fr_ready;
    generate
        if (SYNC_EVERY > 0) begin : g_frame
            // one spare bit, so that a counter overrun would show
            localparam FCW = $clog2(SYNC_EVERY + 1) + 1;
            localparam integer SE_I = SYNC_EVERY;
            localparam [FCW-1:0] FR_N = SE_I[FCW-1:0];
            localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);
            reg [FCW-1:0]   fr_q, fr_d;     // trace records in this frame
            reg [REC_W-1:0] sync_rec;
            wire [TYPE_W-1:0] in_type = in_rec[VAL_W +: TYPE_W];
            wire in_os    = in_rec[REC_W-1];
            // TIME_EXT, END and SYNC are the types above LOST
            wire in_trace = !in_os || in_type < T_SYNC;
            wire in_sync  = in_os && in_type == T_SYNC;
            wire due      = fr_q == FR_N;
            always @* begin
                sync_rec                   = {REC_W{1'b0}};
                sync_rec[REC_W-1]          = 1'b1;
                sync_rec[VAL_W +: TYPE_W]  = T_SYNC;
                fr_d = fr_q;
                if (fr_valid && fr_ready) begin
                    if (due || in_sync)
                        fr_d = {FCW{1'b0}};
                    else if (in_trace)
                        fr_d = fr_q + 1'b1;
                end
            end
            always @(posedge clk) begin
                if (rst)
                    fr_q <= {FCW{1'b0}};
                else
                    fr_q <= fr_d;
            end
            assign fr_rec   = due ? sync_rec : in_rec;
            assign fr_valid = due || in_valid;
            assign in_ready = fr_ready && !due;
`ifdef TRC_ASSERT
            always @(posedge clk) begin
                if (!rst)
                    assert (fr_q <= FR_N) else $error("%m: frame counter past SYNC_EVERY");
            end
`endif
        end else begin : g_noframe
            assign fr_rec   = in_rec;
            assign fr_valid = in_valid;
            assign in_ready = fr_ready;
        end
    endgenerate

    // ---- checked streams: the count word of each unit (docs/format.md
    // 4.10): bit 31 says the unit began in the reset state (first, or after
    // a SYNC), bits 30..0 count the trace records so far (function, user OS
    // and LOST records, mod 2^31) as records enter the coder. Each END and
    // SYNC leaves its word, and whether it was an END (its unit is followed
    // by two closing units), in a queue of 4 that trc_wcrc reads when it
    // closes that unit. The accept of an END/SYNC is registered (mark_q)
    // and moves the write pointer a clock later, the free slot being at
    // wp_q + mark_q meanwhile, so that neither the record's decode nor the
    // coder's ready reach the pointers. The coder's input stalls on a
    // registered flag, set when the queue held 2 words or more a clock
    // before: at most one word enters a clock, so the queue holds at most
    // 3 and the free slot is never the head (it is written every clock,
    // with no full check), and the stall reads a flop, not the pointers.
    wire        k_valid, k_ready;
    wire [31:0] cq_head;
    wire        cq_end, cq_valid, cq_take;
    generate
        if (CHECK == 1) begin : g_count
            localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);
            localparam [TYPE_W-1:0] T_END  = `TRC_T_END(TYPE_W);
            wire [TYPE_W-1:0] k_type = fr_rec[VAL_W +: TYPE_W];
            wire k_os    = fr_rec[REC_W-1];
            wire k_trace = !k_os || k_type < T_SYNC;
            wire k_mark  = k_os && (k_type == T_SYNC || k_type == T_END);
            reg [30:0] cnt_q, cnt_d;
            reg        rs_q, rs_d;          // the unit began in the reset state
            reg [32:0] cq_q [0:3];          // {END, count word}
            reg [2:0]  wp_q, wp_d, rp_q, rp_d;
            reg        mark_q;              // an END/SYNC taken, wp_q not yet moved
            reg        stall_q;             // the queue held 2 or 3 words
            wire [2:0] wpm  = wp_q + {2'd0, mark_q};
            wire [2:0] used = wpm - rp_q;
            wire acc  = k_valid && k_ready;
            always @* begin
                cnt_d = cnt_q;
                rs_d  = rs_q;
                wp_d  = wp_q;
                rp_d  = rp_q;
                if (acc && k_trace)
                    cnt_d = cnt_q + 1'b1;
                if (mark_q)
                    wp_d = wp_q + 1'b1;
                if (acc && k_mark)
                    rs_d = k_type == T_SYNC;
                if (cq_take)
                    rp_d = rp_q + 1'b1;
            end
            always @(posedge clk) begin
                // the free slot (at wpm) takes the word every clock, and an
                // END/SYNC only moves the pointer past it (no handshake on
                // the 33 enables)
                cq_q[wpm[1:0]] <= {k_type == T_END, rs_q, cnt_q};
                mark_q  <= acc && k_mark;
                cnt_q   <= cnt_d;
                rs_q    <= rs_d;
                wp_q    <= wp_d;
                rp_q    <= rp_d;
                stall_q <= used[2] || used[1];
                if (rst) begin
                    cnt_q   <= 31'd0;
                    rs_q    <= 1'b1;
                    wp_q    <= 3'd0;
                    rp_q    <= 3'd0;
                    mark_q  <= 1'b0;
                    stall_q <= 1'b0;
                end
            end
            assign k_valid  = fr_valid && !stall_q;
            assign fr_ready = k_ready && !stall_q;
            assign cq_head  = cq_q[rp_q[1:0]][31:0];
            assign cq_end   = cq_q[rp_q[1:0]][32];
            assign cq_valid = wp_q != rp_q; // a word a clock after its END/SYNC
`ifdef TRC_ASSERT
            always @(posedge clk) begin
                if (!rst && used > 3'd3)
                    $error("%m: count queue overrun");
            end
`endif
        end else begin : g_nocount
            assign k_valid  = fr_valid;
            assign fr_ready = k_ready;
            assign cq_head  = 32'd0;
            assign cq_end   = 1'b0;
            assign cq_valid = 1'b0;
        end
    endgenerate

    // ---- stages 2 and 3: timestamp + dictionaries -> coded record, then the
    // bit packer + output register; or the lean encoder, which does both
    // the packer's lane (a record spans at most two, trc_packer) and the
    // width of end positions in it: 2^EW > LW - 1 + MAXLEN
    localparam MLP2   = 1 << $clog2(MAXLEN);
    localparam LW     = OUT_W > MLP2 ? OUT_W : MLP2;
    localparam EW     = $clog2(LW + MAXLEN);
    // the encoder's words, before trc_wcrc (CHECK = 1) or out as they are
    wire [OUT_W-1:0]   e_tdata;
    wire [OUT_W/8-1:0] e_tkeep;
    wire               e_tlast, e_tvalid, e_tready;
    generate
        if (LEAN == 1) begin : g_lean
            trc_lean #(
                .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .INFO_W(INFO_W), .OUT_W(OUT_W)
            ) u_lean (
                .clk(clk), .rst(rst),
                .s_rec(fr_rec), .s_valid(k_valid), .s_ready(k_ready),
                .m_axis_tdata(e_tdata), .m_axis_tkeep(e_tkeep),
                .m_axis_tlast(e_tlast), .m_axis_tvalid(e_tvalid),
                .m_axis_tready(e_tready)
            );
        end else begin : g_full
            wire [MAXLEN-1:0] cd_bits;
            wire [EW-1:0]     cd_endm1;
            wire              cd_flush, cd_valid, cd_ready, cd_ready_n;
            if (MODE == 0) begin : g_paper
                trc_coder #(
                    .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                    .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .INFO_W(INFO_W),
                    .MAXLEN(MAXLEN), .LENW(LENW), .LANE_W(LW), .EW(EW)
                ) u_coder (
                    .clk(clk), .rst(rst),
                    .s_rec(fr_rec), .s_valid(k_valid), .s_ready(k_ready),
                    .m_bits(cd_bits), .m_endm1(cd_endm1),
                    .m_flush(cd_flush), .m_valid(cd_valid), .m_ready(cd_ready)
                );
                wire unused_rn = cd_ready_n;
            end else begin : g_stack
                trc_stkcoder #(
                    .NT(NT), .FID_W(FID_W), .TYPE_W(TYPE_W), .VAL_W(VAL_W),
                    .ND_F(ND_F), .ND_T(ND_T), .ND_V(ND_V), .INFO_W(INFO_W), .MODE(MODE),
                    .MAXLEN(MAXLEN), .LENW(LENW), .LANE_W(LW), .EW(EW),
                    .SK(SK), .SD(SD), .SO(SO), .TQ(TQ), .FE(FE)
                ) u_coder (
                    .clk(clk), .rst(rst),
                    .s_rec(fr_rec), .s_valid(k_valid), .s_ready(k_ready),
                    .m_bits(cd_bits), .m_endm1(cd_endm1),
                    .m_flush(cd_flush), .m_valid(cd_valid), .m_ready(cd_ready),
                    .m_ready_next(cd_ready_n)
                );
            end
            trc_packer #(.OUT_W(OUT_W), .MAXLEN(MAXLEN), .LW(LW), .EW(EW)) u_packer (
                .clk(clk), .rst(rst),
                .s_bits(cd_bits), .s_endm1(cd_endm1), .s_flush(cd_flush),
                .s_valid(cd_valid), .s_ready(cd_ready), .s_ready_next(cd_ready_n),
                .m_axis_tdata(e_tdata), .m_axis_tkeep(e_tkeep),
                .m_axis_tlast(e_tlast), .m_axis_tvalid(e_tvalid),
                .m_axis_tready(e_tready)
            );
        end
    endgenerate

    // ---- checked streams: the check words (docs/format.md 4.10)
    generate
        if (CHECK == 1) begin : g_check
            trc_wcrc #(.OUT_W(OUT_W)) u_wcrc (
                .clk(clk), .rst(rst),
                .s_axis_tdata(e_tdata), .s_axis_tkeep(e_tkeep), .s_axis_tlast(e_tlast),
                .s_axis_tvalid(e_tvalid), .s_axis_tready(e_tready),
                .s_count(cq_head), .s_count_end(cq_end), .s_count_valid(cq_valid),
                .s_count_take(cq_take),
                .m_axis_tdata(m_axis_tdata), .m_axis_tkeep(m_axis_tkeep),
                .m_axis_tlast(m_axis_tlast), .m_axis_tvalid(m_axis_tvalid),
                .m_axis_tready(m_axis_tready)
            );
        end else begin : g_plain
            assign m_axis_tdata  = e_tdata;
            assign m_axis_tkeep  = e_tkeep;
            assign m_axis_tlast  = e_tlast;
            assign m_axis_tvalid = e_tvalid;
            assign e_tready      = m_axis_tready;
            assign cq_take       = 1'b0;
            wire unused_count = ^{cq_head, cq_end, cq_valid, cq_take};
        end
    endgenerate

endmodule

`resetall
