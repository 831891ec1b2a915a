// trc_lean_ts: the timestamp code of one delta (docs/format.md 4.3 step 1),
// cut into the chunks the lean encoder emits: z (leading zeros, NZ bits)
// and the mantissa (the p bits below the leading one at p). The mantissa
// is the delta's bytes below byte b = p / 8, after the q = p % 8 bits of
// byte b below the leading one. Chunks are left-aligned (first bit in bit
// 7). Combinational; the lean encoder registers it with the record.
// Parameters:
//   NT - delta bits
//   NZ - bits of z: the number of bits needed to write NT
`default_nettype none

module trc_lean_ts #(
    parameter NT = 23,
    parameter NZ = 5
) (
    input  wire [NT-1:0] delta,
    // first chunk: z, and when they fit (NZ + q <= 8) the q bits after it
    output reg  [7:0]    head,
    output reg  [3:0]    head_n,  // its length, NZ..8
    // the q bits of byte b below the leading one, when they did not fit in
    // head (then q > 0): a chunk of their own
    output reg           lb,
    output reg  [7:0]    lb_bits,
    output reg  [2:0]    q,
    // full mantissa bytes after those: bytes b-1 .. 0 of the delta
    output reg  [1:0]    nb
);

    localparam NB = (NT + 7) / 8;            // delta bytes, 1..4
    localparam [NZ-1:0] NT_Z = NT[NZ-1:0];
    localparam [3:0]    NZ_4 = NZ[3:0];

    reg [8*NB-1:0] d8;
    reg [7:0]      byte_b, sh;
    reg [NB-1:0]   nz;
    reg [1:0]      b;
    reg [NZ-1:0]   z;
    reg [6:0]      p;
    reg            zero;
    integer k, i;

    always @* begin
        d8 = {{(8*NB-NT){1'b0}}, delta};
        for (k = 0; k < NB; k = k + 1)
            nz[k] = |d8[8*k +: 8];
        zero = !(|nz);
        // the byte of the leading one, and the one in it
        b = 2'd0;
        for (k = 1; k < NB; k = k + 1)
            if (nz[k])
                b = k[1:0];
        byte_b = d8[8*b +: 8];
        q = 3'd0;
        for (i = 1; i < 8; i = i + 1)
            if (byte_b[i])
                q = i[2:0];
        p = {2'd0, b, 3'd0} | {4'd0, q};
        z = zero ? NT_Z : NT_Z - 1'b1 - p[NZ-1:0];
        // the bits below the leading one, left-aligned (the one shifts out)
        sh = byte_b << (4'd8 - {1'b0, q});
        lb_bits = sh;
        lb = NZ_4 + {1'b0, q} > 4'd8;
        head = {z, {(8-NZ){1'b0}}} | (lb ? 8'd0 : sh >> NZ);
        head_n = lb ? NZ_4 : NZ_4 + {1'b0, q};
        nb = b;
    end

    // p reaches 7 bits for the arithmetic above; z uses NZ of them
    wire unused_p = ^p[6:NZ];

endmodule

`resetall
