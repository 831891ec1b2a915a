// trc_stkctx: the context stage of the stack mode coders (docs/format.md
// 4.7, 4.8). A record waits here beside the shadow call stack and the
// previous function key while its context table entries are read (the
// table addresses go out one stage ahead of the record that uses them); as
// it leaves, it loads the table stage's registers with itself, the
// exit-of-top test and what its delta alone decides. A record's table index
// depends on the stack and the previous keys only, never on table contents,
// so the one loop here is: the context record -> its push or pop -> the
// next record's index, and that closes in one clock: the index is an XOR of
// two registers selected by a one-hot of what the record does, decoded as
// it entered.
// Parameters:
//   NT, FID_W, TYPE_W, VAL_W, INFO_W - field widths of the format
//   SK   - function context table index bits, 4..12
//   SD   - shadow call stack depth, 1..64
//   SO   - stack mode 2: OS context table index bits, 4..12 (0: stack mode)
//   PDW  - stored delta bits (12)
//   KBW  - bits of a bit-length estimate (6)
`default_nettype none
`include "trc_format.vh"

module trc_stkctx #(
    parameter NT     = 23,
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter INFO_W = 23,
    parameter SK     = 9,
    parameter SD     = 16,
    parameter SO     = 0,
    parameter PDW    = 12,
    parameter KBW    = 6,
    parameter LW     = $clog2(NT + 1),  // derived: bits of a delta's bit length
    parameter SOW    = SO > 0 ? SO : 1  // derived: OS index width
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               adv,       // the stages move
    // ---- records in: {os, delta[NT-1:0], info[INFO_W-1:0]}
    input  wire [NT+INFO_W:0] s_rec,
    input  wire               s_valid,
    // ---- table reads: on adv, the entries of the record entering here
    output wire [SK-1:0]      raddr,
    output wire [SOW-1:0]     raddr_o,
    // ---- the context record's delta (for trc_tscode)
    output wire [NT-1:0]      ct_delta,
    // ---- the table stage's registers (loaded on adv): the record while
    // its entries come out of the tables
    output reg                tb_valid,
    output reg  [INFO_W:0]    tb_rec,    // {os, info}
    output reg                tb_xtop,   // an exit of the top of the stack
    output reg                tb_pk,     // stack mode 2: the raw record before was OS
    output reg  [SK-1:0]      tb_idx,    // its function context index
    output reg  [SOW-1:0]     tb_oidx,   // its OS context index
    output reg  [LW-1:0]      tb_dlen,   // bit length of its delta
    output reg  [KBW-1:0]     tb_dlen3,  // dlen + 3
    // delta == x for x = pd, pd + 1, pd - 1 (pd < 2^PDW): the low PDW bits
    // of delta, delta - 1, delta + 1 and whether they fit
    output reg                tb_eq_ok, tb_up_ok, tb_dn_ok,
    output reg  [PDW-1:0]     tb_d0, tb_dm1, tb_dp1
);

    localparam FW = 1 + FID_W;
    localparam DW = (NT > PDW ? NT : PDW) + 1;
    localparam HV = FID_W + (SK - 2 > 3 ? SK - 2 : 3) + 1;
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);

    // ---- the context stage's record
    reg               ct_valid;
    reg  [NT+INFO_W:0] ct_rec;
    always @(posedge clk) begin
        if (adv)
            ct_rec <= s_rec;
        if (rst)
            ct_valid <= 1'b0;
        else if (adv)
            ct_valid <= s_valid;
    end
    wire [INFO_W-1:0] ct_info = ct_rec[INFO_W-1:0];
    wire [FID_W-1:0]  ct_fid  = ct_info[FID_W-1:0];
    wire              ct_exit = ct_info[FID_W];
    wire              ct_fn   = !ct_rec[NT+INFO_W];
    wire              ct_sync = !ct_fn && ct_info[VAL_W +: TYPE_W] == T_SYNC;

    // What the context record does, one-hot, decoded as it enters, and its
    // exit == top test against the top that the record ahead leaves (its
    // id after a push, second after a pop, 0 after SYNC): the table address
    // and the stack select on registers only.
    wire [FID_W-1:0] top, second;
    wire [FID_W-1:0] s_fid  = s_rec[FID_W-1:0];
    wire             s_fn   = !s_rec[NT+INFO_W];
    wire             s_exit = s_rec[FID_W];
    wire             s_sync = !s_fn && s_rec[VAL_W +: TYPE_W] == T_SYNC;
    reg  k_none, k_sync, k_os, k_push, k_pop, k_stay, xt_q;
    wire xt_d = k_sync ? s_fid == {FID_W{1'b0}} : k_push ? s_fid == ct_fid :
                k_pop ? s_fid == second : s_fid == top;
    always @(posedge clk) begin
        if (adv)
            xt_q <= xt_d;
        if (rst) begin
            {k_none, k_sync, k_os, k_push, k_pop, k_stay} <= 6'b100000;
        end else if (adv) begin
            k_none <= !s_valid;
            k_sync <= s_valid && s_sync;
            k_os   <= s_valid && !s_fn && !s_sync;
            k_push <= s_valid && s_fn && !s_exit;
            k_pop  <= s_valid && s_fn && s_exit && xt_d;
            k_stay <= s_valid && s_fn && s_exit && !xt_d;
        end
    end

    // ---- function context index: fold({top, prev exit flag} ^ pfid << 3
    // ^ pfid << (SK-2)) to SK bits. It is linear: the XOR of a part of the
    // top (h_top, kept on the stack beside each id) and a part of the
    // previous key (h_prev), each made as its value enters a register.
    localparam NCH = (HV + SK - 1) / SK;
    function automatic [SK-1:0] fold(input [HV-1:0] v);
        integer c;
        reg [NCH*SK-1:0] vp;
        begin
            vp = {{(NCH*SK-HV){1'b0}}, v};
            fold = {SK{1'b0}};
            for (c = 0; c < NCH; c = c + 1)
                fold = fold ^ vp[c*SK +: SK];
        end
    endfunction
    function automatic [SK-1:0] h_top(input [FID_W-1:0] t);
        h_top = fold({{(HV-FW){1'b0}}, t, 1'b0});
    endfunction
    function automatic [SK-1:0] h_prev(input [FW-1:0] pv);
        h_prev = fold({{(HV-1){1'b0}}, pv[FID_W]} ^
                      ({{(HV-FID_W){1'b0}}, pv[FID_W-1:0]} << 3) ^
                      ({{(HV-FID_W){1'b0}}, pv[FID_W-1:0]} << (SK - 2)));
    endfunction
    reg  [SK-1:0] ct_htid, ct_hprev, prev_h;
    wire [SK-1:0] top_h, second_h;
    always @(posedge clk)
        if (adv) begin
            ct_htid  <= h_top(s_fid);
            ct_hprev <= h_prev(s_rec[FW-1:0]);
        end
    trc_cstack #(.SD(SD), .W(SK + FID_W)) u_stack (
        .clk(clk), .rst(rst), .en(adv), .clr(k_sync),
        .push(k_push), .pop(k_pop),         // a pop when empty does nothing
        .id({ct_htid, ct_fid}), .top({top_h, top}), .second({second_h, second})
    );
    always @(posedge clk) begin
        if (rst || (adv && k_sync))
            prev_h <= {SK{1'b0}};
        else if (adv && ct_valid && ct_fn)
            prev_h <= ct_hprev;
    end

    // idx_q: the context record's index (0 after reset and SYNC: the reset
    // state hashes to 0); raddr: the next record's, from the state the
    // context record leaves.
    reg  [SK-1:0] idx_q;
    assign raddr = {SK{k_push}} & (ct_hprev ^ ct_htid) | {SK{k_pop}} & (ct_hprev ^ second_h) |
                   {SK{k_stay}} & (ct_hprev ^ top_h) | {SK{k_os}} & (prev_h ^ top_h) |
                   {SK{k_none}} & idx_q;
    always @(posedge clk)
        if (rst)
            idx_q <= {SK{1'b0}};
        else if (adv)
            idx_q <= raddr;

    // ---- stack mode 2: the OS context index, the last OS record's type and
    // value XOR-folded to SO bits (made as the record enters), and pk.
    reg [SOW-1:0] oidx_q, ct_ho;
    reg           ct_pk;
    generate
        if (SO > 0) begin : g_os
            localparam OV  = TYPE_W + VAL_W;
            localparam NCO = (OV + SO - 1) / SO;
            function automatic [SO-1:0] ofold(input [OV-1:0] v);
                integer c;
                reg [NCO*SO-1:0] vp;
                begin
                    vp = {{(NCO*SO-OV){1'b0}}, v};
                    ofold = {SO{1'b0}};
                    for (c = 0; c < NCO; c = c + 1)
                        ofold = ofold ^ vp[c*SO +: SO];
                end
            endfunction
            always @(posedge clk)
                if (adv)
                    ct_ho <= ofold(s_rec[OV-1:0]);
            // every OS record but SYNC moves the OS context; SYNC resets it
            assign raddr_o = {SO{k_os}} & ct_ho | {SO{k_none || k_push || k_pop || k_stay}} & oidx_q;
            always @(posedge clk) begin
                if (rst)
                    oidx_q <= {SO{1'b0}};
                else if (adv)
                    oidx_q <= raddr_o;
                if (rst)
                    ct_pk <= 1'b0;
                else if (adv)
                    ct_pk <= ct_valid ? k_os : ct_pk;
            end
        end else begin : g_no_os
            assign raddr_o = 1'b0;
            always @(posedge clk) begin
                oidx_q <= 1'b0;
                ct_ho  <= 1'b0;
                ct_pk  <= 1'b0;
            end
            wire unused_ho = ct_ho;
        end
    endgenerate

    // ---- what the delta alone decides: its bit length (as the record
    // enters), delta - 1 and delta + 1 (here)
    wire [NT-1:0] s_delta = s_rec[INFO_W +: NT];
    reg  [LW-1:0] s_dlen, ct_dlen;
    integer p;
    always @* begin
        s_dlen = {LW{1'b0}};
        for (p = 0; p < NT; p = p + 1)
            if (s_delta[p])
                s_dlen = p[LW-1:0] + 1'b1;
    end
    always @(posedge clk)
        if (adv)
            ct_dlen <= s_dlen;
    wire [DW-1:0] ct_dx  = {{(DW-NT){1'b0}}, ct_rec[INFO_W +: NT]};
    wire [DW-1:0] ct_dm1 = ct_dx - 1'b1;
    wire [DW-1:0] ct_dp1 = ct_dx + 1'b1;

    // ---- the table stage's registers (datapath not reset, valid is)
    always @(posedge clk) begin
        if (adv) begin
            tb_rec   <= {!ct_fn, ct_info};
            tb_xtop  <= ct_fn && ct_exit && xt_q;
            tb_pk    <= ct_pk;
            tb_idx   <= idx_q;
            tb_oidx  <= oidx_q;
            tb_dlen  <= ct_dlen;
            tb_dlen3 <= {{(KBW-LW){1'b0}}, ct_dlen} + {{(KBW-2){1'b0}}, 2'd3};
            tb_eq_ok <= ct_dx[DW-1:PDW] == {(DW-PDW){1'b0}};
            tb_up_ok <= ct_dm1[DW-1:PDW] == {(DW-PDW){1'b0}} && ct_dx != {DW{1'b0}};
            tb_dn_ok <= ct_dp1[DW-1:PDW] == {(DW-PDW){1'b0}};
            tb_d0    <= ct_dx[PDW-1:0];
            tb_dm1   <= ct_dm1[PDW-1:0];
            tb_dp1   <= ct_dp1[PDW-1:0];
        end
        if (rst)
            tb_valid <= 1'b0;
        else if (adv)
            tb_valid <= ct_valid;
    end

    assign ct_delta = ct_rec[INFO_W +: NT];
    wire unused = ct_sync;

endmodule

`resetall
