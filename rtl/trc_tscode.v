// trc_tscode: timestamp coder of the trc format (combinational).
// z = leading zeros of the NT-bit delta d (NT when d = 0), written in NZ bits,
// then the NT-z-1 bits of d below its leading one. Output right-aligned.
// Parameters:
//   NT - delta bits
//   NZ - bits of the leading-zero count: the number of bits needed to write NT
//   CW - code width, NZ + NT - 1
//   LW - width of the length output
`default_nettype none

module trc_tscode #(
    parameter NT = 23,
    parameter NZ = 5,
    parameter CW = NZ + NT - 1,
    parameter LW = 6
) (
    input  wire [NT-1:0] delta,
    output reg  [CW-1:0] code,   // right-aligned, bits above len are 0
    output reg  [LW-1:0] len
);

    localparam [NZ-1:0] NT_Z = NT[NZ-1:0];
    localparam [LW-1:0] NZ_L = NZ[LW-1:0];

    // One candidate per position p of the leading one: {NT-1-p, d[p-1:0]}.
    // The loop runs upwards, so the highest set bit decides.
    integer p;
    reg [NZ-1:0] z;
    reg [CW-1:0] low;
    always @* begin
        code = {{(CW-NZ){1'b0}}, NT_Z};
        len  = NZ_L;
        z    = {NZ{1'b0}};
        low  = {CW{1'b0}};
        for (p = 0; p < NT; p = p + 1) begin
            if (delta[p]) begin
                z    = NT_Z - 1'b1 - p[NZ-1:0];
                low  = {{(CW-NT){1'b0}}, delta} & ~({CW{1'b1}} << p);
                code = ({{(CW-NZ){1'b0}}, z} << p) | low;
                len  = NZ_L + p[LW-1:0];
            end
        end
    end

endmodule

`resetall
