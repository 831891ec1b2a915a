// trc_tquant: stack mode 2's time quantum (docs/format.md 4.8), two
// register stages in front of the stack coder. A record's delta d becomes
// u = floor(d / TQ), the delta in quanta that the predictor works on; raw
// says that d is not a multiple of TQ (its code is ESC, z = 2^NZ - 1 and
// d's own timestamp code), and rawd keeps d for that code.
// The division is a multiplication by M = ceil(2^S / TQ), S = NT +
// ceil(log2 TQ): u = (d * M) >> S is exact for every d < 2^NT, and d is a
// multiple of TQ exactly when the fraction (the low S bits of the product)
// is below 2^NT: a multiple k * TQ leaves k * (TQ * M - 2^S) < 2^NT, any
// other d at least M >= 2^NT. Stage 1 registers the two partial products
// d * M[17:0] and d * M[S:18] (the DSP blocks' width), stage 2 adds them.
// Parameters:
//   NT     - delta bits
//   INFO_W - info bits of a record
//   TQ     - the time quantum in ticks, 10, 100 or 1000
`default_nettype none
`include "trc_format.vh"

module trc_tquant #(
    parameter NT     = 23,
    parameter INFO_W = 23,
    parameter TQ     = 100
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              adv,      // the coder's stages move
    // ---- records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire              s_valid,
    // ---- the same record with its delta in quanta, two stages later
    output reg  [NT+INFO_W:0] m_rec,
    output reg               m_valid,
    output reg               m_raw,    // d is not a multiple of TQ
    output reg  [NT-1:0]     m_rawd    // d itself
);

    localparam QB = $clog2(TQ);
    localparam S  = NT + QB;
    localparam PW = NT + S + 1;           // product bits (M < 2^(S+1))
    localparam [63:0] ONE = 64'd1;
    localparam [63:0] TQ64 = {32'd0, TQ[31:0]};
    localparam [63:0] M64 = ((ONE << S) + TQ64 - ONE) / TQ64;
    localparam [S:0]    M = M64[S:0];

    generate
        `TRC_PARAM_CHECK(TQ == 10 || TQ == 100 || TQ == 1000, g_bad_tq, trc_bad_param_TQ,
                         "trc_tquant: TQ must be 10, 100 or 1000")
        `TRC_PARAM_CHECK(S < 63, g_bad_nt, trc_bad_param_NT,
                         "trc_tquant: NT too wide for the quantum's product")
    endgenerate

    localparam LB = 18;                   // M's low part (S >= 26 > 18)
    localparam HB = S + 1 - LB;           // M's high part
    wire [NT-1:0] d = s_rec[INFO_W +: NT];

    // ---- stage 1: the partial products
    reg  [NT+LB-1:0]   pl_q;
    reg  [NT+HB-1:0]   ph_q;
    reg  [NT+INFO_W:0] r1_q;
    reg                v1_q;
    always @(posedge clk) begin
        if (adv) begin
            pl_q <= {{LB{1'b0}}, d} * {{NT{1'b0}}, M[LB-1:0]};
            ph_q <= {{HB{1'b0}}, d} * {{NT{1'b0}}, M[S:LB]};
            r1_q <= s_rec;
        end
        if (rst)
            v1_q <= 1'b0;
        else if (adv)
            v1_q <= s_valid;
    end

    // ---- stage 2: their sum, u and raw
    wire [PW-1:0] prod = {{(PW-NT-LB){1'b0}}, pl_q} + {ph_q, {LB{1'b0}}};
    wire [NT-1:0] u    = prod[S +: NT];
    wire          raw  = |prod[S-1:NT];
    always @(posedge clk) begin
        if (adv) begin
            m_rec  <= {r1_q[NT+INFO_W], u, r1_q[INFO_W-1:0]};
            m_raw  <= raw;
            m_rawd <= r1_q[INFO_W +: NT];
        end
        if (rst)
            m_valid <= 1'b0;
        else if (adv)
            m_valid <= v1_q;
    end

    wire unused = ^{prod[PW-1:S+NT], prod[NT-1:0]};

endmodule

`resetall
