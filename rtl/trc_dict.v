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

    reg  [N*W-1:0] ent_q, ent_d;
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

    always @* begin
        ent_d = ent_q;
        wp_d  = wp_q;
        if (clr) begin
            ent_d = ent_init;
            wp_d  = {ND{1'b0}};
        end else if (upd) begin
            if (hit) begin
                if (FLIP != 0) begin
                    for (i = 0; i < N; i = i + 1)
                        if (code == i[ND-1:0])
                            ent_d[i*W + W - 1] = ~ent_q[i*W + W - 1];
                end
            end else begin
                for (i = 0; i < N; i = i + 1)
                    if (wp_q == i[ND-1:0])
                        ent_d[i*W +: W] = key_store;
                wp_d = (wp_q == N[ND-1:0] - 1'b1) ? {ND{1'b0}} : wp_q + 1'b1;
            end
        end
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
