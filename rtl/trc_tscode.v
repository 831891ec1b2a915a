// trc_tscode: timestamp coder of the trc format, in three register stages.
// z = leading zeros of the NT-bit delta d (NT when d = 0), written in NZ bits,
// then the NT-z-1 bits of d below its leading one. Output right-aligned.
// Each stage is at most an OR tree, so none limits the clock:
//   1: d, and for each group of 4 bits whether a one lies above the group
//   2: the leading one (one-hot: no one above it, from its group's flag and
//      the few bits above it in the group) and the mantissa (d below it)
//   3: each code bit: a mantissa bit, or a bit of z = NT-1-p next to the
//      leading one at p (p <= i < p+NZ); for d = 0, NT; and the length
// A prefix of PW bits (a multi-CPU stream's CPU switch code) can go in front
// of the code: with pfx_en, stage 3 places its bits above z in the same way
// (p+NZ <= i < p+NZ+PW) and the length grows by PW.
// Parameters:
//   NT - delta bits
//   NZ - bits of the leading-zero count: the number of bits needed to write NT
//   PW - prefix bits (>= 1; tie pfx_en low for none)
//   CW - code width, NZ + NT - 1 (+ PW with a prefix)
//   LW - width of the length output
`default_nettype none

module trc_tscode #(
    parameter NT = 23,
    parameter NZ = 5,
    parameter PW = 1,
    parameter CW = NZ + NT - 1,
    parameter LW = 6
) (
    input  wire          clk,
    input  wire          adv,    // the stages move
    input  wire [NT-1:0] delta,
    input  wire          pfx_en, // with delta: the prefix goes in front
    input  wire [PW-1:0] pfx,
    output reg  [CW-1:0] code,   // delta's code, three adv later; bits above len are 0
    output reg  [LW-1:0] len,
    output reg  [NT-1:0] mant    // the bits of delta below its leading one
);

    localparam G  = 4;                       // group size
    localparam NG = (NT + G - 1) / G;
    localparam [NZ-1:0] NT_Z = NT[NZ-1:0];
    localparam [LW-1:0] NZ_L = NZ[LW-1:0];
    localparam [LW-1:0] PW_L = PW[LW-1:0];
    // the prefix's bits exist only when the code has room for them
    localparam HASP = CW >= NZ + NT - 1 + PW;

    // ---- stage 1: a one above each group
    reg  [NT-1:0] d_q;
    reg  [NG-1:0] gup_q;
    reg           pe1_q, pe2_q;      // the prefix, through stages 1 and 2
    reg  [PW-1:0] pf1_q, pf2_q;
    reg  [NG-1:0] gup;
    integer j, p, i;
    always @* begin
        for (j = 0; j < NG; j = j + 1)
            gup[j] = |(delta >> (G * (j + 1)));
    end

    // ---- stage 2: the leading one and the mantissa
    reg  [NT-1:0] lead_q, mant_q;
    reg           zero_q;
    reg  [NT-1:0] up;
    always @* begin
        for (p = 0; p < NT; p = p + 1) begin
            up[p] = gup_q[p / G];
            for (i = p + 1; i < NT && i < (p / G + 1) * G; i = i + 1)
                up[p] = up[p] | d_q[i];
        end
    end

    // ---- stage 3: the code and its length
    reg  [CW-1:0] code_d;
    reg  [LW-1:0] len_d;
    reg  [NZ-1:0] z;
    wire [PW-1:0] pf = pf2_q & {PW{pe2_q && HASP}};
    // the length with the prefix is a second table of constants (no adder)
    reg  [LW-1:0] lenp_d;
    always @* begin
        code_d = {{(CW-NT){1'b0}}, mant_q} | {{(CW-NZ){1'b0}}, NT_Z & {NZ{zero_q}}};
        len_d  = NZ_L & {LW{zero_q}};
        lenp_d = (NZ_L + PW_L) & {LW{zero_q}};
        if (HASP)
            for (i = 0; i < PW; i = i + 1)
                code_d[NZ+i] = code_d[NZ+i] | (zero_q & pf[i]);
        for (p = 0; p < NT; p = p + 1) begin
            z = NT_Z - 1'b1 - p[NZ-1:0];
            for (i = 0; i < NZ; i = i + 1)
                code_d[p+i] = code_d[p+i] | (lead_q[p] & z[i]);
            if (HASP)
                for (i = 0; i < PW; i = i + 1)
                    code_d[p+NZ+i] = code_d[p+NZ+i] | (lead_q[p] & pf[i]);
            len_d  = len_d | ({LW{lead_q[p]}} & (NZ_L + p[LW-1:0]));
            lenp_d = lenp_d | ({LW{lead_q[p]}} & (NZ_L + PW_L + p[LW-1:0]));
        end
        if (pe2_q && HASP)
            len_d = lenp_d;
    end

    always @(posedge clk) begin
        if (adv) begin
            d_q    <= delta;
            gup_q  <= gup;
            pe1_q  <= pfx_en;
            pf1_q  <= pfx;
            pe2_q  <= pe1_q;
            pf2_q  <= pf1_q;
            lead_q <= d_q & ~up;
            mant_q <= d_q & up;
            zero_q <= ~(d_q[0] | up[0]);
            code   <= code_d;
            len    <= len_d;
            mant   <= mant_q;
        end
    end

endmodule

`resetall
