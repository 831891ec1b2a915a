// trc_lean_dict: one dictionary of the trc format (docs/format.md 4.4) for
// the lean encoder: 2^ND-1 entries in flip-flops, all compared with the key
// in the clock of the lookup, the lowest matching address wins, FIFO
// replacement on a miss. Every entry is written with key ^ F or not at all
// (a hit flips the entry, which equals the key; a miss stores the key), so
// an entry's only logic is its write enable.
// Parameters:
//   ND   - address bits: 2^ND-1 entries, address 2^ND-1 is the escape
//   W    - key width
//   FLIP - 1: entries flip bit W-1 on a hit and are stored flipped (the
//          function dictionary's exit flag); 0: no flip
`default_nettype none

module trc_lean_dict #(
    parameter ND   = 3,
    parameter W    = 16,
    parameter FLIP = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [W-1:0]  key,
    input  wire          look,   // the key is coded now: update at this edge
    input  wire          clr,    // back to the reset state at this edge
    output wire          hit,
    output reg  [ND-1:0] code    // the lowest matching address, or the escape
);

    localparam S = (1 << ND) - 1;
    localparam [W-1:0] F = FLIP ? {1'b1, {(W-1){1'b0}}} : {W{1'b0}};

    reg  [W-1:0]  e_q [0:S-1];
    reg  [ND-1:0] wp_q;
    wire [S-1:0]  eq;
    reg  [S-1:0]  first;    // the lowest match, one-hot
    reg  [S-1:0]  wr;
    integer i;

    genvar g;
    generate
        for (g = 0; g < S; g = g + 1) begin : g_e
            localparam [W-1:0] RST_E = g;
            assign eq[g] = e_q[g] == key;
            always @(posedge clk) begin
                if (rst || clr)
                    e_q[g] <= RST_E;
                else if (wr[g])
                    e_q[g] <= key ^ F;
            end
        end
    endgenerate

    assign hit = |eq;

    always @* begin
        code  = {ND{1'b1}};
        first = {S{1'b0}};
        for (i = S - 1; i >= 0; i = i - 1) begin
            if (eq[i]) begin
                code  = i[ND-1:0];
                first = {{(S-1){1'b0}}, 1'b1} << i;
            end
        end
        // a hit without flip leaves its entry as it is
        for (i = 0; i < S; i = i + 1)
            wr[i] = look && (hit ? FLIP != 0 && first[i] : wp_q == i[ND-1:0]);
    end

    always @(posedge clk) begin
        if (rst || clr)
            wp_q <= {ND{1'b0}};
        else if (look && !hit)
            wp_q <= wp_q == S[ND-1:0] - 1'b1 ? {ND{1'b0}} : wp_q + 1'b1;
    end

endmodule

`resetall
