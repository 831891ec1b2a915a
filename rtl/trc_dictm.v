// trc_dictm: one field dictionary of the trc format (2^ND-1 entries, CAM)
// whose lookup-update loop is a single register: the record's match vector.
// Lookup takes the lowest address whose entry equals the key; a hit codes
// the address, a miss codes all-ones and stores the key at a FIFO write
// pointer (FLIP: a hit also flips the entry's exit flag).
//
// Each record changes at most one entry, to a value known from its own key
// (its stored form, st(key)). So a key is compared with the entries early,
// against entries that may still miss the changes of the four records
// ahead of it, and with those records' stored forms; the compares are then
// corrected, oldest record first, as each record's change becomes known:
//   stage C (key_in): compares with the entries, the reset values and the
//            four records ahead, registered as two halves each (two short
//            trees, not one deep one)
//   stage L: the halves joined; corrected for the two oldest records
//   stage A: corrected for the third; the loop corrects for the fourth,
//            the record being looked up, and registers the match vector
//   stage K: the record's match vector e_q -> hit, code, and the entry it
//            changes (the lowest match, or the write pointer on a miss)
// The loop is then e_q -> (lowest match, none) -> next e_q, two LUT levels.
// The entries themselves are written a clock after stage K, from registers.
// Every stage moves on adv; a record that does not use the dictionary (or
// a bubble) has an all-zero match vector and changes nothing.
//
// Banks (NB > 1, one per CPU of a multi-CPU stream): every bank holds its own
// entries and write pointer, and a record is looked up in the bank bank_in
// names. A record ahead changes only its own bank, so each correction above
// is masked by "same bank" flags, made from registers a stage early; stage
// C compares with the entries of the record's bank, and the record in K
// takes its write pointer from the one before it when that one is of the
// same bank, else from its bank's register. A SYNC resets every bank. With
// NB = 1 the flags are constants and the logic is the single dictionary's.
// The entries of the banks are kept by trc_dictm_bank: LUT RAM with a
// stored-key flag per bank and entry, or registers (one bank; up to 4 by
// default; any number with TRC_ICE40, LUT RAM from 2 with TRC_ECP5:
// fpga/flow.py defines them for those devices).
// Parameters:
//   ND   - address bits; 2^ND-1 entries, code all-ones is the escape
//   W    - key width
//   FLIP - 1 for the function dictionary: the key MSB is the exit flag, a
//          hit flips the stored flag and a miss stores the key with it
//          flipped
//   NB   - banks, 1..16 (default 1)
//   BW   - bank number width, derived: max(1, log2(NB)) rounded up
`default_nettype none
`include "trc_format.vh"

module trc_dictm #(
    parameter ND   = 3,
    parameter W    = 16,
    parameter FLIP = 0,
    parameter NB   = 1,
    parameter BW   = NB > 1 ? $clog2(NB) : 1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire          adv,     // every stage moves
    // ---- the record entering stage C
    input  wire [W-1:0]  key_in,
    input  wire [BW-1:0] bank_in, // its bank (0 when NB = 1)
    input  wire          upd_in,  // it is looked up here (valid, its kind)
    input  wire          clr_in,  // it is a SYNC (valid): looked up (if upd_in)
                                  // but changes nothing, reset state after it;
                                  // never with upd_in when FLIP (an OS record)
    // ---- the record in stage K
    output wire          hit,
    output reg  [ND-1:0] code
`ifdef FORMAL
    ,
    // for sim/formal/trc_dictm_prop.v (bank 0): the entries as the record
    // in stage K sees them, the write pointer before it, and the keys and
    // kinds in stages L, A, K ({L, A, K}; kinds {upd, clr} each)
    output wire [(1<<ND)*W-W-1:0] f_ent,
    output wire [(1<<ND)-2:0]     f_wp,
    output wire [3*W-1:0]         f_key,
    output wire [5:0]             f_kind
`endif
);

    localparam N = (1 << ND) - 1;
    localparam [W-1:0] MSB = ~({W{1'b1}} >> 1);
    localparam [N-1:0] WP_RST = 1;  // entry 0

    function [W-1:0] st(input [W-1:0] key);  // the value a record stores
        st = (FLIP != 0) ? key ^ MSB : key;
    endfunction

    // ---- entries, written a clock after stage K (c_q, ks_q, clr_q). Reset
    // sets clr_q and clr2_q, as if a SYNC had just left stage K: the entries
    // clear a clock later, and until then every compare takes the reset
    // values.
    localparam NW = N * W;
    // the banks in registers or in LUT RAM, by the device: the iCE40 has no
    // LUT RAM; ECP5's holds four bits in two LUTs; a Xilinx dual-port 16x1
    // takes two LUTs a bit, and there registers with their compares or
    // select take fewer slices up to 4 banks (reports/mp.md)
`ifdef TRC_ICE40
    localparam REGB = 1;
`elsif TRC_ECP5
    localparam REGB = NB == 1;
`else
    localparam REGB = NB <= 4;
`endif
    wire [NW-1:0]    ent_init;
    wire [NW-1:0]    ent_c;         // the entries of bank_in, as stored ...
    wire [N-1:0]     vld_c;         // ... and which of them hold a key (the
                                    // others are at their reset values)
    wire [N-1:0]     beqh, beql;    // REGB: the key against them, in halves
    // ---- the records after stage K: its change, stored value and SYNC
    reg  [N-1:0]   c_q, c2_q;       // entry changed by the record 1 / 2 past K
    // ---- banks: the record's bank per stage, and the changes of the
    // records ahead masked by "same bank as the record now in L / A"
    reg  [BW-1:0]  bl_q, ba_q, bk_q, bk1_q; // bank in L, A, K, 1 past K
    reg  [N-1:0]   cm4_q, cm3_q;    // in L: the change of the record 4 / 3
                                    // ahead, when of its bank
    reg  [N-1:0]   cm2_q;           // in A: the change of the record 2 ahead
    reg            s1_q;            // in A: the record in K is of its bank
    reg  [NB*N-1:0] wpb_q;          // each bank's write pointer, one-hot
    // with one bank every record ahead is of the same bank: the unmasked
    // registers, as the single dictionary has them
    wire [N-1:0]   c4 = NB == 1 ? c2_q : cm4_q;
    wire [N-1:0]   c3 = NB == 1 ? c_q : cm3_q;
    wire [N-1:0]   c2 = NB == 1 ? c_q : cm2_q;
    wire           s1 = NB == 1 || s1_q;
    reg  [W-1:0]   ks_q;            // st(key) of the record 1 past K
    reg            clr_q, clr2_q;   // SYNC 1 / 2 past K
    // ---- stage L registers (from stage C): compares in halves (_h, _l)
    reg  [W-1:0]   kl_q;
    reg            ul_q, sl_q;
    reg  [N-1:0]   rawh_q, rawl_q;  // key == entry as it stood
    reg            riz_q;           // key == reset value: the bits above ND are 0
    reg  [N-1:0]   rid_q;           // ... and the low ND bits are the address
    reg  [3:0]     dh_q, dlo_q;     // key == st(key) of the record 1..4 ahead
    // ---- stage A registers
    reg  [W-1:0]   ka_q;
    reg            ua_q, sa_q;
    reg            s23_q;           // the record 1 or 2 past K is a SYNC
    reg  [N-1:0]   eqb_q;           // corrected for the records 4 and 3 ahead
                                    // and the SYNC of the one 2 ahead
    reg            sel_q;           // looked up here, the record ahead no SYNC:
    reg  [N-1:0]   val_q;           // ... else the match vector (reset values)
    reg            d1_q, d2_q;      // key == st(key) of the record 1 / 2 ahead
    // ---- stage K registers
    reg  [W-1:0]   kk_q;
    reg            uk_q, sk_q;
    reg  [N-1:0]   e_q;             // exact match vector, zero unless uk_q
    reg  [N-1:0]   wp_q, wpu_q;     // write pointer of stage K's bank, one-hot;
                                    // wpu_q = wp_q when a miss stores (uk_q,
                                    // not a SYNC), else 0

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_init
            wire [ND-1:0] idx = g;
            assign ent_init[g*W +: W] = {{(W-ND){1'b0}}, idx};
        end
    endgenerate

    // ---- stage K: the lookup and the entry it changes
    reg  [N-1:0] below;             // a match below entry i
    integer b;
    always @* begin
        below[0] = 1'b0;
        for (b = 1; b < N; b = b + 1)
            below[b] = below[b-1] | e_q[b-1];
    end
    // first and none are kept as nets: from them, the next match vector and
    // the changed entry are one LUT each (left to itself, ABC builds c first
    // and the next match vector from c, a level deeper)
    (* keep *) wire [N-1:0] first;
    (* keep *) wire         none;
    assign first = e_q & ~below;
    assign none  = ~|e_q;
    wire [N-1:0] c     = ((FLIP != 0) ? first : {N{1'b0}}) | ({N{none}} & wpu_q);
    assign hit = !none;
    integer i;
    always @* begin
        code = {ND{1'b1}};
        for (i = N - 1; i >= 0; i = i - 1)
            if (e_q[i])
                code = i[ND-1:0];
    end

    // ---- the write pointer after stage K's record: it moves on a miss of
    // a record that uses the dictionary and restarts after a SYNC. Both
    // outcomes are made from registers; the lookup (none) selects last.
    wire [N-1:0] wp_rot;
    generate
        if (N == 1) begin : g_rot1
            assign wp_rot = wp_q;
        end else begin : g_rot
            assign wp_rot = {wp_q[N-2:0], wp_q[N-1]};
        end
    endgenerate
    wire [N-1:0] wp_stay = sk_q ? WP_RST : wp_q;
    wire [N-1:0] wp_move = sk_q ? WP_RST : uk_q ? wp_rot : wp_q;
    wire [N-1:0] wp_k    = none ? wp_move : wp_stay;   // stage K's bank, after it
    // stage A's record (entering K) takes the pointer after stage K's record
    // when of the same bank, else its bank's register (after a SYNC, the
    // reset value)
    integer j;
    reg  [N-1:0] wpb_a;             // stage A's bank's register (AND-OR)
    always @* begin
        wpb_a = {N{1'b0}};
        for (j = 0; j < NB; j = j + 1)
            wpb_a = wpb_a | ({N{ba_q == j[BW-1:0]}} & wpb_q[j*N +: N]);
    end
    wire [N-1:0] wp_a    = sk_q || NB == 1 ? WP_RST : wpb_a;
    wire [N-1:0] wp_d    = none ? (s1 ? wp_move : wp_a) : (s1 ? wp_stay : wp_a);
    wire         st_a    = ua_q && !sa_q;    // stage A's record stores a miss
    wire [N-1:0] wpu_d   = wp_d & {N{st_a}};

    // ---- stage C: compares, each as two halves
    localparam [W-1:0] LO  = {W{1'b1}} >> (W / 2);     // the low half's bits
    localparam [W-1:0] LND = {W{1'b1}} >> (W - ND);    // the address bits
    function [1:0] eq2(input [W-1:0] x, input [W-1:0] y);  // {high, low} equal
        eq2 = {((x ^ y) & ~LO) == {W{1'b0}}, ((x ^ y) & LO) == {W{1'b0}}};
    endfunction
    wire [N-1:0] rawh_d, rawl_d, rid_d;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_cmp
            if (REGB) begin : g_reg
                // registers hold the reset values themselves: the bank's compares
                assign {rawh_d[g], rawl_d[g]} = {beqh[g], beql[g]};
            end else begin : g_ram
                // (an entry at its reset value is compared with that, a
                // constant, and the compares select: no select on the entries)
                assign {rawh_d[g], rawl_d[g]} = vld_c[g] ? eq2(key_in, ent_c[g*W +: W])
                                                         : eq2(key_in, ent_init[g*W +: W]);
            end
            assign rid_d[g] = (key_in & LND) == ent_init[g*W +: W];
        end
    endgenerate
    generate
        if (REGB) begin : g_unused_ent
            wire unused_ent = ^{ent_c, vld_c};   // the bank compares itself
        end else begin : g_unused_cmp
            wire unused_cmp = ^{beqh, beql};
        end
    endgenerate
    wire [1:0] d1_d = eq2(key_in, st(kl_q));
    wire [1:0] d2_d = eq2(key_in, st(ka_q));
    wire [1:0] d3_d = eq2(key_in, st(kk_q));
    wire [1:0] d4_d = eq2(key_in, ks_q);

    // ---- stage L: the halves joined; corrected for the records 4 and 3
    // ahead (2 and 1 past K) and for the SYNC of the one 2 ahead (in K now:
    // its change is not known yet, but a SYNC changes nothing). Whether the
    // record 1 ahead (in A now) is a SYNC is known too: stage A then only
    // selects.
    wire [2:0]   dl  = dh_q[2:0] & dlo_q[2:0];   // [3]: in o1 below
    wire [N-1:0] ril = rid_q & {N{riz_q}};
    wire [N-1:0] eqb_d;
    // ---- stage A: for the record 2 ahead (1 past K), then (in the loop)
    // the change of the one in stage K
    wire [N-1:0] xa, e_d;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_fix
            // eqb = s23 ? ril : c ? dl2 : old, in three LUT levels: o1, o2
            // (and dl[2]) from registers, then old and pre, then eqb; left
            // to itself, ABC shares dl[3] and makes o1 a level deeper
            (* keep *) wire o1, o2, old, pre;
            assign o1  = c4[g] && dh_q[3] && dlo_q[3];
            assign o2  = !c4[g] && rawh_q[g] && rawl_q[g];
            assign old = clr2_q ? ril[g] : o1 || o2;
            assign pre = s23_q ? ril[g] : c3[g] && dl[2];
            wire   tk  = s23_q || c3[g];
            assign eqb_d[g] = tk ? pre : old;
            assign xa[g] = sel_q ? (c2[g] ? d2_q : eqb_q[g]) : val_q[g];
            // e_d = c ? d1 : xa, with what a miss would do made first (bw),
            // so the lookup's own outcome (first, none) selects last; a
            // record in K of another bank changes nothing here (s1_q)
            wire d1b = s1 ? d1_q : xa[g];
            wire bw  = s1 && wpu_q[g] ? d1_q : xa[g];
            assign e_d[g] = (FLIP != 0) && first[g] ? d1b : none ? bw : xa[g];
        end
    endgenerate

    always @(posedge clk) begin
        if (adv) begin
            kl_q   <= key_in;
            rawh_q <= rawh_d;
            rawl_q <= rawl_d;
            riz_q  <= (key_in & ~LND) == {W{1'b0}};
            rid_q  <= rid_d;
            dh_q   <= {d4_d[1], d3_d[1], d2_d[1], d1_d[1]};
            dlo_q  <= {d4_d[0], d3_d[0], d2_d[0], d1_d[0]};
            ka_q  <= kl_q;
            eqb_q <= eqb_d;
            sel_q <= ul_q && !sa_q;
            val_q <= ril & {N{ul_q && sa_q}};
            d1_q  <= ul_q && dl[0];
            d2_q  <= dl[1];
            kk_q  <= ka_q;
            ks_q  <= st(kk_q);
            bl_q  <= bank_in;
            ba_q  <= bl_q;
            bk_q  <= ba_q;
            bk1_q <= bk_q;
            // the changes ahead of the record entering L (4 ahead: 1 past
            // K now; 3 ahead: in K now) and of the one entering A (2 ahead:
            // in K now), kept when of its bank
            cm4_q <= c_q & {N{bk1_q == bank_in}};
            cm3_q <= c & {N{bk_q == bank_in}};
            cm2_q <= c & {N{bk_q == bl_q}};
            s1_q  <= ba_q == bl_q;
        end
        if (rst) begin
            // no record in A after a reset: a stale select would give the
            // bubble in K a match, and with FLIP it would flip that entry
            sel_q <= 1'b0;
            val_q <= {N{1'b0}};
        end
        if (rst) begin
            {ul_q, sl_q, ua_q, sa_q, uk_q, sk_q} <= 6'd0;
            {clr_q, clr2_q, s23_q} <= 3'b111;
            e_q   <= {N{1'b0}};
            c_q   <= {N{1'b0}};
            c2_q  <= {N{1'b0}};
            wp_q  <= WP_RST;
            wpu_q <= {N{1'b0}};
            for (i = 0; i < NB; i = i + 1)
                wpb_q[i*N +: N] <= WP_RST;
        end else if (adv) begin
            ul_q   <= upd_in;
            sl_q   <= clr_in;
            ua_q   <= ul_q;
            sa_q   <= sl_q;
            uk_q   <= ua_q;
            sk_q   <= sa_q;
            e_q    <= e_d;
            wp_q   <= wp_d;
            wpu_q  <= wpu_d;
            // stage K's bank keeps its pointer after its record; a SYNC
            // resets every bank
            for (i = 0; i < NB; i = i + 1)
                if (sk_q)
                    wpb_q[i*N +: N] <= WP_RST;
                else if (bk_q == i[BW-1:0])
                    wpb_q[i*N +: N] <= wp_k;
            c_q    <= c;
            c2_q   <= c_q;
            clr_q  <= sk_q;
            clr2_q <= clr_q;
            s23_q  <= sa_q || sk_q;   // sk_q || clr_q a clock later
        end
    end

    // ---- the entries, of every bank. A pending write repeats while the
    // stages hold: the same value. The record 1 past K writes its own bank;
    // a SYNC clears every bank.
    trc_dictm_bank #(.N(N), .W(W), .NB(NB), .BW(BW), .REGB(REGB), .HI(~LO)) u_bank (
        .clk(clk), .clr(clr_q), .chg(c_q), .bank_w(bk1_q), .val(ks_q),
        .bank_r(bank_in), .ent_init(ent_init), .ent(ent_c), .vld(vld_c),
        .key(key_in), .eqh(beqh), .eql(beql)
    );

`include "trc_dictm_proof.vh"

`ifdef TRC_ASSERT
    // stage K's bank number names a bank (with NB not a power of two, the
    // bubbles after a reset can carry one past NB - 1 from unreset stages,
    // and no write pointer: no bank is theirs to write)
    wire bk_in;
    generate
        if (NB == 1 || (1 << BW) == NB) begin : g_bk_all
            assign bk_in = 1'b1;
        end else begin : g_bk_cmp
            localparam integer NB1 = NB - 1;
            assign bk_in = bk_q <= NB1[BW-1:0];
        end
    endgenerate
    // a record changes at most one entry, and a SYNC none
    always @(posedge clk) begin
        if (!rst)
            assert ((c_q & (c_q - 1'b1)) == {N{1'b0}} && !(clr_q && c_q != {N{1'b0}}))
                `TRC_ELSE("%m: a record changed more than one entry");
        if (!rst && bk_in)
            assert ((wp_q & (wp_q - 1'b1)) == {N{1'b0}} && wp_q != {N{1'b0}} &&
                    wpu_q == (wp_q & {N{uk_q && !sk_q}}))
                `TRC_ELSE("%m: write pointer not one-hot");
        if (!rst && adv)
            assert (!(FLIP != 0 && upd_in && clr_in))
                `TRC_ELSE("%m: a SYNC looked up in the function dictionary");
    end
`endif

endmodule

`resetall
