// trc_piece: the coders' output stage. It registers one coded record per
// clock for the packer, right-aligned, with the position where it ends in
// the stream (the bit phase within a lane), and keeps that phase: a flush
// (END, SYNC) pads to the end of the lane, so the next record starts one.
// A record longer than MAXLEN bits (FULL > MAXLEN: the stack modes) leaves
// in two pieces on two clocks, its top len - MAXLEN bits first; while the
// second piece waits, hold asks the coder's stages to wait too. Paper mode
// (FULL = MAXLEN) never splits.
// With EREP = 1 the output register moves on !m_valid || m_ready, and the
// coder's stages on adv_o: flops (replicas of one: trc_rep) loaded a clock
// ahead with that enable and no second piece pending, from the next values
// of m_valid, of the second-piece flag and of m_ready (m_ready_n, the
// packer's s_ready_next). The stages' enable, which reaches every flop of
// the coder, then comes straight from a flop beside them.
// Parameters:
//   FULL   - longest record in bits
//   MAXLEN - longest piece (the packer's input width), FULL <= 2 * MAXLEN
//   LANE_W - packer lane width (trc_packer)
//   EW     - end-position bits: 2^EW > LANE_W - 1 + MAXLEN
//   EREP   - 0: the output register moves on adv, hold stops the stages;
//            1: m_ready and m_ready_n in, adv_o out (adv, hold unused)
//   NA     - EREP = 1: replicas of the stages' enable in adv_o
`default_nettype none

module trc_piece #(
    parameter FULL   = 57,
    parameter MAXLEN = 57,
    parameter LANE_W = 64,
    parameter EW     = 7,
    parameter EREP   = 0,
    parameter NA     = 1
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              adv,      // EREP = 0: the output register moves
    input  wire              m_ready,  // EREP = 1: the packer takes m_*
    input  wire              m_ready_n,// EREP = 1: m_ready's next value
    output wire [NA-1:0]     adv_o,    // EREP = 1: the coder's stages move
    // ---- the coded record (every record has bits: len >= 1)
    input  wire [FULL-1:0]   bits,
    input  wire [EW-1:0]     len,
    input  wire [EW-1:0]     lm1,      // len - 1
    input  wire [EW-1:0]     hi_len,   // len - MAXLEN, for a long record
    input  wire [EW-1:0]     hi_lm1,   // len - MAXLEN - 1
    input  wire              long_rec, // len > MAXLEN (a flop: FULL > MAXLEN only)
    input  wire              flush,    // END or SYNC: pad and end the word
    input  wire              valid,
    output wire              hold,     // EREP = 0: the second piece is pending
    // ---- pieces out (see trc_coder's m_* ports)
    output reg  [MAXLEN-1:0] m_bits,
    output reg  [EW-1:0]     m_endm1,
    output reg               m_flush,
    output reg               m_valid
);

    localparam OWL = $clog2(LANE_W);
    localparam [EW-1:0] MAXLEN_E = MAXLEN[EW-1:0], MAXLEN1_E = MAXLEN_E - 1'b1;

    wire [MAXLEN-1:0] piece;
    wire [EW-1:0]     plen, plm1;
    wire              pflush, pvalid;
    wire              padv;             // the piece moves
    wire              split_d;          // a second piece pending after this clock
    wire              split_w;          // a second piece pending now
    generate
        if (FULL > MAXLEN) begin : g_split
            // The low MAXLEN bits of a long record wait in tail_q and leave
            // on the next clock (split_q).
            reg              split_q, tail_flush_q;
            reg [MAXLEN-1:0] tail_q;
            wire [FULL-1:0]  hi = bits >> MAXLEN;
            assign hold   = EREP == 0 && split_q;
            assign split_w = split_q;
            assign split_d = padv ? !split_q && long_rec : split_q;
            assign piece  = split_q ? tail_q : long_rec ? hi[MAXLEN-1:0] : bits[MAXLEN-1:0];
            assign plen   = split_q ? MAXLEN_E : long_rec ? hi_len : len;
            assign plm1   = split_q ? MAXLEN1_E : long_rec ? hi_lm1 : lm1;
            assign pflush = split_q ? tail_flush_q : flush && !long_rec;
            assign pvalid = split_q || valid;
            always @(posedge clk) begin
                if (padv && !split_q) begin
                    tail_q       <= bits[MAXLEN-1:0];
                    tail_flush_q <= flush;
                end
                if (rst)
                    split_q <= 1'b0;
                else
                    split_q <= split_d;
            end
            wire unused_hi = ^hi[FULL-1:MAXLEN];
        end else begin : g_whole
            assign hold   = 1'b0;
            assign split_d = 1'b0;
            assign split_w = 1'b0;
            assign piece  = bits[MAXLEN-1:0];
            assign plen   = len;
            assign plm1   = lm1;
            assign pflush = flush;
            assign pvalid = valid;
            wire unused_hi = ^{hi_len, hi_lm1, long_rec};
        end
    endgenerate

    // where the piece ends: its first bit is at the phase ph_q of a lane
    reg  [OWL-1:0] ph_q;
    wire [EW-1:0]  ph_e   = {{(EW-OWL){1'b0}}, ph_q};
    wire [EW-1:0]  end_n  = ph_e + plen;
    wire [EW-1:0]  pendm1 = ph_e + plm1;    // end_n - 1, two adders side by side
    always @(posedge clk) begin
        if (rst)
            ph_q <= {OWL{1'b0}};
        else if (padv && pvalid)
            ph_q <= pflush ? {OWL{1'b0}} : end_n[OWL-1:0];
    end

    generate
        if (EREP == 0) begin : g_reg
            assign padv  = adv;
            assign adv_o = {NA{1'b0}};
            always @(posedge clk) begin
                if (adv) begin
                    m_bits  <= piece;
                    m_endm1 <= pendm1;
                    m_flush <= pflush;
                end
                if (rst)
                    m_valid <= 1'b0;
                else if (adv)
                    m_valid <= pvalid;
            end
            wire unused_rdy = ^{m_ready, m_ready_n, split_d, split_w};
        end else begin : g_rep
            // The output register moves as with EREP = 0 (on !m_valid ||
            // m_ready); the stages' enable, adv && !hold, is loaded a clock
            // ahead from the next values of m_valid, m_ready (m_ready_n) and
            // the second-piece flag, into replicated flops.
            wire oadv = !m_valid || m_ready;
            wire mv_d = oadv ? pvalid : m_valid;
            assign padv = oadv;
            always @(posedge clk) begin
                if (oadv) begin
                    m_bits  <= piece;
                    m_endm1 <= pendm1;
                    m_flush <= pflush;
                end
                if (rst)
                    m_valid <= 1'b0;
                else if (oadv)
                    m_valid <= pvalid;
            end
            // the stages move on the next clock when the output register
            // will be empty or taken and no second piece waits
            wire adv_d = (!mv_d || m_ready_n) && !split_d;
            genvar r;
            for (r = 0; r < NA; r = r + 1) begin : g_rep
                trc_rep #(.RV(1'b1)) u_rep (
                    .clk(clk), .rst(rst), .d(adv_d), .q(adv_o[r])
                );
            end
            wire unused_adv = ^{adv, split_w};   // split_w: the check below
`ifdef TRC_ASSERT
            // the flops are the enable of EREP = 0, a clock ahead
            always @(posedge clk)
                if (!rst)
                    assert (adv_o[0] == (oadv && !split_w))
                        else $error("%m: stage enable out of step with the output register");
`endif
        end
    endgenerate

    // a lane phase is the end mod LANE_W
    wire unused_end = ^end_n[EW-1:OWL];

endmodule

`resetall
