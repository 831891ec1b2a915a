// trc_dict: one field dictionary of the trc format (2^ND-1 entries, CAM).
// Lookup takes the lowest address whose entry equals the key; a hit codes the
// address, a miss codes all-ones and stores the key at a FIFO write pointer.
// Parameters:
//   ND   - address bits; 2^ND-1 entries, code all-ones is the escape
//   W    - key width
//   FLIP - 1 for the function dictionary: the key MSB is the exit flag, a hit
//          flips the stored flag and a miss stores the key with it flipped
`default_nettype none

module trc_dict #(
    parameter ND   = 3,
    parameter W    = 16,
    parameter FLIP = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          clr,   // return to the reset state (SYNC); wins over upd
    input  wire [W-1:0]  key,
    input  wire          upd,   // commit this lookup: update entries/pointer
    output reg           hit,
    output reg  [ND-1:0] code   // hit address, or all-ones on a miss
);

    localparam N = (1 << ND) - 1;
    localparam [W-1:0] MSB = ~({W{1'b1}} >> 1);     // the exit flag (FLIP)

    reg  [N*W-1:0] ent_q;
    wire [N*W-1:0] ent_d;
    reg  [ND-1:0]  wp_q, wp_d;
    wire [N*W-1:0] ent_init;

    // Reset state: entry i holds the value i (function: exit flag 0, id i).
    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_init
            wire [ND-1:0] idx = g;
            assign ent_init[g*W +: W] = {{(W-ND){1'b0}}, idx};
        end
    endgenerate

    // Lowest matching address wins: scan downwards so the last match is it.
    integer i;
    always @* begin
        hit  = 1'b0;
        code = {ND{1'b1}};
        for (i = N - 1; i >= 0; i = i - 1) begin
            if (ent_q[i*W +: W] == key) begin
                hit  = 1'b1;
                code = i[ND-1:0];
            end
        end
    end

    wire [W-1:0] key_store;
    generate
        if (FLIP != 0) begin : g_flip
            assign key_store = key ^ {1'b1, {(W-1){1'b0}}};
        end else begin : g_noflip
            assign key_store = key;
        end
    endgenerate

    // Next state per entry (generate, not a loop in an always block: Yosys
    // 0.70 reports a latch for a loop variable a branch may leave unset).
    // A hit can only flip the flag of the entry it codes; a miss writes the
    // entry at the write pointer.
    generate
        for (g = 0; g < N; g = g + 1) begin : g_next
            wire [ND-1:0] idx = g;
            wire          wr  = upd && !hit && wp_q == idx;
            wire          fl  = (FLIP != 0) && upd && hit && code == idx;
            wire [W-1:0]  e   = ent_q[g*W +: W];
            assign ent_d[g*W +: W] = clr ? ent_init[g*W +: W] : wr ? key_store :
                                     fl ? e ^ MSB : e;
        end
    endgenerate

    always @* begin
        wp_d = wp_q;
        if (clr)
            wp_d = {ND{1'b0}};
        else if (upd && !hit)
            wp_d = (wp_q == N[ND-1:0] - 1'b1) ? {ND{1'b0}} : wp_q + 1'b1;
    end

    // The entries are format state (defined at reset), so reset clears them.
    always @(posedge clk) begin
        if (rst) begin
            ent_q <= ent_init;
            wp_q  <= {ND{1'b0}};
        end else begin
            ent_q <= ent_d;
            wp_q  <= wp_d;
        end
    end

endmodule

`resetall
