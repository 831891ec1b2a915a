// trc_dictp: one field dictionary of the trc format (2^ND-1 entries, CAM).
// Lookup takes the lowest address whose entry equals the key; a hit codes
// the address, a miss codes all-ones and stores the key at a FIFO write
// pointer. The key compares are made a clock ahead of the lookup: the
// record in the lookup stage was compared with the entries when it
// entered (key_in, on adv), before the record ahead of it updated them;
// that update changed one entry to a value known from that record alone
// (its key, flag flipped for FLIP), so one extra compare and a one-hot of
// the changed entry make the registered compares exact. The lookup-update
// loop is then: registered compares -> hit and code -> entry write enable.
// Parameters:
//   ND   - address bits; 2^ND-1 entries, code all-ones is the escape
//   W    - key width
//   FLIP - 1 for the function dictionary: the key MSB is the exit flag, a
//          hit flips the stored flag and a miss stores the key with it
//          flipped
`default_nettype none

module trc_dictp #(
    parameter ND   = 3,
    parameter W    = 16,
    parameter FLIP = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          adv,    // the lookup stage takes key_in
    input  wire [W-1:0]  key_in, // the key entering the lookup stage
    input  wire          clr,    // with adv: the stage's record is a SYNC
    input  wire          upd,    // with adv: commit the stage's lookup
    output reg           hit,
    output reg  [ND-1:0] code
);

    localparam N = (1 << ND) - 1;
    localparam [W-1:0] MSB = ~({W{1'b1}} >> 1);

    reg  [N*W-1:0] ent_q;
    wire [N*W-1:0] ent_init;
    reg  [ND-1:0]  wp_q;
    reg  [W-1:0]   key_q;        // the lookup stage's key
    reg  [N-1:0]   eq_q;         // key_q == entry, entries as key_q entered
    reg  [N-1:0]   chg_q;        // the entry the record ahead changed since
    reg            eqn_q;        // key_q == that entry's new value

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_init
            wire [ND-1:0] idx = g;
            assign ent_init[g*W +: W] = {{(W-ND){1'b0}}, idx};
        end
    endgenerate

    wire [N-1:0] eq = (eq_q & ~chg_q) | (chg_q & {N{eqn_q}});
    // first: the hit entry, one-hot (the lowest eq), for the flips: the
    // entry updates do not wait for the code.
    reg  [N-1:0] below;          // an eq below entry i
    integer b;
    always @* begin
        below[0] = 1'b0;
        for (b = 1; b < N; b = b + 1)
            below[b] = below[b-1] | eq[b-1];
    end
    wire [N-1:0] first = eq & ~below;
    integer i;
    always @* begin
        hit  = 1'b0;
        code = {ND{1'b1}};
        for (i = N - 1; i >= 0; i = i - 1) begin
            if (eq[i]) begin
                hit  = 1'b1;
                code = i[ND-1:0];
            end
        end
    end

    wire [W-1:0] key_store = (FLIP != 0) ? key_q ^ MSB : key_q;

    // Entry next state and the one-hot of the entry it changes.
    wire [N*W-1:0] ent_d;
    wire [N-1:0]   chg_d, eq_d;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_next
            wire [ND-1:0] idx = g;
            wire          wr  = upd && !hit && wp_q == idx;
            wire          fl  = (FLIP != 0) && upd && first[g];
            wire [W-1:0]  e   = ent_q[g*W +: W];
            assign ent_d[g*W +: W] = clr ? ent_init[g*W +: W] :
                                     (wr || fl) ? key_store : e;
            assign chg_d[g] = !clr && (wr || fl);
            assign eq_d[g]  = clr ? key_in == ent_init[g*W +: W] : key_in == e;
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            ent_q <= ent_init;
            wp_q  <= {ND{1'b0}};
            chg_q <= {N{1'b0}};
        end else if (adv) begin
            ent_q <= ent_d;
            chg_q <= chg_d;
            if (clr)
                wp_q <= {ND{1'b0}};
            else if (upd && !hit)
                wp_q <= (wp_q == N[ND-1:0] - 1'b1) ? {ND{1'b0}} : wp_q + 1'b1;
        end
        if (adv) begin
            key_q <= key_in;
            eq_q  <= eq_d;
            eqn_q <= key_in == key_store;
        end
    end

endmodule

`resetall
