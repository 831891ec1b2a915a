// trc_lean_dict: the function dictionary of the trc format (docs/format.md
// 4.4) for the lean encoder: 2^ND-1 entries in flip-flops, all compared
// with the key in the clock of the lookup (the lowest matching address
// wins), and written a clock later from the registered result: a hit flips
// the entry's flag (bit W-1; the entry equals the key), a miss stores the
// key flipped at the write pointer (FIFO replacement). So every entry is
// written with key ^ F or not at all, and its only logic is its write
// enable. The lean encoder takes a record at most every second clock, so
// a lookup never sees an entry whose write is pending.
// Parameters:
//   ND - address bits: 2^ND-1 entries, address 2^ND-1 is the escape
//   W  - key width (the exit flag is bit W-1)
`default_nettype none

module trc_lean_dict #(
    parameter ND = 3,
    parameter W  = 16
) (
    input  wire          clk,
    input  wire          rst,
    // ---- lookup (combinational)
    input  wire [W-1:0]  key,
    output wire          hit,
    output reg  [ND-1:0] code,     // the lowest matching address, or the escape
    // ---- update, the clock after the lookup: its key, hit and code again
    input  wire          upd,
    input  wire [W-1:0]  upd_key,
    input  wire          upd_hit,
    input  wire [ND-1:0] upd_code,
    input  wire          clr       // back to the reset state at this edge
);

    localparam S = (1 << ND) - 1;
    localparam [W-1:0] F = {1'b1, {(W-1){1'b0}}};

    reg  [W-1:0]  e_q [0:S-1];
    reg  [ND-1:0] wp_q;
    wire [S-1:0]  eq;
    integer i;

    genvar g;
    generate
        for (g = 0; g < S; g = g + 1) begin : g_e
            localparam [W-1:0]  RST_E = g;
            localparam [ND-1:0] A     = g;
            assign eq[g] = e_q[g] == key;
            always @(posedge clk) begin
                if (rst || clr)
                    e_q[g] <= RST_E;
                else if (upd && (upd_hit ? upd_code == A : wp_q == A))
                    e_q[g] <= upd_key ^ F;
            end
        end
    endgenerate

    assign hit = |eq;

    always @* begin
        code = {ND{1'b1}};
        for (i = S - 1; i >= 0; i = i - 1)
            if (eq[i])
                code = i[ND-1:0];
    end

    always @(posedge clk) begin
        if (rst || clr)
            wp_q <= {ND{1'b0}};
        else if (upd && !upd_hit)
            wp_q <= wp_q == S[ND-1:0] - 1'b1 ? {ND{1'b0}} : wp_q + 1'b1;
    end

endmodule

`resetall
