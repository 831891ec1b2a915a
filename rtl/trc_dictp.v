// trc_dictp: one field dictionary of the trc format (2^ND-1 entries, CAM).
// Lookup takes the lowest address whose entry equals the key; a hit codes
// the address, a miss codes all-ones and stores the key at a FIFO write
// pointer. The key compares are made a clock ahead of the lookup: the
// record in the lookup stage was compared with the entries when it
// entered (key_in, on adv), before the record ahead of it updated them;
// that update changed one entry to a value known from that record alone
// (its key, flag flipped for FLIP), so one extra compare and a one-hot of
// the changed entry make the registered compares exact. The key compares
// themselves are made a clock earlier still, as the record enters the
// stage ahead of the lookup (key_e): its raw compares with the entries, the
// pending value, the initial values and the values that the two records
// ahead of it will store go into registers, and as it enters the lookup
// stage they are combined, from flops only, with what was pending. The
// lookup-update loop is then: registered compares -> hit and code -> the
// one-hot of the entry it changes. The entries themselves are written a clock later, from
// that one-hot and a copy of the stored value, so the loop ends in a few
// flops, not in every entry's enable; the compares made meanwhile take
// the pending value instead of the entry's.
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
    input  wire [W-1:0]  key_e,  // the key entering the stage ahead (key_in next)
    input  wire [W-1:0]  key_in, // the key entering the lookup stage
    input  wire          clr,    // with adv: the entering record is a SYNC
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
    reg  [W-1:0]   ks_q;         // that value, written into ent_q a clock late
    reg            clr_r;        // the lookup stage's record is a SYNC
    reg            clr_q;        // a SYNC cleared the entries; ent_q follows
    reg            ci_q;         // clr_r || clr_q, as a flop of its own
    // key_e's raw compares, made as it entered the stage ahead (on adv)
    reg  [N-1:0]   re_q;         // with the entries
    reg  [N-1:0]   ri_q;         // with the initial entries
    reg  [N-1:0]   rc_q;         // chg_q then: the entry with a pending value
    reg            rk_q;         // with that pending value (ks_q)
    reg            rci_q;        // ci_q then: the entries were to be cleared
    reg            r2_q;         // with what the lookup stage's record stores
    reg            r1_q;         // with what the record between stores

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

    // The one-hot of the entry this lookup changes, and the compares of the
    // entering key with the entries as they stand after the record ahead:
    // as they stood when the key entered the stage before (the raw
    // compares: ent_q, except the one with a pending value, rc_q, or all of
    // them beside a clear, rci_q), then the entry the record ahead changed
    // since (chg_q, the value it stores: r2_q), or all of them after a SYNC
    // (clr_q, not yet cleared) or beside one (clr_r); the two clear flags
    // come as one flop (ci_q).
    wire [N-1:0] chg_d, eq_d;
    wire [W-1:0] key_nx = (FLIP != 0) ? key_in ^ MSB : key_in;  // key_in's store
    generate
        for (g = 0; g < N; g = g + 1) begin : g_next
            wire [ND-1:0] idx = g;
            wire          wr  = upd && !hit && wp_q == idx;
            wire          fl  = (FLIP != 0) && upd && first[g];
            wire          eb  = rci_q ? ri_q[g] : rc_q[g] ? rk_q : re_q[g];
            assign chg_d[g] = !clr_r && (wr || fl);
            assign eq_d[g]  = ci_q ? ri_q[g] : chg_q[g] ? r2_q : eb;
            // a pending write repeats until the next one: same value
            always @(posedge clk) begin
                if (rst || clr_q)
                    ent_q[g*W +: W] <= ent_init[g*W +: W];
                else if (chg_q[g])
                    ent_q[g*W +: W] <= ks_q;
            end
            always @(posedge clk)
                if (adv) begin
                    re_q[g] <= key_e == ent_q[g*W +: W];
                    ri_q[g] <= key_e == ent_init[g*W +: W];
                end
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            wp_q  <= {ND{1'b0}};
            chg_q <= {N{1'b0}};
            clr_r <= 1'b0;
            clr_q <= 1'b0;
            ci_q  <= 1'b0;
        end else begin
            clr_q <= adv && clr_r;
            ci_q  <= adv ? clr || clr_r : clr_r;
            if (adv) begin
                clr_r <= clr;
                chg_q <= chg_d;
                if (clr_r)
                    wp_q <= {ND{1'b0}};
                else if (upd && !hit)
                    wp_q <= (wp_q == N[ND-1:0] - 1'b1) ? {ND{1'b0}} : wp_q + 1'b1;
            end
        end
        if (adv) begin
            key_q <= key_in;
            ks_q  <= key_store;
            eq_q  <= eq_d;
            eqn_q <= r1_q;
            rc_q  <= chg_q;
            rk_q  <= key_e == ks_q;
            rci_q <= ci_q;
            r2_q  <= key_e == key_store;
            r1_q  <= key_e == key_nx;
        end
    end

`ifdef TRC_ASSERT
    // the correction needs at most one changed entry, and none beside a
    // clear; without FLIP no two entries are equal (a miss stores a key no
    // entry holds, a hit changes nothing), so at most one compares equal
    always @(posedge clk) begin
        if (!rst)
            assert ((chg_q & (chg_q - 1'b1)) == {N{1'b0}} && !(clr_q && chg_q != {N{1'b0}}))
                else $error("%m: more than one pending entry write");
        if (!rst && FLIP == 0)
            assert ((eq & (eq - 1'b1)) == {N{1'b0}})
                else $error("%m: two entries match without FLIP");
    end
`endif

endmodule

`resetall
