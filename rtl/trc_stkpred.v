// trc_stkpred: the prediction stage of the stack mode coders (docs/format.md
// 4.7, 4.8). The record meets its context table entries: whether the entry
// predicts it, its delta symbol (EQ, NEAR, L(j), ESC) and the entry's
// update, which goes back to the table. Each entry can be one of three
// words (zero when invalid, the RAM's, a forwarded write): everything is
// worked out for each, and the valid flag and the forwarding hit, the slow
// signals, select last. Stack mode 2 adds the OS context entry, which
// codes the delta of an OS record, the NEAR phase (ld) and the class of the
// last record that the OS entry did not predict (nc).
// Parameters:
//   FID_W, TYPE_W, VAL_W, INFO_W - field widths of the format
//   SK, SO    - table index bits (SO = 0: stack mode)
//   PDW, KBW  - stored delta and bit-length estimate widths
//   LW        - bits of a delta's bit length
//   FE        - stack mode 2: 1, fresh entries (docs/format.md 4.8): an
//               invalid entry (not written since the reset) predicts
//               nothing, its delta is ESC, its update takes kb = the
//               delta's bit length and m = 1
//   TW, OTW   - derived entry widths: {key, pd, kb, m, h} and
//               {type, value, pd, kb, m}
`default_nettype none
`include "trc_format.vh"

module trc_stkpred #(
    parameter FID_W  = 15,
    parameter TYPE_W = 7,
    parameter VAL_W  = 16,
    parameter INFO_W = 23,
    parameter SK     = 9,
    parameter SO     = 0,
    parameter PDW    = 12,
    parameter KBW    = 6,
    parameter LW     = 5,
    parameter FE     = 0,
    parameter TW     = 1 + FID_W + PDW + KBW + 2,
    parameter OTW    = TYPE_W + VAL_W + PDW + KBW + 1,
    parameter SOW    = SO > 0 ? SO : 1
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               adv,
    // ---- the record in the table stage (trc_stkctx's tb_* registers)
    input  wire               tb_valid,
    input  wire [INFO_W:0]    tb_rec,
    input  wire               tb_xtop,
    input  wire               tb_pk,
    input  wire [SK-1:0]      tb_idx,
    input  wire [SOW-1:0]     tb_oidx,
    input  wire [LW-1:0]      tb_dlen,
    input  wire [KBW-1:0]     tb_dlen3,
    input  wire               tb_eq_ok, tb_up_ok, tb_dn_ok,
    input  wire               tb_esc,   // the delta must be ESC (a raw delta, 4.8)
    input  wire [PDW-1:0]     tb_d0, tb_dm1, tb_dp1,
    // ---- its function context entry (trc_ptab): in the table stage as
    // the writes up to the record ahead's predecessor left it, in the
    // prediction stage the record ahead's write (e_phit, e_pdata); the update
    input  wire [TW-1:0]      e_raw, e_fwd,
    input  wire               e_hit, e_ok,
    input  wire               e_phit,
    input  wire [TW-1:0]      e_pdata,
    output wire [TW-1:0]      e_new,
    output wire               e_wr,     // a write of e_new at pr_idx
    // ---- stack mode 2: its OS context entry and the update
    input  wire [OTW-1:0]     o_raw, o_fwd,
    input  wire               o_hit, o_ok,
    input  wire               o_phit,
    input  wire [OTW-1:0]     o_pdata,
    output wire [OTW-1:0]     o_new,
    output wire               o_wr,
    output wire               clr,      // a SYNC: clear the tables
    output wire [SK-1:0]      waddr,
    output wire [SOW-1:0]     waddr_o,
    // ---- the prediction stage's record (its keys enter the dictionaries)
    output reg  [INFO_W:0]    pr_rec,
    // ---- the symbol stage's registers (loaded on adv)
    output reg                sy_valid,
    output reg  [INFO_W:0]    sy_rec,
    output reg                sy_pk,    // coded after an OS record
    output reg                sy_pred,  // predicted by its entry (e or o)
    output reg                sy_xtop,
    output reg  [1:0]         sy_sym,   // EQ, NEAR, L(j), ESC
    output reg  [2:0]         sy_j,     // j + 3 for L(j)
    output reg                sy_m,     // the coding entry's delta mode
    output reg                sy_eh, sy_em, // the function entry's h and m
    output reg                sy_split, // a NEAR phase: NEAR is split in two
    output reg                sy_nearo, // the NEAR is the other direction
    output reg                sy_ndn,   // the NEAR is down (its payload bit)
    output reg                sy_npx,   // step 1's NP is NPX
    output reg                sy_efr,   // the function entry is fresh (FE)
    output reg                sy_ofr,   // the OS entry is fresh (FE)
    output reg  [LW-1:0]      sy_dlen
);

    localparam FW = 1 + FID_W;
    localparam OV = TYPE_W + VAL_W;
    localparam [TYPE_W-1:0] T_SYNC = `TRC_T_SYNC(TYPE_W);
    localparam [PDW-1:0] PD_MAX = {PDW{1'b1}};
    localparam [0:0]     FR     = FE != 0;   // fresh entries

    // ---- the prediction stage's record (datapath not reset, valid is);
    // what it does to the tables (clear, writes) is decoded as it enters
    wire              tb_os   = tb_rec[INFO_W];
    wire              tb_fn   = !tb_os;
    wire [FW-1:0]     tb_fkey = tb_rec[FW-1:0];
    wire [OV-1:0]     tb_oev  = tb_rec[OV-1:0];
    wire              tb_sync = tb_os && tb_rec[VAL_W +: TYPE_W] == T_SYNC;
    reg               pr_valid, pr_xtop, pr_pk, pr_clr, pr_ewr, pr_owr;
    reg  [SK-1:0]     pr_idx;
    reg  [SOW-1:0]    pr_oidx;
    reg  [LW-1:0]     pr_dlen;
    reg  [KBW-1:0]    pr_dlen3;
    reg               pr_eq_ok, pr_esc;
    reg  [PDW-1:0]    pr_d0;
    always @(posedge clk) begin
        if (adv) begin
            pr_rec   <= tb_rec;
            pr_xtop  <= tb_xtop;
            pr_pk    <= tb_pk;
            pr_idx   <= tb_idx;
            pr_oidx  <= tb_oidx;
            pr_dlen  <= tb_dlen;
            pr_dlen3 <= tb_dlen3;
            pr_eq_ok <= tb_eq_ok;
            pr_esc   <= tb_esc;
            pr_d0    <= tb_d0;
        end
        if (rst) begin
            pr_valid <= 1'b0;
            pr_clr   <= 1'b0;
            pr_ewr   <= 1'b0;
            pr_owr   <= 1'b0;
        end else if (adv) begin
            pr_valid <= tb_valid;
            pr_clr   <= tb_valid && tb_sync;
            pr_ewr   <= tb_valid && tb_fn;
            pr_owr   <= tb_valid && tb_os && !tb_sync && SO > 0;
        end
    end

    wire              os   = pr_rec[INFO_W];
    wire              fn   = !os;
    wire [INFO_W-1:0] info = pr_rec[INFO_W-1:0];
    wire [FW-1:0]     fkey = info[FW-1:0];
    wire [OV-1:0]     oev  = info[OV-1:0];
    // the entry it writes: its key, its delta (saturated), kb and m
    wire [PDW-1:0]    pd_new = pr_eq_ok ? pr_d0 : PD_MAX;

    // Per candidate entry of each table: the key compare, and the delta:
    // == pd, - 1 == pd, + 1 == pd (the sides that do not depend on the entry
    // come from trc_stkctx); j = dlen - kb, L(j) <=> jp3 = j + 3 in 0..7; kb
    // after this record, one step toward dlen. The candidates: zero (an
    // invalid entry), the RAM's word, a forwarded write, each worked out in
    // the table stage into registers of their own (flags, not yet the
    // symbol); and the write of the record ahead to the same entry (phit):
    // its key and delta are known while it is in the prediction stage, so
    // their compares with this record are registers too, and only its kb,
    // the entry's one field that the update works on, stays: kb -> kb after
    // this record -> the write is the one loop that must close in a clock.
    // The valid flag, the forwarding hit and phit select last; the symbol
    // is encoded after them. Each table's entry update depends on its own
    // candidates only: the record's kind selects between the tables after
    // that, for the symbol stage.
    localparam DWID = PDW + KBW + 1;
    localparam KP = 1 + 3 + KBW;                    // {in_l, jp3, kb_upd}
    localparam FC = 4 + KP + 1 + 2;                 // {kpred, eq, up, dn, KP, m, mh}
    localparam CW = 1 + 2 + 2 + 3 + KBW + 1 + 1 + 2;
    function automatic [KP-1:0] kb_part(input [LW-1:0] r_dlen, input [KBW-1:0] r_dlen3,
                                        input [KBW-1:0] r_kb);
        reg [KBW-1:0] kb_upd, dlen_k;
        reg [7:0]     jp3;
        reg           in_l;
        begin
            dlen_k  = {{(KBW-LW){1'b0}}, r_dlen};
            jp3     = {2'b00, r_dlen3} - {2'b00, r_kb};
            in_l    = r_dlen != {LW{1'b0}} && jp3[7:3] == 5'd0;
            kb_upd  = dlen_k < r_kb ? r_kb - 1'b1 : dlen_k != r_kb ? r_kb + 1'b1 : r_kb;
            kb_part = {in_l, jp3[2:0], kb_upd};
        end
    endfunction
    // (flags_of: against the table stage's record, the tb_* inputs)
    function automatic [FC-1:0] flags_of(input kpred, input [DWID-1:0] dent, input [1:0] mh);
        reg [PDW-1:0] r_pd;
        begin
            r_pd     = dent[KBW+1 +: PDW];
            flags_of = {kpred, tb_eq_ok && tb_d0 == r_pd, tb_up_ok && tb_dm1 == r_pd,
                        tb_dn_ok && tb_dp1 == r_pd, kb_part(tb_dlen, tb_dlen3, dent[1 +: KBW]),
                        dent[0], mh};
        end
    endfunction
    function automatic [CW-1:0] cand_of(input [FC-1:0] f);
        reg           kpred, eq, near_up, near_dn, in_l, m0;
        reg [2:0]     jp3;
        reg [KBW-1:0] kb_upd;
        reg [1:0]     mh, sym;
        begin
            {kpred, eq, near_up, near_dn, in_l, jp3, kb_upd, m0, mh} = f;
            sym     = eq ? 2'd0 : (near_up || near_dn) ? 2'd1 : in_l ? 2'd2 : 2'd3;
            cand_of = {kpred, near_up, near_dn, sym, jp3, kb_upd,
                       !(eq || near_up || near_dn), m0, mh};
        end
    endfunction
    localparam [DWID-1:0] DZ = {DWID{1'b0}};
    // the record ahead's writes against this record: the delta compares
    // (both tables store pd_new) and each table's key compare
    reg pq_eq, pq_up, pq_dn, pq_ke, pq_ko;
    always @(posedge clk)
        if (adv) begin
            pq_eq <= tb_eq_ok && tb_d0 == pd_new;
            pq_up <= tb_up_ok && tb_dm1 == pd_new;
            pq_dn <= tb_dn_ok && tb_dp1 == pd_new;
            pq_ke <= tb_fn && tb_fkey == fkey;
            pq_ko <= tb_os && tb_oev == oev;
        end
    // An invalid entry is the reset entry, or with FE a fresh one: no key
    // match, no EQ, NEAR or L(j) (ESC), kb after it the delta's bit length.
    wire [FC-1:0] fresh_f = {{(FC-KBW-3){1'b0}}, {(KBW-LW){1'b0}}, tb_dlen, 3'b000};
    wire [FC-1:0] ef0 = FR ? fresh_f : flags_of(tb_fn && tb_fkey == {FW{1'b0}}, DZ, 2'b00);
    wire [FC-1:0] ef1 = flags_of(tb_fn && tb_fkey == e_raw[TW-1 -: FW],
                                 e_raw[TW-1-FW -: DWID], e_raw[1:0]);
    wire [FC-1:0] ef2 = flags_of(tb_fn && tb_fkey == e_fwd[TW-1 -: FW],
                                 e_fwd[TW-1-FW -: DWID], e_fwd[1:0]);
    wire [FC-1:0] efp = {pq_ke, pq_eq, pq_up, pq_dn,
                         kb_part(pr_dlen, pr_dlen3, e_pdata[2 +: KBW]), e_pdata[1], e_pdata[1:0]};
    // (the valid flag goes into a register of its own: its lookup in the
    // flags row is the table stage's slowest signal)
    reg  [FC-1:0] ef0_q, ef1_q, ef2_q;
    reg           eok_q, ehit_q;
    always @(posedge clk)
        if (adv) begin
            ef0_q  <= ef0;
            ef1_q  <= ef1;
            ef2_q  <= ef2;
            ehit_q <= e_hit;
            eok_q  <= e_ok && !clr;
        end
    wire [CW-1:0] esel = cand_of(e_phit ? efp : !eok_q ? ef0_q : ehit_q ? ef2_q : ef1_q);
    wire [CW-1:0] osel, dsel;
    wire          ofresh;
    generate
        if (SO > 0) begin : g_ocand
            wire [FC-1:0] of0 = FR ? fresh_f
                                   : flags_of(tb_os && tb_oev == {OV{1'b0}}, DZ, 2'b00);
            wire [FC-1:0] of1 = flags_of(tb_os && tb_oev == o_raw[OTW-1 -: OV],
                                         o_raw[DWID-1:0], 2'b00);
            wire [FC-1:0] of2 = flags_of(tb_os && tb_oev == o_fwd[OTW-1 -: OV],
                                         o_fwd[DWID-1:0], 2'b00);
            wire [FC-1:0] ofp = {pq_ko, pq_eq, pq_up, pq_dn,
                                 kb_part(pr_dlen, pr_dlen3, o_pdata[1 +: KBW]), o_pdata[0], 2'b00};
            reg  [FC-1:0] of0_q, of1_q, of2_q;
            reg           ook_q, ohit_q;
            always @(posedge clk)
                if (adv) begin
                    of0_q  <= of0;
                    of1_q  <= of1;
                    of2_q  <= of2;
                    ohit_q <= o_hit;
                    ook_q  <= o_ok && !clr;
                end
            assign osel = cand_of(o_phit ? ofp : !ook_q ? of0_q : ohit_q ? of2_q : of1_q);
            assign ofresh = FR && !o_phit && !ook_q;
            assign dsel = fn ? esel : osel;
            wire unused_op = ^{o_pdata[OTW-1:KBW+1]};
        end else begin : g_no_ocand
            assign osel = {CW{1'b0}};
            assign dsel = esel;
            assign ofresh = 1'b0;
            wire unused_o = ^{o_raw, o_fwd, o_hit, o_ok, o_phit, o_pdata, pq_ko};
        end
    endgenerate
    wire           fpred   = esel[CW-1];
    wire           opred   = SO > 0 && osel[CW-1];
    wire           near_up = dsel[CW-2];
    wire           near_dn = dsel[CW-3];
    wire [1:0]     sym     = dsel[CW-4 -: 2];
    wire [2:0]     jp3     = dsel[CW-6 -: 3];
    wire           d_m     = dsel[2];          // the coding entry's m
    wire           e_m     = esel[1];
    wire           e_h     = esel[0];
    wire           pred    = fn ? fpred : opred;
    // each table's update from its own candidates (m: no EQ or NEAR)
    wire [KBW-1:0] kb_e = esel[4 +: KBW], kb_o = osel[4 +: KBW];
    wire           m_e  = esel[3], m_o = osel[3];
    wire           e_up = esel[CW-2], e_dn = esel[CW-3];
    wire           e_eq = esel[CW-4 -: 2] == 2'd0;

    assign e_new   = {fkey, pd_new, kb_e, m_e, fpred};
    assign o_new   = {oev, pd_new, kb_o, m_o};
    assign e_wr    = pr_ewr;
    assign o_wr    = pr_owr;
    assign clr     = pr_clr;
    assign waddr   = pr_idx;
    assign waddr_o = pr_oidx;

    // ---- stack mode 2's states: the NEAR phase after function records,
    // and the class of step 1's last NP
    localparam [1:0] LD_NONE = 2'd0, LD_UP = 2'd1, LD_DOWN = 2'd2;
    reg [1:0] ld_q;
    reg       nc_q;
    wire      split = SO > 0 && ld_q != LD_NONE;
    // NEAR against the phase: after an up step the predicted one is down
    wire      nearo = ld_q == LD_UP ? near_up : near_dn;
    always @(posedge clk) begin
        if (rst || SO == 0 || adv && clr) begin
            ld_q <= LD_NONE;
            nc_q <= 1'b0;
        end else if (adv && pr_valid) begin
            if (fn && !e_eq)
                ld_q <= e_up ? LD_UP : e_dn ? LD_DOWN : LD_NONE;
            if (pr_pk && !(os && opred))
                nc_q <= fn;
        end
    end

    // ---- the symbol stage's registers (datapath not reset, valid is)
    always @(posedge clk) begin
        if (adv) begin
            sy_rec   <= pr_rec;
            sy_pk    <= pr_pk;
            sy_pred  <= pred;
            sy_xtop  <= pr_xtop;
            sy_sym   <= pr_esc ? 2'd3 : sym;
            sy_j     <= jp3;
            sy_m     <= d_m;
            sy_eh    <= e_h;
            sy_em    <= e_m;
            sy_split <= split;
            sy_nearo <= split && fn && nearo;
            sy_ndn   <= near_dn;
            sy_npx   <= fn != nc_q;
            sy_efr   <= FR && !e_phit && !eok_q;
            sy_ofr   <= ofresh;
            sy_dlen  <= pr_dlen;
        end
        if (rst)
            sy_valid <= 1'b0;
        else if (adv)
            sy_valid <= pr_valid;
    end

    wire unused = ^{dsel[CW-1], dsel[4 +: KBW], dsel[3], dsel[1:0], osel[2:0],
                    osel[CW-2:CW-8], e_pdata[TW-1:KBW+2]};

endmodule

`resetall
