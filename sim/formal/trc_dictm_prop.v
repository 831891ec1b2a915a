// trc_dictm_prop: formal harness for trc_dictm (yosys-smtbmc), read with
// -DTRC_ASSERT so that the module's own checks (a record changes at most one
// entry, a SYNC none; the write pointer is one-hot) are proven with these.
// The environment drives the inputs as trc_coder does: adv, key, upd and
// clr are free in every clock, except that a SYNC is never looked up in the
// function dictionary (FLIP: an OS record is not a function record). A
// record is looked up three advances after it enters (stage K).
// The harness keeps the dictionary of docs/format.md 4.4 as a plain
// reference (entries, FIFO write pointer wp), changed by each record as it
// leaves stage K, and checks every lookup against it:
//   - a hit exactly when the key is in the dictionary, and then the lowest
//     address holding it (code); a miss codes all ones (the escape);
//   - through the later lookups: a miss stores st(key) at wp and moves wp
//     (mod 2^ND - 1), a hit flips the entry's exit flag (FLIP) or changes
//     nothing, a SYNC restores the reset state;
//   - FLIP = 0: the reference's entries stay distinct (the RTL's are
//     asserted distinct in trc_dictm itself).
// With NB > 1 banks, bank_in is free too: the reference keeps one
// dictionary per bank, a record looks up and changes its own bank's, and a
// SYNC restores every bank.
// With -DTRC_INDUCT (k-induction, NB = 1): the module's own invariants, and
// the link to them: its entries as stage K sees them, its write pointer and
// its stages' keys and kinds (formal-only ports) equal the reference's and
// the copies kept here.
// Parameters: ND, W, FLIP, NB as in trc_dictm (small for the solver).
`default_nettype none

module trc_dictm_prop #(
    parameter ND   = 2,
    parameter W    = 4,
    parameter FLIP = 0,
    parameter NB   = 1,
    parameter BW   = NB > 1 ? $clog2(NB) : 1
) (
    input wire         clk,
    input wire         rst,
    input wire         adv,
    input wire [W-1:0] key_in,
    input wire [BW-1:0] bank_in,
    input wire         upd_in,
    input wire         clr_in
);
    localparam N = (1 << ND) - 1;
    localparam [W-1:0] MSB = ~({W{1'b1}} >> 1);
    wire          hit;
    wire [ND-1:0] code;
    wire [N*W-1:0] f_ent;
    wire [N-1:0]   f_wp;
    wire [3*W-1:0] f_key;
    wire [5:0]     f_kind;

    trc_dictm #(.ND(ND), .W(W), .FLIP(FLIP), .NB(NB), .BW(BW)) dut (
        .clk(clk), .rst(rst), .adv(adv), .key_in(key_in), .bank_in(bank_in),
        .upd_in(upd_in), .clr_in(clr_in), .hit(hit), .code(code),
        .f_ent(f_ent), .f_wp(f_wp), .f_key(f_key), .f_kind(f_kind)
    );

    // The run starts in reset; after it, reset may come at any clock and
    // last any number of clocks (one clock included), with adv high in the
    // clock after it (the packer's adv_q is set by rst).
    reg init_q = 1'b1;
    reg rst1_q = 1'b0;
    always @(posedge clk) begin
        init_q <= 1'b0;
        rst1_q <= rst;
    end
    always @* begin
        if (init_q)
            assume (rst);
        if (rst1_q)
            assume (adv);
        if (FLIP != 0)
            assume (!(upd_in && clr_in));
        assume (bank_in < NB);
    end

    // ---- the record's key and kind through stages L, A, K
    reg [W-1:0] kl_q, ka_q, kk_q;
    reg [BW-1:0] bl_q, ba_q, bk_q;
    reg         ul_q, ua_q, uk_q, sl_q, sa_q, sk_q;
    always @(posedge clk) begin
        if (adv) begin
            kl_q <= key_in;
            ka_q <= kl_q;
            kk_q <= ka_q;
        end
        if (rst) begin
            {ul_q, ua_q, uk_q, sl_q, sa_q, sk_q} <= 6'd0;
            // (a bank in range: the reference is read at bk_q every clock)
            {bl_q, ba_q, bk_q} <= {(3 * BW){1'b0}};
        end else if (adv) begin
            {ul_q, ua_q, uk_q} <= {upd_in, ul_q, ua_q};
            {sl_q, sa_q, sk_q} <= {clr_in, sl_q, sa_q};
            {bl_q, ba_q, bk_q} <= {bank_in, bl_q, ba_q};
        end
    end

    // ---- the reference dictionaries (docs/format.md 4.4), one per bank:
    // bank b's entry e at ref_q[b*N + e]; stage K's bank read out as cur
    reg [W-1:0]  ref_q [0:NB*N-1];
    reg [ND-1:0] wpb_q [0:NB-1];
    reg [W-1:0]  cur [0:N-1];
    reg [ND-1:0] wp_q;
    reg          r_hit;
    reg [ND-1:0] r_code;
    integer i, j, m, q;
    always @* begin
        for (m = 0; m < N; m = m + 1)
            cur[m] = ref_q[bk_q*N + m];
        wp_q = wpb_q[bk_q];
        r_hit  = 1'b0;
        r_code = {ND{1'b1}};
        for (m = N - 1; m >= 0; m = m - 1)
            if (cur[m] == kk_q) begin
                r_hit  = 1'b1;
                r_code = m[ND-1:0];
            end
    end
    always @(posedge clk) begin
        if (rst || (adv && sk_q)) begin
            for (j = 0; j < NB * N; j = j + 1)
                ref_q[j] <= j % N;
            for (j = 0; j < NB; j = j + 1)
                wpb_q[j] <= {ND{1'b0}};
        end else if (adv && uk_q) begin
            if (r_hit) begin
                if (FLIP != 0)
                    ref_q[bk_q*N + r_code] <= cur[r_code] ^ MSB;
            end else begin
                ref_q[bk_q*N + wp_q] <= (FLIP != 0) ? kk_q ^ MSB : kk_q;
                wpb_q[bk_q] <= wp_q == N - 1 ? {ND{1'b0}} : wp_q + 1'b1;
            end
        end
    end

    reg past_valid_q;
    initial past_valid_q = 1'b0;
    always @(posedge clk) past_valid_q <= 1'b1;
    always @* begin
        if (past_valid_q && !rst) begin
            if (uk_q)
                assert (hit == r_hit && code == r_code);
            assert (wp_q < N);
            // (the banks the stages hold are in range: the reference is
            // read and written at bk_q)
            assert (bl_q < NB && ba_q < NB && bk_q < NB);
`ifdef TRC_INDUCT
            // the link for k-induction: the module's entries, as the record
            // in stage K sees them, are the reference's; its one-hot write
            // pointer is wp; its stages hold the records as counted here
            if (NB == 1) begin
                for (i = 0; i < N; i = i + 1)
                    assert (f_ent[i*W +: W] == ref_q[i]);
                assert (f_wp == ({{(N-1){1'b0}}, 1'b1} << wp_q));
                assert (f_key == {kl_q, ka_q, kk_q} &&
                        f_kind == {ul_q, sl_q, ua_q, sa_q, uk_q, sk_q});
            end
`endif
            if (FLIP == 0)
                for (i = 0; i < N; i = i + 1)
                    for (q = i + 1; q < N; q = q + 1)
                        assert (cur[i] != cur[q]);
        end
    end

`ifdef COVER
    // reachability: a hit, a hit after a miss stored the key, the pointer
    // wrapping, a lookup right after a SYNC, a flipped entry hit again
    reg seen_wrap_q, seen_flip_q;
    always @(posedge clk) begin
        if (rst) begin
            seen_wrap_q <= 1'b0;
            seen_flip_q <= 1'b0;
        end else if (adv && uk_q) begin
            if (!r_hit && wp_q == N - 1)
                seen_wrap_q <= 1'b1;
            if (r_hit && (cur[r_code] & MSB) != {W{1'b0}})
                seen_flip_q <= 1'b1;
        end
    end
    always @* begin
        if (past_valid_q && !rst) begin
            cover (uk_q && hit && kk_q > N);                 // a stored key found
            cover (uk_q && !hit);
            cover (uk_q && hit && seen_wrap_q && code == 0); // entry 0 rewritten
            cover (uk_q && sa_q && !sk_q && hit);            // around a SYNC
            if (NB > 1)                                      // in another bank
                cover (uk_q && hit && kk_q > N && bk_q != 0);
            if (FLIP != 0)
                cover (uk_q && hit && seen_flip_q);
        end
    end
`endif
endmodule

`resetall
